// The result's per-pod records and per-node GPU steps as CSV, for spreadsheets and notebooks.
#include <string>

#include "gpusched/model/well_known.hpp"
#include "gpusched/report/writers.hpp"
#include "report/csv.hpp"

namespace gpusched::report {
namespace {

std::string time_field(const std::optional<TimeMs>& time) {
  return time ? std::to_string(*time) : std::string();
}

// One request in a canonical unit; empty when not requested.
std::string request_field(const ResourceList& requests, std::string_view name, bool milli) {
  const auto it = requests.find(name);
  if (it == requests.end()) return {};
  return std::to_string(milli ? it->second.milli() : it->second.value());
}

}  // namespace

void write_pods_csv(std::ostream& out, const SimulationResult& result) {
  out << csv_row({"namespace", "name", "phase", "node", "priority", "cpu_milli", "memory_bytes",
                  "gpus", "requests", "created_ms", "scheduled_ms", "wait_ms", "finished_ms",
                  "preemptions", "preempted_by", "reason", "message"});
  for (const PodRecord& record : result.pods) {
    const Pod& pod = record.pod;
    const ResourceList& requests = record.requests;
    std::string all;
    for (const auto& [name, quantity] : requests)
      all += (all.empty() ? "" : ";") + name + "=" + quantity.to_string();
    out << csv_row({pod.metadata.namespace_, pod.metadata.name,
                    std::string(to_string(pod.status.phase)), pod.spec.node_name,
                    std::to_string(pod.priority()), request_field(requests, resource::kCpu, true),
                    request_field(requests, resource::kMemory, false),
                    request_field(requests, resource::kGpu, false), all, time_field(record.created),
                    time_field(record.scheduled), time_field(record.wait()),
                    time_field(record.finished), std::to_string(record.preemptions),
                    record.preempted_by, pod.reason() != nullptr ? *pod.reason() : std::string(),
                    pod.message() != nullptr ? *pod.message() : std::string()});
  }
}

void write_gpu_steps_csv(std::ostream& out, const SimulationResult& result) {
  out << csv_row(
      {"node", "pool", "gpu_model", "from_ms", "to_ms", "allocatable", "allocated", "schedulable"});
  for (const NodeUsage& usage : result.usage) {
    for (std::size_t i = 0; i < usage.gpu_steps.size(); ++i) {
      const GpuStep& step = usage.gpu_steps[i];
      const TimeMs to = i + 1 < usage.gpu_steps.size() ? usage.gpu_steps[i + 1].at : usage.to;
      out << csv_row({usage.node, usage.pool, usage.gpu_model, std::to_string(step.at),
                      std::to_string(to), std::to_string(step.allocatable),
                      std::to_string(step.allocated), step.schedulable ? "true" : "false"});
    }
  }
}

}  // namespace gpusched::report
