#pragma once
// Kueue's flavor assignment (Kueue v0.19.2 pkg/scheduler/flavorassigner/flavorassigner.go):
// for each pod set and resource group, the first flavor in the ClusterQueue's order that the
// pods tolerate and match, and whose quota holds the request now (Fit), after preemption
// (Preempt) or never (NoFit), with Kueue's messages. Topology Aware Scheduling, partial
// admission, workload slices and concurrent admission are not modelled (docs/fidelity.md).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "kueue/quota_tree.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::kueue {

/// FlavorAssignmentMode, from least to most preferred.
enum class AssignmentMode : std::uint8_t { NoFit, Preempt, DeferredFit, Fit };

/// preemptioncommon.PreemptionPossibility.
enum class PreemptionPossibility : std::uint8_t { NoCandidates, Preempt, Reclaim };

/// What the preemptor says about freeing `quantity` of `fr` for a workload (preemptionOracle):
/// whether victims exist, and the borrowing level after preempting them.
class PreemptionOracle {
 public:
  virtual ~PreemptionOracle() = default;
  [[nodiscard]] virtual std::pair<PreemptionPossibility, int> simulate_preemption(
      const ClusterQueueNode& cq, const WorkloadInfo& wl, const FlavorResource& fr,
      Amount quantity) = 0;
};

/// FlavorAssignment of one resource.
struct FlavorAssignment {
  std::string name;
  AssignmentMode mode = AssignmentMode::NoFit;
  int tried_flavor_idx = 0;
  int borrow = 0;
};

/// Status: why flavors could not be assigned at once (reasons sorted and joined with ", ").
struct AssignStatus {
  std::vector<std::string> reasons;
  [[nodiscard]] bool is_fit() const { return reasons.empty(); }
  [[nodiscard]] std::string message() const;
};

/// FlavorAssignmentAttempt: how one flavor fared, for the QuotaReserved event's "Flavors
/// considered".
struct FlavorAttempt {
  std::string flavor;
  AssignmentMode mode = AssignmentMode::NoFit;
  int borrow = 0;
  std::optional<PreemptionPossibility> preemption;
  std::vector<std::string> reasons;  ///< sorted, unique
};

struct PodSetFlavors {
  std::string name;
  std::vector<FlavorAttempt> attempts;              ///< by flavor name
  std::map<std::string, FlavorAssignment> flavors;  ///< by resource
  AssignStatus status;
  Requests requests;  ///< the pod set's total requests
  std::int32_t count = 0;
  [[nodiscard]] AssignmentMode representative_mode() const;
};

struct Assignment {
  std::vector<PodSetFlavors> pod_sets;
  /// The height of the smallest cohort subtree that holds the usage (0: no borrowing).
  int borrowing = 0;
  AssignmentState last_state;
  FlavorResourceAmounts usage;
  std::optional<AssignmentMode> mode_override;  ///< SetRepresentativeMode

  /// The worst mode of the pod sets (NoFit when there are none).
  [[nodiscard]] AssignmentMode representative_mode() const;
  /// `couldn't assign flavors to pod set main: ...`, pod sets joined with "; ".
  [[nodiscard]] std::string message() const;
  /// The admission's PodSetAssignments (ToAPI).
  [[nodiscard]] std::vector<PodSetAssignment> to_api() const;
};

/// The assigner's inputs besides the workload.
struct AssignerContext {
  ClusterQueueNode* cq = nullptr;
  const std::map<std::string, ResourceFlavor>* flavors = nullptr;
  bool enable_fair_sharing = false;
  PreemptionOracle* oracle = nullptr;
  std::int64_t scheduling_cycle = 0;
};

/// FormatFlavorAssignmentAttemptsForEvents: the flavors that did not fit at once, per pod set
/// (`main: h100(NoFit;insufficient ...), a100(Fit;borrow=1)`), "" when every first choice fit.
[[nodiscard]] std::string format_attempts_for_events(const Assignment& assignment);

/// FlavorAssigner.Assign with all pods of each set.
[[nodiscard]] Assignment assign_flavors(const WorkloadInfo& wl, const AssignerContext& ctx);

/// The order Kueue iterates a pod set's resources in (SliceRequests: by the FNV-1a hash of the
/// name, then the name).
[[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> resource_order(
    const Requests& requests);

}  // namespace gpusched::kueue
