#include "report/kubectl_cells.hpp"

namespace gpusched::report {

// printPod (kubectl's pkg/printers/internalversion/printers.go): the phase, status.reason
// instead when set (a pod the kubelet rejected), SchedulingGated while the pod's PodScheduled
// condition says so; a succeeded pod's containers say Completed; Terminating last.
std::string pod_status(const PodRecord& record) {
  if (record.terminating) return "Terminating";
  const Pod& pod = record.pod;
  if (pod.status.phase == PodPhase::Succeeded) return "Completed";
  if (const PodCondition* scheduled = pod.status.condition("PodScheduled");
      scheduled != nullptr && scheduled->reason == "SchedulingGated") {
    return "SchedulingGated";
  }
  if (!pod.status.reason.empty()) return pod.status.reason;
  return std::string(to_string(pod.status.phase));
}

std::string or_none(const std::string& value) {
  return value.empty() ? "<none>" : value;
}

}  // namespace gpusched::report
