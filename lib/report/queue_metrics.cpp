// Kueue's queues over a replay, from SimulationResult::quota_spans and the ClusterQueues'
// nominal quotas: wait percentiles per ClusterQueue and LocalQueue, borrowed unit-hours and quota
// usage over time.

#include "gpusched/report/queue_metrics.hpp"

#include <algorithm>
#include <utility>

#include "model/decimal.hpp"
#include "model/wide_int.hpp"
#include "report/bucket_spreader.hpp"
#include "report/csv.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

using FlavorResource = std::pair<std::string, std::string>;

/// A span's hold on one flavor's resource: `milli` from `from` to `to`.
struct Hold {
  TimeMs from = 0;
  TimeMs to = 0;
  std::int64_t milli = 0;
};

constexpr double kMilliMsPerUnitHour = 1000.0 * kMsPerHour;

QuotaWaits quota_waits(const std::vector<const QuotaSpan*>& spans, TimeMs end) {
  QuotaWaits out;
  std::vector<TimeMs> waits;
  for (const QuotaSpan* span : spans) {
    if (span->reserved) {
      ++out.reserved;
    } else if (!span->released) {
      ++out.waiting;
      out.longest_waiting = std::max(out.longest_waiting, end - span->queued);
    }
    const TimeMs until = span->reserved.value_or(span->released.value_or(end));
    waits.push_back(std::max<TimeMs>(0, until - span->queued));
  }
  out.all = wait_stats(std::move(waits));
  return out;
}

/// Integrates the holds against `nominal` (milli): usage and the part above nominal, exactly in
/// milli-units x milliseconds, then in unit-hours.
void integrate(QuotaUse& use, std::vector<Hold> holds, std::int64_t nominal) {
  std::vector<std::pair<TimeMs, std::int64_t>> steps;
  for (const Hold& hold : holds) {
    steps.emplace_back(hold.from, hold.milli);
    steps.emplace_back(hold.to, -hold.milli);
  }
  std::sort(steps.begin(), steps.end());
  Int128 used = 0;
  Int128 borrowed = 0;
  std::int64_t held = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    held += steps[i].second;
    if (i + 1 == steps.size()) break;
    const Int128 span = steps[i + 1].first - steps[i].first;
    used += Int128{held} * span;
    if (held > nominal) borrowed += Int128{held - nominal} * span;
  }
  use.usage_hours = static_cast<double>(used) / kMilliMsPerUnitHour;
  use.borrowed_hours = static_cast<double>(borrowed) / kMilliMsPerUnitHour;
}

}  // namespace

KueueMetrics kueue_metrics(const SimulationResult& result) {
  KueueMetrics out;
  std::map<std::string, std::vector<const QuotaSpan*>> by_cq;
  std::map<std::string, std::vector<const QuotaSpan*>> by_lq;
  std::map<std::string, std::map<FlavorResource, std::vector<Hold>>> holds;
  std::map<std::string, std::map<FlavorResource, Quantity>> nominal;
  for (const ClusterQueueRecord& cq : result.cluster_queues) {
    by_cq[cq.name];
    for (const auto& [flavor, resources] : cq.nominal) {
      for (const auto& [resource, quantity] : resources)
        nominal[cq.name][{flavor, resource}] = quantity;
    }
  }
  for (const std::string& lq : result.local_queues) by_lq[lq];
  for (const QuotaSpan& span : result.quota_spans) {
    by_lq[span.local_queue].push_back(&span);
    if (span.cluster_queue.empty()) continue;
    by_cq[span.cluster_queue].push_back(&span);
    if (!span.reserved) continue;
    const TimeMs to = span.released.value_or(result.time);
    for (const auto& [flavor, resources] : span.usage) {
      for (const auto& [resource, quantity] : resources) {
        holds[span.cluster_queue][{flavor, resource}].push_back(
            Hold{*span.reserved, to, quantity.milli()});
        nominal[span.cluster_queue].try_emplace({flavor, resource});
      }
    }
  }
  const double run_hours = static_cast<double>(result.time) / kMsPerHour;
  const TimeMs series_end = result.gpu_series.empty() ? 0 : result.gpu_series.back().to;
  for (const auto& [name, spans] : by_cq) {
    ClusterQueueMetrics& cq = out.cluster_queues[name];
    cq.waits = quota_waits(spans, result.time);
    for (const auto& [key, quantity] : nominal[name]) {
      QuotaUse use;
      use.flavor = key.first;
      use.resource = key.second;
      use.nominal = quantity;
      std::vector<Hold>& held = holds[name][key];
      use.usage.assign(result.gpu_series.size(), 0);
      BucketSpreader series(use.usage, result.gpu_bucket_ms, series_end);
      for (const Hold& hold : held)
        series.add(hold.from, hold.to, static_cast<double>(hold.milli) / 1000);
      series.finish();
      for (std::size_t b = 0; b < use.usage.size(); ++b) {
        const TimeMs width = result.gpu_series[b].to - result.gpu_series[b].from;
        use.usage[b] = width > 0 ? use.usage[b] * kMsPerHour / static_cast<double>(width) : 0;
      }
      integrate(use, std::move(held), quantity.milli());
      if (quantity.milli() > 0 && run_hours > 0) {
        use.mean_ratio =
            use.usage_hours / (static_cast<double>(quantity.milli()) / 1000 * run_hours);
      }
      cq.quota.push_back(std::move(use));
    }
  }
  for (const auto& [name, spans] : by_lq) out.local_queues[name] = quota_waits(spans, result.time);
  return out;
}

