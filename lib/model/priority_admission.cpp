// Mirrors plugin/pkg/admission/priority/admission.go (admitPod, validatePriorityClass,
// getDefaultPriorityClass, getDefaultPriority) as of Kubernetes 1.33. Errors are
// admission.NewForbidden: apierrors.NewForbidden(resource, name, err), printed as
// `<resource> "<name>" is forbidden: <err>`.
#include "model/priority_admission.hpp"

#include <algorithm>

namespace gpusched {
namespace {

constexpr std::string_view kPreemptLowerPriority = "PreemptLowerPriority";

PriorityClass system_class(std::string name, std::int32_t value, std::string description) {
  PriorityClass pc;
  pc.metadata.name = std::move(name);
  pc.value = value;
  pc.preemption_policy = std::string(kPreemptLowerPriority);  // the v1 default
  pc.description = std::move(description);
  return pc;
}

/// getDefaultPriorityClass: the globalDefault class with the lowest value.
const PriorityClass* default_priority_class(const std::vector<PriorityClass>& classes) {
  const PriorityClass* out = nullptr;
  for (const PriorityClass& pc : classes) {
    if (pc.global_default && (out == nullptr || out->value > pc.value)) out = &pc;
  }
  return out;
}

const PriorityClass* find_class(std::string_view name, const std::vector<PriorityClass>& classes) {
  if (const PriorityClass* system = find_system_priority_class(name)) return system;
  auto it = std::find_if(classes.begin(), classes.end(),
                         [&](const PriorityClass& pc) { return pc.metadata.name == name; });
  return it == classes.end() ? nullptr : &*it;
}

std::string forbidden(std::string_view resource, std::string_view name, std::string_view error) {
  std::string out(resource);
  out += " \"";
  out += name;
  out += "\" is forbidden: ";
  out += error;
  return out;
}

}  // namespace

const std::vector<PriorityClass>& system_priority_classes() {
  // pkg/apis/scheduling/v1/helpers.go, in its order.
  static const std::vector<PriorityClass> classes = {
      system_class("system-node-critical", kSystemCriticalPriority + 1000,
                   "Used for system critical pods that must not be moved from their current "
                   "node."),
      system_class("system-cluster-critical", kSystemCriticalPriority,
                   "Used for system critical pods that must run in the cluster, but can be moved "
                   "to another node if necessary.")};
  return classes;
}

const PriorityClass* find_system_priority_class(std::string_view name) noexcept {
  for (const PriorityClass& pc : system_priority_classes()) {
    if (pc.metadata.name == name) return &pc;
  }
  return nullptr;
}

std::optional<std::string> admit_priority(Pod& pod, const std::vector<PriorityClass>& classes,
                                          std::string_view name_in_message) {
  const std::string_view name =
      name_in_message.empty() ? std::string_view(pod.metadata.name) : name_in_message;
  SharedText class_name = pod.spec.priority_class_name;
  std::int32_t priority = kDefaultPriorityWhenNoDefaultClassExists;
  // Without a default class getDefaultPriority still returns PreemptLowerPriority (the one
  // shared text, not a copy per pod).
  SharedText policy = pod_defaults().preempt_lower_priority;
  if (class_name.empty()) {
    if (const PriorityClass* pc = default_priority_class(classes)) {
      class_name = pc->metadata.name;
      priority = pc->value;
      // A class read through the v1 API always has a policy (v1 defaults); "" stands for it.
      if (!pc->preemption_policy.empty()) policy = pc->preemption_policy;
    }
  } else {
    const PriorityClass* pc = find_class(class_name, classes);
    if (pc == nullptr) {
      return forbidden("pods", name, "no PriorityClass with name " + *class_name + " was found");
    }
    priority = pc->value;
    if (!pc->preemption_policy.empty()) policy = pc->preemption_policy;
  }
  if (pod.spec.priority && *pod.spec.priority != priority) {
    return forbidden("pods", name,
                     "the integer value of priority (" + std::to_string(*pod.spec.priority) +
                         ") must not be provided in pod spec; priority admission controller "
                         "computed " +
                         std::to_string(priority) + " from the given PriorityClass name");
  }
  if (!pod.spec.preemption_policy.empty() && pod.spec.preemption_policy != policy) {
    return forbidden("pods", name,
                     "the string value of PreemptionPolicy (" + *pod.spec.preemption_policy +
                         ") must not be provided in pod spec; priority admission controller "
                         "computed " +
                         *policy + " from the given PriorityClass name");
  }
  // A text the pod already has stays shared with its template's other pods.
  if (pod.spec.priority_class_name != class_name)
    pod.spec.priority_class_name = std::move(class_name);
  pod.spec.priority = priority;
  if (pod.spec.preemption_policy != policy) pod.spec.preemption_policy = std::move(policy);
  return std::nullopt;
}

std::optional<std::string> admit_priority_class(const PriorityClass& pc,
                                                const std::vector<PriorityClass>& existing) {
  if (!pc.global_default) return std::nullopt;
  const PriorityClass* current = default_priority_class(existing);
  if (current == nullptr) return std::nullopt;
  const bool update = std::any_of(existing.begin(), existing.end(), [&](const PriorityClass& e) {
    return e.metadata.name == pc.metadata.name;
  });
  // A second default may not be created, nor another class marked default by an update.
  if (!update || current->metadata.name != pc.metadata.name) {
    return forbidden("priorityclasses.scheduling.k8s.io", pc.metadata.name,
                     "PriorityClass " + current->metadata.name +
                         " is already marked as default. Only one default can exist");
  }
  return std::nullopt;
}

}  // namespace gpusched
