#pragma once
/// core/v1 Node as the scheduler sees it.

#include <string>
#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/resource_list.hpp"

namespace gpusched {

enum class TaintEffect { NoSchedule, PreferNoSchedule, NoExecute };

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::NoSchedule;
  friend bool operator==(const Taint&, const Taint&) = default;
};

struct NodeCondition {
  std::string type;    ///< "Ready", "MemoryPressure", ...
  std::string status;  ///< "True", "False", "Unknown"
  std::string reason;
  std::string message;
  friend bool operator==(const NodeCondition&, const NodeCondition&) = default;
};

struct Node {
  ObjectMeta metadata;
  bool unschedulable = false;  ///< spec.unschedulable (kubectl cordon)
  std::vector<Taint> taints;   ///< spec.taints as written
  ResourceList capacity;       ///< status.capacity
  ResourceList allocatable;    ///< status.allocatable: the only figure the scheduler uses
  std::vector<NodeCondition> conditions;
  friend bool operator==(const Node&, const Node&) = default;

  /// spec.taints plus the NoSchedule taints the node lifecycle controller keeps in step with
  /// the conditions (TaintNodesByCondition: `node.kubernetes.io/not-ready` for Ready=False,
  /// `node.kubernetes.io/unreachable` for Ready=Unknown, and `memory-pressure`,
  /// `disk-pressure`, `network-unavailable`, `pid-pressure` for those conditions True),
  /// appended last as controller patches append, unless already present.
  [[nodiscard]] std::vector<Taint> effective_taints() const;
  /// Ready unless a Ready condition says False or Unknown (a node without one counts as Ready).
  [[nodiscard]] bool ready() const;
};

[[nodiscard]] std::string_view to_string(TaintEffect effect) noexcept;
/// Taint.ToString: `key=value:Effect`, or `key:Effect` without a value.
[[nodiscard]] std::string to_string(const Taint& taint);

}  // namespace gpusched
