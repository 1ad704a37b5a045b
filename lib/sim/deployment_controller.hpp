#pragma once
// The Deployment controller (pkg/controller/deployment).

#include "sim/controller.hpp"

namespace gpusched::sim {

class DeploymentController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "Deployment"; }
  void sync(const std::string& key) override;
  void sync_all() override;
};

}  // namespace gpusched::sim
