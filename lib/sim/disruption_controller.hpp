#pragma once
// The disruption controller (pkg/controller/disruption): each PodDisruptionBudget's status from
// the pods now, which the scheduler's preemption reads.

#include "model/disruption.hpp"
#include "sim/api_server.hpp"

namespace gpusched::sim {

class DisruptionController {
 public:
  explicit DisruptionController(ApiServer& api) : api_(api) {}
  /// The budget's status now (updatePdbStatus).
  [[nodiscard]] PdbStatus status(const PodDisruptionBudget& pdb) const;
  /// Every budget's disruptionsAllowed, handed to the scheduler's cache.
  void refresh();

 private:
  ApiServer& api_;
};

}  // namespace gpusched::sim
