// Node taints as the scheduler sees them: spec.taints plus the NoSchedule taints the node
// lifecycle controller keeps in step with the node's conditions (TaintNodesByCondition,
// pkg/controller/nodelifecycle/node_lifecycle_controller.go doNoScheduleTaintingPass and its
// nodeConditionToTaintKeyStatusMap).
#include "gpusched/model/node.hpp"

#include <algorithm>
#include <string_view>

namespace gpusched {
namespace {

struct ConditionTaint {
  std::string_view condition;
  std::string_view status;
  std::string_view taint_key;
};

// In the controller's map order; the controller appends the taints it adds after the existing
// ones.
constexpr ConditionTaint kConditionTaints[] = {
    {"Ready", "False", "node.kubernetes.io/not-ready"},
    {"Ready", "Unknown", "node.kubernetes.io/unreachable"},
    {"MemoryPressure", "True", "node.kubernetes.io/memory-pressure"},
    {"DiskPressure", "True", "node.kubernetes.io/disk-pressure"},
    {"NetworkUnavailable", "True", "node.kubernetes.io/network-unavailable"},
    {"PIDPressure", "True", "node.kubernetes.io/pid-pressure"},
};

}  // namespace

std::vector<Taint> Node::effective_taints() const {
  std::vector<Taint> out = taints;
  for (const NodeCondition& condition : conditions) {
    for (const ConditionTaint& ct : kConditionTaints) {
      if (condition.type != ct.condition || condition.status != ct.status) continue;
      Taint taint{std::string(ct.taint_key), "", TaintEffect::NoSchedule};
      // TaintSetDiff: a taint already present (same key and effect) is not added twice.
      const bool present = std::any_of(out.begin(), out.end(), [&](const Taint& t) {
        return t.key == taint.key && t.effect == taint.effect;
      });
      if (!present) out.push_back(std::move(taint));
    }
  }
  return out;
}

std::string_view to_string(TaintEffect effect) noexcept {
  switch (effect) {
    case TaintEffect::NoSchedule:
      return "NoSchedule";
    case TaintEffect::PreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::NoExecute:
      return "NoExecute";
  }
  return "NoSchedule";
}

std::string to_string(const Taint& taint) {
  std::string text = taint.key;
  if (!taint.value.empty()) text += "=" + taint.value;
  return text + ":" + std::string(to_string(taint.effect));
}

bool Node::ready() const {
  return std::none_of(conditions.begin(), conditions.end(), [](const NodeCondition& c) {
    return c.type == "Ready" && c.status != "True";
  });
}

}  // namespace gpusched
