#include "report/kubectl_cells.hpp"

namespace gpusched::report {

std::string pod_status(const PodRecord& record) {
  if (record.terminating) return "Terminating";
  if (record.pod.status.phase == PodPhase::Succeeded) return "Completed";
  return std::string(to_string(record.pod.status.phase));
}

std::string or_none(const std::string& value) {
  return value.empty() ? "<none>" : value;
}

}  // namespace gpusched::report
