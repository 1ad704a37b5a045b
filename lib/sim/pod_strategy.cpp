#include "sim/pod_strategy.hpp"

#include <algorithm>
#include <vector>

#include "model/go_text.hpp"

namespace gpusched::sim {
namespace {

// updatablePodSpecFields (pkg/apis/core/validation/validation.go, kubernetes/kubernetes master
// at 000f26050b9b; the same list in every release gpusched models, 1.33 to 1.36), joined with
// "," as ValidatePodUpdate joins it.
constexpr std::string_view kUpdatablePodSpecFields =
    "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously "
    "negative)";

// validateOnlyAddedTolerations: every old toleration must still be there, its
// tolerationSeconds aside.
bool only_added_tolerations(const std::vector<Toleration>& after,
                            const std::vector<Toleration>& before) {
  return std::all_of(before.begin(), before.end(), [&](const Toleration& old) {
    return std::any_of(after.begin(), after.end(), [&](const Toleration& now) {
      Toleration clone = old;
      clone.toleration_seconds = now.toleration_seconds;
      return clone == now;
    });
  });
}

// validateNodeSelectorTermHasOnlyAdditions: the same requirements first, more may follow.
bool term_has_only_additions(const NodeSelectorTerm& after, const NodeSelectorTerm& before) {
  auto prefix = [](const std::vector<SelectorRequirement>& now,
                   const std::vector<SelectorRequirement>& old) {
    return now.size() >= old.size() && std::equal(old.begin(), old.end(), now.begin());
  };
  return prefix(after.match_expressions, before.match_expressions) &&
         prefix(after.match_fields, before.match_fields);
}

const std::vector<NodeSelectorTerm>* required_terms(const PodSpec& spec) {
  const auto& node_affinity = spec.affinity->node_affinity;
  if (!node_affinity || !node_affinity->required) return nullptr;
  return &*node_affinity->required;
}

// What of two specs differs, field by field, for the line that follows upstream's message
// (upstream prints cmp.Diff of its Go structs there; gpusched names the fields instead).
std::vector<std::string> changed_fields(const PodSpec& before, const PodSpec& after) {
  std::vector<std::string> out;
  auto containers = [&](std::string_view name, const std::vector<Container>& old_list,
                        const std::vector<Container>& new_list) {
    for (std::size_t i = 0; i < old_list.size() && i < new_list.size(); ++i) {
      const Container& a = old_list[i];
      const Container& b = new_list[i];
      const std::string at = "spec." + std::string(name) + "[" + std::to_string(i) + "].";
      if (a.name != b.name) out.push_back(at + "name");
      if (a.requests != b.requests) out.push_back(at + "resources.requests");
      if (a.limits != b.limits) out.push_back(at + "resources.limits");
      if (a.ports != b.ports) out.push_back(at + "ports");
      if (a.restart_policy != b.restart_policy) out.push_back(at + "restartPolicy");
    }
  };
  containers("initContainers", before.init_containers, after.init_containers);
  containers("containers", before.containers, after.containers);
  auto field = [&](bool differs, std::string_view name) {
    if (differs) out.push_back("spec." + std::string(name));
  };
  field(before.overhead != after.overhead, "overhead");
  field(before.node_selector != after.node_selector, "nodeSelector");
  field(before.affinity != after.affinity, "affinity");
  field(before.tolerations != after.tolerations, "tolerations");
  field(before.topology_spread_constraints != after.topology_spread_constraints,
        "topologySpreadConstraints");
  field(before.priority != after.priority, "priority");
  field(before.priority_class_name != after.priority_class_name, "priorityClassName");
  field(before.preemption_policy != after.preemption_policy, "preemptionPolicy");
  field(before.scheduler_name != after.scheduler_name, "schedulerName");
  field(before.node_name != after.node_name, "nodeName");
  field(before.restart_policy != after.restart_policy, "restartPolicy");
  field(before.termination_grace_period_seconds != after.termination_grace_period_seconds,
        "terminationGracePeriodSeconds");
  field(before.scheduling_gates != after.scheduling_gates, "schedulingGates");
  field(before.resources != after.resources, "resources");
  field(before.resource_claims != after.resource_claims, "resourceClaims");
  field(before.workload_ref != after.workload_ref, "workloadRef");
  field(before.scheduling_group != after.scheduling_group, "schedulingGroup");
  return out;
}

}  // namespace

void drop_disabled_pod_fields(Pod& pod, const SchedulerConfig& config) {
  // dropDisabledPodLevelResourcesFields and dropDisabledDynamicResourceAllocationFields.
  const KubernetesVersion& version = config.kubernetes_version;
  if (!config.feature_gates.enabled(FeatureGate::PodLevelResources, version))
    pod.spec.resources.reset();
  if (!config.feature_gates.enabled(FeatureGate::DynamicResourceAllocation, version))
    pod.spec.resource_claims.clear();
  // dropDisabledWorkloadRefFields (1.35), dropDisabledSchedulingGroupFields (1.36).
  if (!config.feature_gates.enabled(FeatureGate::GenericWorkload, version)) {
    pod.spec.workload_ref.reset();
    pod.spec.scheduling_group.reset();
  }
}

void prepare_pod_for_create(Pod& pod, const SchedulerConfig& config, TimeMs now) {
  drop_disabled_pod_fields(pod, config);
  // applySchedulingGatedCondition: only when the pod has no PodScheduled condition yet.
  if (pod.spec.scheduling_gates.empty() || pod.status.condition("PodScheduled") != nullptr) return;
  pod.status.conditions.push_back(PodCondition{"PodScheduled", "False", "SchedulingGated",
                                               std::string(kSchedulingGatedMessage), now});
}

void keep_server_set_fields(const Pod& old_pod, Pod& pod) {
  if (pod.spec.node_name.empty()) pod.spec.node_name = old_pod.spec.node_name;
  // plugin/pkg/admission/priority: "Ensure the existing priority is preserved on update."
  if (!pod.spec.priority) pod.spec.priority = old_pod.spec.priority;
  if (pod.spec.preemption_policy.empty())
    pod.spec.preemption_policy = old_pod.spec.preemption_policy;
  if (pod.spec.priority_class_name.empty())
    pod.spec.priority_class_name = old_pod.spec.priority_class_name;
}

std::optional<std::string> validate_pod_update(const Pod& old_pod, const Pod& pod) {
  // ValidatePodUpdate (pkg/apis/core/validation/validation.go, kubernetes/kubernetes master at
  // 000f26050b9b, unchanged in this part since 1.28), in its order. Every error is collected and
  // printed as field.ErrorList.ToAggregate prints them.
  const PodSpec& before = old_pod.spec;
  const PodSpec& after = pod.spec;
  std::vector<std::string> errors;
  auto result = [&]() -> std::optional<std::string> {
    if (errors.empty()) return std::nullopt;
    const std::string prefix = "Pod \"" + pod.metadata.name + "\" is invalid: ";
    if (errors.size() == 1) return prefix + errors.front();
    return prefix + "[" + joined(errors, ", ") + "]";
  };
  // ValidateContainerUpdates: the containers themselves may not come or go.
  if (after.containers.size() != before.containers.size()) {
    errors.push_back("spec.containers: Forbidden: pod updates may not add or remove containers");
    return result();
  }
  if (after.init_containers.size() != before.init_containers.size()) {
    errors.push_back(
        "spec.initContainers: Forbidden: pod updates may not add or remove containers");
    return result();
  }
  if (!only_added_tolerations(after.tolerations, before.tolerations)) {
    errors.push_back(
        "spec.tolerations: Forbidden: existing toleration can not be modified except its "
        "tolerationSeconds");
  }
  // validateOnlyDeletedSchedulingGates. Upstream lists every added gate in map order; the first
  // in list order is named here.
  for (std::size_t i = 0; i < after.scheduling_gates.size(); ++i) {
    const std::vector<std::string>& gates = before.scheduling_gates;
    if (std::find(gates.begin(), gates.end(), after.scheduling_gates[i]) != gates.end()) continue;
    errors.push_back("spec.schedulingGates[" + std::to_string(i) +
                     "].name: Forbidden: only deletion is allowed, but found new scheduling "
                     "gate '" +
                     after.scheduling_gates[i] + "'");
    break;
  }
  if (after == before) return result();

  // The fields an update may change take their old values; what still differs is forbidden.
  PodSpec munged = after;
  munged.scheduling_gates = before.scheduling_gates;
  munged.tolerations = before.tolerations;
  if (before.termination_grace_period_seconds < 0 && munged.termination_grace_period_seconds == 1)
    munged.termination_grace_period_seconds = before.termination_grace_period_seconds;
  if (!before.scheduling_gates.empty()) {
    // A gated pod may gain nodeSelector entries (validateNodeSelectorMutation) and narrow its
    // required node affinity (validateNodeAffinityMutation).
    if (munged.node_selector != before.node_selector) {
      const bool kept = std::all_of(
          before.node_selector.begin(), before.node_selector.end(), [&](const auto& entry) {
            auto it = munged.node_selector.find(entry.first);
            return it != munged.node_selector.end() && it->second == entry.second;
          });
      if (!kept) {
        errors.push_back(
            "spec.nodeSelector: Invalid value: " + go_string_map(munged.node_selector) +
            ": only additions to spec.nodeSelector are allowed (no mutations or "
            "deletions)");
      }
      munged.node_selector = before.node_selector;
    }
    if (munged.affinity->node_affinity != before.affinity->node_affinity) {
      // Only the required terms are checked; the whole nodeAffinity then takes its old value.
      const std::vector<NodeSelectorTerm>* old_terms = required_terms(before);
      const std::vector<NodeSelectorTerm>* new_terms = required_terms(munged);
      const std::string path =
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
          "nodeSelectorTerms";
      const std::size_t old_count = old_terms ? old_terms->size() : 0;
      const std::size_t new_count = new_terms ? new_terms->size() : 0;
      // Upstream prints its Go dump of the new terms as the value; gpusched leaves it out (…).
      if (old_count > 0 && old_count != new_count) {
        errors.push_back(path +
                         ": Invalid value: []core.NodeSelectorTerm{…}: no additions/deletions "
                         "to non-empty NodeSelectorTerms list are allowed");
      } else {
        for (std::size_t i = 0; i < old_count; ++i) {
          if (!term_has_only_additions((*new_terms)[i], (*old_terms)[i])) {
            errors.push_back(path + "[" + std::to_string(i) +
                             "]: Invalid value: core.NodeSelectorTerm{…}: only additions are "
                             "allowed (no mutations or deletions)");
          }
        }
      }
      munged.affinity.mut().node_affinity = before.affinity->node_affinity;
    }
  }
  if (munged != before) {
    errors.push_back("spec: Forbidden: pod updates may not change fields other than " +
                     std::string(kUpdatablePodSpecFields) + "\n(gpusched: changed " +
                     joined(changed_fields(before, munged), ", ") + ")");
  }
  return result();
}

}  // namespace gpusched::sim
