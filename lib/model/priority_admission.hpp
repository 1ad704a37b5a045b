#pragma once
// The API server's Priority admission plugin (plugin/pkg/admission/priority/admission.go) as pure
// functions: resolving a new pod's priority from its PriorityClass, and refusing a second
// globalDefault class.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/pod.hpp"
#include "gpusched/model/policy.hpp"

namespace gpusched {

/// pkg/apis/scheduling/types.go: values above this are reserved for system classes.
inline constexpr std::int32_t kHighestUserDefinablePriority = 1'000'000'000;
/// pkg/apis/scheduling/types.go SystemCriticalPriority.
inline constexpr std::int32_t kSystemCriticalPriority = 2 * kHighestUserDefinablePriority;
/// Names with this prefix are reserved for the built-in classes.
inline constexpr std::string_view kSystemPriorityClassPrefix = "system-";
/// Priority of pods that name no class when no class is globalDefault
/// (DefaultPriorityWhenNoDefaultClassExists).
inline constexpr std::int32_t kDefaultPriorityWhenNoDefaultClassExists = 0;

/// The classes the API server creates at startup and that always exist
/// (pkg/apis/scheduling/v1/helpers.go systemPriorityClasses): system-node-critical
/// (2000001000) and system-cluster-critical (2000000000).
[[nodiscard]] const std::vector<PriorityClass>& system_priority_classes();
/// One of system_priority_classes() by name, or nullptr.
[[nodiscard]] const PriorityClass* find_system_priority_class(std::string_view name) noexcept;

/// admitPod on create: resolves `pod`'s priority from spec.priorityClassName among `classes`
/// (the user's PriorityClasses; the built-in ones always exist too). A pod naming no class gets
/// the globalDefault class (the one with the lowest value when several are marked, as
/// getDefaultPriorityClass picks; among equal values the first in `classes`) and its name, or
/// priority 0 and no name. Sets spec.priority and spec.preemptionPolicy (the class's, default
/// PreemptLowerPriority) and returns nullopt; or leaves `pod` unchanged and returns the API
/// server's error, e.g. `pods "x" is forbidden: no PriorityClass with name foo was found`.
/// `name_in_message` replaces the pod's name in that text: the API server names a pod created
/// with generateName (as controllers create them) by its generateName prefix, e.g. "web-5f4d-".
[[nodiscard]] std::optional<std::string> admit_priority(Pod& pod,
                                                        const std::vector<PriorityClass>& classes,
                                                        std::string_view name_in_message = {});

/// validatePriorityClass on create or update of `pc` given the `existing` classes (an update
/// when one of them has pc's name): a globalDefault class is refused while another class is
/// default, with the API server's text
/// `priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as
/// default. Only one default can exist`. nullopt when admitted.
[[nodiscard]] std::optional<std::string> admit_priority_class(
    const PriorityClass& pc, const std::vector<PriorityClass>& existing);

}  // namespace gpusched
