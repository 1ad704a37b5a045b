// Mirrors pkg/controller/daemon/util/daemonset_util.go and
// pkg/apis/core/v1/helper.AddOrUpdateTolerationInPodSpec.
#include "sim/daemonset_util.hpp"

#include <algorithm>

namespace gpusched::sim {
namespace {

/// metav1.ObjectNameField: the one field a node selector's matchFields may name.
constexpr std::string_view kObjectNameField = "metadata.name";

/// AddOrUpdateTolerationInPodSpec: Toleration.MatchToleration compares key, operator, value and
/// effect. When a matching toleration already equals `toleration` nothing changes; otherwise every
/// match is replaced by it (dropping a tolerationSeconds), and without a match it is appended.
void add_or_update_toleration(PodSpec& spec, const Toleration& toleration) {
  auto matches = [&](const Toleration& t) {
    return t.key == toleration.key && t.op == toleration.op && t.value == toleration.value &&
           t.effect == toleration.effect;
  };
  if (std::any_of(spec.tolerations.begin(), spec.tolerations.end(),
                  [&](const Toleration& t) { return matches(t) && t == toleration; })) {
    return;
  }
  bool updated = false;
  for (Toleration& t : spec.tolerations.mut()) {
    if (!matches(t)) continue;
    t = toleration;
    updated = true;
  }
  if (!updated) spec.tolerations.push_back(toleration);
}

}  // namespace

void add_or_update_daemon_pod_tolerations(PodSpec& spec) {
  // Not-ready and unreachable NoExecute without tolerationSeconds: the node lifecycle controller's
  // taint-based eviction never evicts a daemon pod. The NoSchedule ones follow
  // TaintNodesByCondition.
  struct Added {
    std::string_view key;
    TaintEffect effect;
  };
  static constexpr Added kAdded[] = {
      {"node.kubernetes.io/not-ready", TaintEffect::NoExecute},
      {"node.kubernetes.io/unreachable", TaintEffect::NoExecute},
      {"node.kubernetes.io/disk-pressure", TaintEffect::NoSchedule},
      {"node.kubernetes.io/memory-pressure", TaintEffect::NoSchedule},
      {"node.kubernetes.io/pid-pressure", TaintEffect::NoSchedule},
      {"node.kubernetes.io/unschedulable", TaintEffect::NoSchedule},
  };
  for (const Added& added : kAdded) {
    Toleration toleration;
    toleration.key = std::string(added.key);
    toleration.op = TolerationOperator::Exists;
    toleration.effect = added.effect;
    add_or_update_toleration(spec, toleration);
  }
}

PodTemplateSpec create_pod_template(const PodTemplateSpec& tmpl, std::int64_t generation,
                                    const std::string& hash) {
  PodTemplateSpec out = tmpl;
  add_or_update_daemon_pod_tolerations(out.spec);
  out.metadata.labels[std::string(kPodTemplateGenerationLabel)] = std::to_string(generation);
  out.metadata.labels[std::string(kControllerRevisionHashLabel)] = hash;
  return out;
}

void replace_daemon_set_pod_node_name_node_affinity(Affinity& affinity, const std::string& node) {
  NodeSelectorTerm term;
  term.match_fields.push_back(
      SelectorRequirement{std::string(kObjectNameField), SelectorOperator::In, {node}});
  // Preferred terms survive; the required selector is replaced whole.
  if (!affinity.node_affinity) affinity.node_affinity.emplace();
  affinity.node_affinity->required = std::vector<NodeSelectorTerm>{std::move(term)};
}

std::optional<std::string> target_node_name(const Pod& pod) {
  if (!pod.spec.node_name.empty()) return pod.spec.node_name;
  const auto& node_affinity = pod.spec.affinity->node_affinity;
  if (!node_affinity || !node_affinity->required) return std::nullopt;
  for (const NodeSelectorTerm& term : *node_affinity->required) {
    for (const SelectorRequirement& r : term.match_fields) {
      if (r.key != kObjectNameField || r.op != SelectorOperator::In) continue;
      // More than one value is an error upstream: the pod has no target node.
      if (r.values.size() != 1) return std::nullopt;
      return r.values.front();
    }
  }
  return std::nullopt;
}

}  // namespace gpusched::sim
