#pragma once
/// One scheduling cycle told in full, for `explain`: where kube-scheduler's FailedScheduling
/// message keeps only the first failing plugin per node, this keeps every Filter plugin's
/// verdict, every Score plugin's score and the preemption dry-run on every node.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/scheduler/placement.hpp"

namespace gpusched {

/// One Filter plugin's verdict on one node.
struct FilterVerdict {
  std::string plugin;
  /// "Success", "Unschedulable", "UnschedulableAndUnresolvable", "Error", or "Skip" for a
  /// plugin whose PreFilter said it has nothing to check for this pod.
  std::string code;
  std::vector<std::string> reasons;
  /// For NodeResourcesFit's "Insufficient <resource>": what the node has free and what the pod
  /// needs, per resource short ("free 0, need 1"); for DynamicResources, each device of the
  /// node and why it does not serve the pod's claims; empty otherwise.
  std::string detail;
  /// A rejection or an error: neither Success nor Skip.
  [[nodiscard]] bool failed() const { return code != "Success" && code != "Skip"; }
};

/// One node in the cycle.
struct NodeReport {
  std::string name;
  bool feasible = false;
  /// Every Filter plugin of the profile, in profile order. When PreFilter rejected the pod or
  /// left the node out, the one PreFilter verdict instead.
  std::vector<FilterVerdict> filters;
  /// True when pods nominated to the node, of the pod's priority or higher, were counted as if
  /// they ran there (RunFilterPluginsWithNominatedPods).
  bool nominated_pods_counted = false;
  /// Feasible nodes: each Score plugin's normalized score (0..100) and the weighted total.
  std::vector<std::pair<std::string, std::int64_t>> scores;
  std::int64_t total = 0;
};

/// Preemption's dry run on one node (SelectVictimsOnNode), tried on every node, where the cycle
/// stops once it has enough candidates.
struct PreemptionReport {
  std::string node;
  bool candidate = false;
  std::vector<std::string> victims;  ///< "ns/name", most important first
  std::int64_t pdb_violations = 0;
  /// When not a candidate: why, in plain words.
  std::string why_not;
};

struct CycleReport {
  /// What the cycle decides (best nodes, the message, the nomination and its victims).
  Placement placement;
  std::vector<NodeReport> nodes;  ///< by name
  /// Score plugins and their weights, in profile order (empty when no node was feasible).
  std::vector<std::pair<std::string, std::int64_t>> score_weights;
  /// PodEligibleToPreemptOthers' refusal ("" when the pod may preempt, or when no node fit and
  /// the profile has no PostFilter).
  std::string preemption_refused;
  /// Per node, when no node fits and preemption runs (empty otherwise), by name.
  std::vector<PreemptionReport> preemption;
};

}  // namespace gpusched
