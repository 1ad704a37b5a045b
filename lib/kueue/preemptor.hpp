#pragma once
// Kueue's preemption (Kueue v0.19.2 pkg/scheduler/preemption). Only the no-victim case is
// modelled so far: a ClusterQueue whose spec.preemption allows preemption, or fair sharing, is
// named in a warning by the Kueue controller (sim/kueue_controller.cpp) until the classical
// and fair-sharing preemptors are ported.

#include "kueue/flavor_assigner.hpp"

namespace gpusched::kueue {

/// A preemptor that never finds candidates: exactly Kueue's answer when every policy of the
/// ClusterQueue and its cohort is Never.
class NoCandidatesOracle final : public PreemptionOracle {
 public:
  std::pair<PreemptionPossibility, int> simulate_preemption(const ClusterQueueNode& cq,
                                                            const WorkloadInfo& /*wl*/,
                                                            const FlavorResource& fr,
                                                            Amount quantity) override {
    // preemption_oracle.go: with no candidates, the borrowing level of the request as it is.
    return {PreemptionPossibility::NoCandidates,
            height_of_lowest_subtree_that_fits(cq, fr, quantity).first};
  }
};

}  // namespace gpusched::kueue
