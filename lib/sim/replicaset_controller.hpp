#pragma once
// The ReplicaSet controller (pkg/controller/replicaset).

#include "sim/controller.hpp"

namespace gpusched::sim {

class ReplicaSetController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "ReplicaSet"; }
  void sync(const std::string& key) override;
  void sync_all() override;
};

}  // namespace gpusched::sim
