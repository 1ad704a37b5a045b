#pragma once
// The Job controller (pkg/controller/job).

#include "sim/controller.hpp"

namespace gpusched::sim {

class JobController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "Job"; }
  void sync(const std::string& key) override;
  void sync_all() override;
};

}  // namespace gpusched::sim
