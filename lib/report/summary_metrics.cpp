// The flat list of a replay's figures: what `replay --metrics`, `plan`, `compare` and `sweep`
// print and what objectives name.

#include <cmath>
#include <map>
#include <sstream>

#include "gpusched/model/resource_list.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/queue_metrics.hpp"
#include "gpusched/report/seam.hpp"
#include "model/decimal.hpp"
#include "report/csv.hpp"
#include "report/resource_hours.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

class Builder {
 public:
  void add(std::string name, double value, MetricUnit unit) {
    out_.push_back(Metric{std::move(name), value, unit});
  }
  void add(std::string name, std::size_t value) {
    add(std::move(name), static_cast<double>(value), MetricUnit::Count);
  }
  void duration(std::string name, TimeMs value) {
    add(std::move(name), static_cast<double>(value), MetricUnit::Duration);
  }
  void waits(const std::string& prefix, const std::string& labels, const WaitStats& stats) {
    duration(prefix + ".p50" + labels, stats.p50);
    duration(prefix + ".p95" + labels, stats.p95);
    duration(prefix + ".p99" + labels, stats.p99);
    duration(prefix + ".max" + labels, stats.max);
  }
  void allocation(const Allocation& allocation, const std::string& labels) {
    for (const auto& [resource, hours] : allocation.allocatable_hours)
      add("allocation." + resource + labels, allocation.ratio(resource), MetricUnit::Ratio);
  }
  std::vector<Metric> take() { return std::move(out_); }

 private:
  std::vector<Metric> out_;
};

}  // namespace

std::vector<Metric> summary_metrics(const SimulationResult& result) {
  Builder b;
  b.duration("time", result.time);
  std::size_t bound = 0;
  std::size_t pending = 0;
  for (const PodRecord& record : result.pods) {
    bound += record.scheduled ? 1 : 0;
    pending += record.pod.spec.node_name.empty() && !record.pod.terminated() ? 1 : 0;
  }
  b.add("pods", result.pods.size());
  b.add("bound", bound);
  b.add("pending", pending);

  const QueueWait wait = queue_wait(result, PendingPods::CountedToEnd);
  b.waits("wait", "", wait.all);
  b.duration("pending.longest", wait.longest_pending);
  for (const auto& [name, stats] : wait.by_priority_class) {
    if (!name.empty()) b.waits("wait", "{priorityClass=" + name + "}", stats);
  }
  for (const auto& [name, stats] : wait.by_namespace)
    b.waits("wait", "{namespace=" + name + "}", stats);

  std::size_t victims = 0;
  std::int64_t lost_gpu_ms = 0;
  for (const PreemptionRecord& preemption : result.preemptions) {
    victims += preemption.victims.size();
    for (const VictimRecord& victim : preemption.victims) lost_gpu_ms += victim.lost_gpu_ms();
  }
  b.add("preemptions", result.preemptions.size());
  b.add("preemptions.victims", victims);
  b.add("preemptions.lostGpuHours", static_cast<double>(lost_gpu_ms) / 3'600'000.0,
        MetricUnit::Hours);

  const AllocationReport alloc = allocation(result);
  b.allocation(alloc.fleet, "");
  for (const auto& [pool, a] : alloc.by_pool) b.allocation(a, "{pool=" + pool + "}");
  for (const auto& [model, a] : alloc.by_gpu_model) b.allocation(a, "{gpuModel=" + model + "}");
  b.add("gpuHours.allocatable", hours_of(alloc.fleet.allocatable_hours, resource::kGpu),
        MetricUnit::Hours);

  // The seam between the layers (report/seam.hpp).
  const Seam layers = seam(result);
  auto seam_hours = [&](const std::string& labels, const SeamHours& h) {
    b.add("gpuHours.paid" + labels, h.paid, MetricUnit::Hours);
    b.add("gpuHours.provisioned" + labels, h.provisioned, MetricUnit::Hours);
    b.add("gpuHours.schedulable" + labels, h.schedulable, MetricUnit::Hours);
    b.add("gpuHours.allocated" + labels, h.allocated, MetricUnit::Hours);
    b.add("gpuHours.paidIdle" + labels, h.paid - h.allocated, MetricUnit::Hours);
    b.add("cost" + labels, h.cost, MetricUnit::Money);
  };
  seam_hours("", layers.fleet);
  for (const auto& [pool, h] : layers.by_pool) seam_hours("{pool=" + pool + "}", h);
  b.add("provisioning.failedLaunches", layers.failed_launches);
  b.duration("provisioning.lastNodeReady", layers.last_node_ready);

  const Fragmentation frag = gpu_fragmentation(result);
  b.add("fragmentation.freeGpus", static_cast<double>(frag.free_gpus), MetricUnit::Count);
  b.add("fragmentation.pendingGpuPods", frag.pending_gpu_pods);
  b.add("fragmentation.fragmentedGpus", frag.fragmented_gpus, MetricUnit::Count);
  b.add("fragmentation.strandedGpus", static_cast<double>(frag.stranded_gpus), MetricUnit::Count);
  // GPU sharing's figures over the run, when nodes have alibabacloud.com GPUs.
  if (const std::optional<GpuShareFragmentation> share = gpu_share_fragmentation(result)) {
    b.add("gpuShare.gpus", static_cast<double>(share->gpus), MetricUnit::Count);
    b.add("gpuShare.allocation", share->allocation(), MetricUnit::Ratio);
    b.add("gpuShare.fragmentation", share->fragmentation(), MetricUnit::Ratio);
    b.add("gpuShare.fragmentationRatio", share->fragmentation_ratio(), MetricUnit::Ratio);
  }

  const JobStats jobs = job_stats(result);
  b.add("jobs", jobs.jobs);
  b.add("jobs.completed", jobs.completed);
  b.add("jobs.failed", jobs.failed);
  b.add("jobs.running", jobs.running);
  b.duration("jobs.makespan", jobs.makespan);
  b.duration("jobs.duration.p50", jobs.duration.p50);
  b.duration("jobs.duration.max", jobs.duration.max);

  // Kueue's queues (report/queue_metrics.hpp), when the replay ran Kueue.
  const KueueMetrics queues = kueue_metrics(result);
  auto quota_waits = [&](const std::string& labels, const QuotaWaits& waits) {
    b.add("kueue.waits" + labels, waits.all.pods);
    b.add("kueue.reserved" + labels, waits.reserved);
    b.add("kueue.waiting" + labels, waits.waiting);
    b.waits("kueue.wait", labels, waits.all);
    b.duration("kueue.waiting.longest" + labels, waits.longest_waiting);
  };
  for (const auto& [name, cq] : queues.cluster_queues) {
    const std::string labels = "{clusterQueue=" + name + "}";
    quota_waits(labels, cq.waits);
    // Borrowing of extended resources (GPUs, MIG devices, ...), over all flavors.
    std::map<std::string, double> borrowed;
    for (const QuotaUse& use : cq.quota) {
      if (resource::is_extended(use.resource)) borrowed[use.resource] += use.borrowed_hours;
    }
    for (const auto& [resource, hours] : borrowed)
      b.add("kueue.borrowedHours." + resource + labels, hours, MetricUnit::Hours);
    for (const QuotaUse& use : cq.quota) {
      if (use.nominal.milli() <= 0 || result.time <= 0) continue;
      b.add("kueue.quotaUsage." + use.resource + "{clusterQueue=" + name + ",flavor=" + use.flavor +
                "}",
            use.mean_ratio, MetricUnit::Ratio);
    }
  }
  for (const auto& [name, waits] : queues.local_queues)
    quota_waits("{localQueue=" + name + "}", waits);

  for (const auto& [reason, time] : result.unschedulable_time)
    b.duration("unschedulable{reason=" + reason + "}", time);
  return b.take();
}

