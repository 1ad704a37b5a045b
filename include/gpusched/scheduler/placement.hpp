#pragma once
/// The answer to a one-shot scheduling question: where would this pod go now, and why not
/// elsewhere.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpusched {

/// One node's verdict for the pod.
struct NodeVerdict {
  std::string node;
  bool feasible = false;
  /// When not feasible: the plugin that rejected it (a Filter plugin, or the PreFilter plugin
  /// that rejected the pod or left the node out), and its reasons as FailedScheduling counts them.
  std::string plugin;
  std::vector<std::string> reasons;
  /// When feasible: the weighted sum of the Score plugins (0 in a profile without any).
  std::int64_t score = 0;
};

/// One scheduling cycle run without its effects: PreFilter, Filter on every node, Score on every
/// feasible one, and when none is feasible PostFilter's preemption as a dry run.
struct Placement {
  /// The feasible nodes with the top score, by name: kube-scheduler's selectHost takes one of
  /// them at random. Empty when no node fits.
  std::vector<std::string> best;
  /// When no node fits: the FailedScheduling message, word for word, preemption included.
  std::string message;
  /// When no node fits but preemption would make room: the node the pod would be nominated to
  /// and the pods ("ns/name") it would evict there.
  std::string nominated_node;
  std::vector<std::string> victims;
  std::vector<NodeVerdict> nodes;  ///< every node, by name
};

/// How many copies of a pod fit one after another, each placed where the scheduler would put
/// it (the first of Placement::best), without preempting.
struct FitCount {
  std::int64_t count = 0;
  std::vector<std::pair<std::string, std::int64_t>> per_node;  ///< by name, nodes that took some
  /// Why the next copy would not fit (its FailedScheduling message without preemption); empty
  /// when the count reached the limit asked for.
  std::string stopped_by;
};

}  // namespace gpusched
