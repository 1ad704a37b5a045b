// Allocation over time, GPU fragmentation and Job completion: the fleet figures a capacity
// planner reads from a replay.

#include <algorithm>
#include <limits>

#include "gpusched/model/resource_list.hpp"
#include "gpusched/report/metrics.hpp"
#include "model/gpu_share_policy.hpp"
#include "report/resource_hours.hpp"

namespace gpusched::report {
namespace {

void add_usage(Allocation& into, const NodeUsage& usage) {
  for (const auto& [name, hours] : usage.allocatable_hours) into.allocatable_hours[name] += hours;
  for (const auto& [name, hours] : usage.requested_hours) into.requested_hours[name] += hours;
}

std::int64_t milli_of(const ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second.milli();
}

/// What a pending GPU pod needs of a node.
struct Need {
  std::int64_t gpus = 0;  // whole GPUs
  std::int64_t cpu = 0;   // milli
  std::int64_t memory = 0;
};

}  // namespace

double Allocation::ratio(const std::string& resource) const {
  const double offered = hours_of(allocatable_hours, resource);
  return offered <= 0 ? 0 : hours_of(requested_hours, resource) / offered;
}

AllocationReport allocation(const SimulationResult& result) {
  AllocationReport out;
  for (const NodeUsage& usage : result.usage) {
    add_usage(out.fleet, usage);
    if (!usage.pool.empty()) add_usage(out.by_pool[usage.pool], usage);
    if (!usage.gpu_model.empty()) add_usage(out.by_gpu_model[usage.gpu_model], usage);
  }
  return out;
}

Fragmentation gpu_fragmentation(const SimulationResult& result) {
  std::vector<Need> needs;
  for (const PodRecord& record : result.pods) {
    if (!record.pod.spec.node_name.empty() || record.pod.terminated()) continue;
    const std::int64_t gpus = milli_of(*record.requests, resource::kGpu) / 1000;
    if (gpus == 0) continue;
    needs.push_back(Need{gpus, milli_of(*record.requests, resource::kCpu),
                         milli_of(*record.requests, resource::kMemory)});
  }
  Fragmentation out;
  out.pending_gpu_pods = needs.size();
  double fragmented_sum = 0;  // sum over pods of the GPUs they cannot use
  for (const NodeRecord& record : result.nodes) {
    const ResourceList& allocatable = record.node.allocatable;
    const std::int64_t free_gpus =
        (milli_of(allocatable, resource::kGpu) - milli_of(record.allocated, resource::kGpu)) / 1000;
    if (free_gpus <= 0) continue;
    const std::int64_t free_cpu =
        milli_of(allocatable, resource::kCpu) - milli_of(record.allocated, resource::kCpu);
    const std::int64_t free_memory =
        milli_of(allocatable, resource::kMemory) - milli_of(record.allocated, resource::kMemory);
    bool any_fits_others = false;
    std::int64_t unusable_for = 0;  // pending pods that cannot use this node's free GPUs
    for (const Need& need : needs) {
      const bool others_fit = need.cpu <= free_cpu && need.memory <= free_memory;
      any_fits_others = any_fits_others || others_fit;
      if (!others_fit || need.gpus > free_gpus) ++unusable_for;
    }
    NodeFragmentation node{record.node.metadata.name, free_gpus, 0};
    if (!needs.empty() && !any_fits_others) node.stranded_gpus = free_gpus;
    out.free_gpus += free_gpus;
    out.stranded_gpus += node.stranded_gpus;
    fragmented_sum += static_cast<double>(free_gpus * unusable_for);
    out.nodes.push_back(std::move(node));
  }
  if (!needs.empty()) out.fragmented_gpus = fragmented_sum / static_cast<double>(needs.size());
  return out;
}

std::optional<GpuShareFragmentation> gpu_share_fragmentation(const SimulationResult& result) {
  std::optional<GpuShareFragmentation> out;
  for (const NodeRecord& record : result.nodes) {
    if (record.shared_gpus.empty()) continue;
    if (!out) out.emplace();
    out->gpus += std::ssize(record.shared_gpus);
  }
  if (!out && result.gpu_share_intervals.empty()) return out;
  if (!out) out.emplace();
  const std::vector<gpu_share::TypicalPod> typical = gpu_share::typical_pods(result.pod_shapes);
  const auto weigh = [&](const gpu_share::NodeView& view, double weight) {
    const gpu_share::Bins bins = gpu_share::fragment_bins(view, typical);
    out->capacity += weight * static_cast<double>(std::ssize(view.free) * kMilliPerGpu);
    out->used +=
        weight * static_cast<double>(std::ssize(view.free) * kMilliPerGpu - view.free_milli());
    out->fragmented += weight * gpu_share::frag_amount(bins);
    for (const double bin : bins) out->idle += weight * bin;
  };
  for (const GpuShareInterval& state : result.gpu_share_intervals)
    weigh({state.cpu_left, state.free, state.model}, static_cast<double>(state.to - state.from));
  if (out->capacity > 0) return out;
  // No time passed: the nodes as they are at the end.
  for (const NodeRecord& record : result.nodes) {
    if (record.shared_gpus.empty()) continue;
    std::vector<std::int32_t> free;
    for (const SharedGpuRecord& gpu : record.shared_gpus)
      free.push_back(static_cast<std::int32_t>(kMilliPerGpu - gpu.used_milli));
    const auto model = record.node.metadata.labels.find(gpu_share_names::kGpuModelLabel);
    weigh({milli_of(record.node.allocatable, resource::kCpu) -
               milli_of(record.allocated, resource::kCpu),
           free, model == record.node.metadata.labels.end() ? std::string_view() : model->second},
          1);
  }
  return out;
}

JobStats job_stats(const SimulationResult& result) {
  JobStats out;
  out.jobs = result.jobs.size();
  TimeMs first = std::numeric_limits<TimeMs>::max();
  TimeMs last = 0;
  std::vector<TimeMs> durations;
  for (const JobRecord& job : result.jobs) {
    first = std::min(first, job.created);
    if (!job.ended) {
      ++out.running;
      last = std::max(last, result.time);
      continue;
    }
    ++(job.failed ? out.failed : out.completed);
    last = std::max(last, *job.ended);
    durations.push_back(*job.ended - job.created);
  }
  if (!result.jobs.empty()) out.makespan = std::max<TimeMs>(0, last - first);
  out.duration = wait_stats(std::move(durations));
  return out;
}

}  // namespace gpusched::report