std::optional<Metric> find_metric(const std::vector<Metric>& metrics, std::string_view name) {
  for (const Metric& metric : metrics) {
    if (metric.name == name) return metric;
  }
  return std::nullopt;
}

std::string format_metric(const Metric& metric) {
  switch (metric.unit) {
    case MetricUnit::Duration:
      return format_duration(static_cast<TimeMs>(metric.value));
    case MetricUnit::Ratio:
      return fixed_text(metric.value * 100, 1) + "%";
    case MetricUnit::Hours:
    case MetricUnit::Money:
    case MetricUnit::Count:
      break;
  }
  return plain_metric(metric);
}

std::string plain_metric(const Metric& metric) {
  switch (metric.unit) {
    case MetricUnit::Duration:
      return std::to_string(static_cast<TimeMs>(metric.value));
    case MetricUnit::Ratio:
      return fixed_text(metric.value, 4);
    case MetricUnit::Hours:
      return fixed_text(metric.value, 3);
    case MetricUnit::Money:
      return fixed_text(metric.value, 2);
    case MetricUnit::Count:
      break;
  }
  if (metric.value == std::floor(metric.value)) return fixed_text(metric.value, 0);
  return fixed_text(metric.value, 3);
}

std::string_view unit_name(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::Duration:
      return "ms";
    case MetricUnit::Ratio:
      return "ratio";
    case MetricUnit::Hours:
      return "hours";
    case MetricUnit::Money:
      return "money";
    case MetricUnit::Count:
      break;
  }
  return "count";
}

void write_metrics_table(std::ostream& out, const std::vector<Metric>& metrics) {
  std::string text = "METRIC\tVALUE\t\n";
  for (const Metric& metric : metrics) text += metric.name + "\t" + format_metric(metric) + "\t\n";
  out << align_tabs(text, kGetSettings);
}

void write_metrics_csv(std::ostream& out, const std::vector<Metric>& metrics) {
  out << csv_row({"metric", "value", "unit"});
  for (const Metric& metric : metrics)
    out << csv_row({metric.name, plain_metric(metric), std::string(unit_name(metric.unit))});
}

void write_runs_csv(std::ostream& out, const std::vector<std::string>& param_names,
                    const std::vector<RunRow>& rows) {
  // Metric columns by name: the same table whatever rows it holds, so that the tables of a
  // sweep's shards merge into the table of the whole sweep.
  std::map<std::string, std::size_t> column;
  for (const RunRow& row : rows) {
    for (const Metric& metric : row.metrics) column.emplace(metric.name, 0);
  }
  std::vector<std::string> names;
  for (auto& [name, index] : column) {
    index = names.size();
    names.push_back(name);
  }
  std::vector<std::string> header = param_names;
  header.insert(header.end(), names.begin(), names.end());
  out << csv_row(header);
  for (const RunRow& row : rows) {
    std::vector<std::string> fields = row.params;
    fields.resize(param_names.size() + names.size());
    for (const Metric& metric : row.metrics)
      fields[param_names.size() + column.at(metric.name)] = plain_metric(metric);
    out << csv_row(fields);
  }
}

}  // namespace gpusched::report