namespace {

std::string waits_cells(const QuotaWaits& w) {
  return std::to_string(w.all.pods) + "\t" + std::to_string(w.reserved) + "\t" +
         std::to_string(w.waiting) + "\t" + format_duration(w.all.p50) + "\t" +
         format_duration(w.all.p95) + "\t" + format_duration(w.all.p99) + "\t" +
         format_duration(w.all.max) + "\t";
}

constexpr std::string_view kWaitsHeader = "WAITS\tRESERVED\tWAITING\tP50\tP95\tP99\tMAX\t";

}  // namespace

void write_queues_table(std::ostream& out, const KueueMetrics& metrics) {
  std::string text = "CLUSTER QUEUE\t" + std::string(kWaitsHeader) + "\n";
  for (const auto& [name, cq] : metrics.cluster_queues)
    text += name + "\t" + waits_cells(cq.waits) + "\n";
  out << "Waits for quota (creation or requeue to quota reservation; open waits count to the "
         "end)\n"
      << align_tabs(text, kGetSettings) << "\n";
  text = "CLUSTER QUEUE\tFLAVOR\tRESOURCE\tNOMINAL\tMEAN USAGE\tBORROWED (unit-hours)\t\n";
  for (const auto& [name, cq] : metrics.cluster_queues) {
    for (const QuotaUse& use : cq.quota) {
      text +=
          name + "\t" + use.flavor + "\t" + use.resource + "\t" + use.nominal.to_string() + "\t" +
          (use.nominal.milli() > 0 ? fixed_text(use.mean_ratio * 100, 1) + "%" : std::string("-")) +
          "\t" + fixed_text(use.borrowed_hours, 3) + "\t\n";
    }
  }
  out << align_tabs(text, kGetSettings);
  if (metrics.local_queues.empty()) return;
  text = "LOCAL QUEUE\t" + std::string(kWaitsHeader) + "\n";
  for (const auto& [name, w] : metrics.local_queues) text += name + "\t" + waits_cells(w) + "\n";
  out << "\n" << align_tabs(text, kGetSettings);
}

void write_queues_csv(std::ostream& out, const SimulationResult& result,
                      const KueueMetrics& metrics) {
  out << csv_row(
      {"from_ms", "to_ms", "cluster_queue", "flavor", "resource", "nominal", "usage", "ratio"});
  for (std::size_t b = 0; b < result.gpu_series.size(); ++b) {
    const GpuBucket& bucket = result.gpu_series[b];
    for (const auto& [name, cq] : metrics.cluster_queues) {
      for (const QuotaUse& use : cq.quota) {
        const double nominal = static_cast<double>(use.nominal.milli()) / 1000;
        out << csv_row({std::to_string(bucket.from), std::to_string(bucket.to), name, use.flavor,
                        use.resource, use.nominal.to_string(), fixed_text(use.usage[b], 3),
                        nominal > 0 ? fixed_text(use.usage[b] / nominal, 4) : std::string()});
      }
    }
  }
}

}  // namespace gpusched::report
