#include "gpusched/report/seam.hpp"

#include <algorithm>
#include <set>

#include "gpusched/model/resource_list.hpp"
#include "model/decimal.hpp"
#include "report/bucket_spreader.hpp"
#include "report/csv.hpp"
#include "report/resource_hours.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

std::string hours_text(double value) {
  return fixed_text(value, 2);
}

}  // namespace

Seam seam(const SimulationResult& result) {
  Seam out;
  for (const GpuBucket& bucket : result.gpu_series) {
    SeamBucket b{bucket.from, bucket.to, {}};
    b.hours.schedulable = bucket.schedulable_hours;
    b.hours.allocated = bucket.allocated_hours;
    out.series.push_back(b);
  }
  std::vector<double> paid_series(out.series.size(), 0);
  std::vector<double> provisioned_series(out.series.size(), 0);
  const TimeMs series_end = out.series.empty() ? 0 : out.series.back().to;
  BucketSpreader paid(paid_series, result.gpu_bucket_ms, series_end);
  BucketSpreader provisioned(provisioned_series, result.gpu_bucket_ms, series_end);
  const TimeMs end = result.time;
  auto clip = [end](TimeMs from, TimeMs to) {
    return std::max<TimeMs>(0, std::min(to, end) - std::max<TimeMs>(from, 0));
  };
  std::map<std::string, const PoolRecord*> pools;
  for (const PoolRecord& pool : result.pools) {
    pools.emplace(pool.pool, &pool);
    out.by_pool[pool.pool];
  }
  auto add = [&](const std::string& pool, double SeamHours::*field, double hours) {
    out.fleet.*field += hours;
    if (!pool.empty() && pools.contains(pool)) out.by_pool[pool].*field += hours;
  };
  // `gpus` GPUs held over [from, to): in the totals (within the run) and in the series.
  auto held = [&](const std::string& pool, double SeamHours::*field, BucketSpreader& series,
                  TimeMs from, TimeMs to, double gpus) {
    add(pool, field, gpus * static_cast<double>(clip(from, to)) / kMsPerHour);
    series.add(from, to, gpus);
  };

  // Layer 1: a reservation is paid whole.
  for (const PoolRecord& pool : result.pools) {
    if (!pool.reserved_from) continue;
    const double gpus = static_cast<double>(pool.count * pool.gpus_per_node);
    held(pool.pool, &SeamHours::paid, paid, *pool.reserved_from, pool.reserved_to.value_or(end),
         gpus);
  }
  // Layer 2: staged nodes are in the cluster from their registration; launched ones are paid
  // from their launch.
  std::set<std::string> staged;
  for (const NodeProvisioning& node : result.provisioning) {
    staged.insert(node.node);
    out.failed_launches += static_cast<std::size_t>(node.failed_launches);
    const double gpus = static_cast<double>(node.gpus);
    const TimeMs removed = node.removed.value_or(end);
    if (node.registered) {
      held(node.pool, &SeamHours::provisioned, provisioned, *node.registered, removed, gpus);
    }
    const PoolRecord* pool = pools.contains(node.pool) ? pools.at(node.pool) : nullptr;
    if (node.billed_from && (pool == nullptr || !pool->reserved_from)) {
      held(node.pool, &SeamHours::paid, paid, *node.billed_from, removed, gpus);
    }
    if (node.gpus_advertised)
      out.last_node_ready = std::max(out.last_node_ready, *node.gpus_advertised);
  }
  // Every other node is paid and provisioned while in the cluster, with the GPUs it offered.
  for (const NodeUsage& usage : result.usage) {
    add(usage.pool, &SeamHours::schedulable, hours_of(usage.schedulable_hours, resource::kGpu));
    add(usage.pool, &SeamHours::allocated, hours_of(usage.requested_hours, resource::kGpu));
    if (staged.contains(usage.node)) continue;
    const double hours = hours_of(usage.allocatable_hours, resource::kGpu);
    add(usage.pool, &SeamHours::provisioned, hours);
    add(usage.pool, &SeamHours::paid, hours);
    if (usage.to > usage.from) {
      const double gpus = hours * kMsPerHour / static_cast<double>(usage.to - usage.from);
      provisioned.add(usage.from, usage.to, gpus);
      paid.add(usage.from, usage.to, gpus);
    }
  }
  paid.finish();
  provisioned.finish();
  for (std::size_t b = 0; b < out.series.size(); ++b) {
    out.series[b].hours.paid = paid_series[b];
    out.series[b].hours.provisioned = provisioned_series[b];
  }
  for (auto& [name, hours] : out.by_pool) {
    hours.cost = hours.paid * static_cast<double>(pools.at(name)->price_micros_per_gpu_hour) / 1e6;
    out.fleet.cost += hours.cost;
  }
  out.gpu_share = gpu_share_fragmentation(result);
  return out;
}

void write_seam_table(std::ostream& out, const Seam& seam) {
  auto pool_row = [](const std::string& name, const SeamHours& h) {
    return name + "\t" + hours_text(h.paid) + "\t" + hours_text(h.provisioned) + "\t" +
           hours_text(h.schedulable) + "\t" + hours_text(h.allocated) + "\t" +
           hours_text(h.paid - h.allocated) + "\t" + hours_text(h.cost) + "\t\n";
  };
  std::string text = "POOL\tPAID\tPROVISIONED\tSCHEDULABLE\tALLOCATED\tPAID-IDLE\tCOST\t\n";
  for (const auto& [name, hours] : seam.by_pool) text += pool_row(name, hours);
  text += pool_row("(fleet)", seam.fleet);
  out << "GPU-hours by layer (paid -> provisioned -> schedulable -> allocated)\n"
      << align_tabs(text, kGetSettings);
  out << "Failed launches: " << seam.failed_launches << "\n";
  if (const auto& share = seam.gpu_share) {
    // The scheduling layer where GPUs are shared: idle milli are not all usable.
    const auto percent = [](double ratio) {
      return format_metric(Metric{"", ratio, MetricUnit::Ratio});
    };
    out << "Shared GPUs (" << share->gpus
        << " at the end), over the run: " << percent(share->allocation()) << " allocated, "
        << percent(share->fragmentation()) << " of capacity fragmented ("
        << percent(share->fragmentation_ratio()) << " of the idle milli)\n";
  }
  out << "\n";
  // At most kTableRows rows: consecutive buckets are added together (the CSV keeps them all).
  constexpr std::size_t kTableRows = 24;
  const std::size_t group =
      std::max<std::size_t>(1, (seam.series.size() + kTableRows - 1) / kTableRows);
  std::vector<SeamBucket> rows;
  for (std::size_t i = 0; i < seam.series.size(); ++i) {
    const SeamBucket& b = seam.series[i];
    if (i % group == 0) rows.push_back(SeamBucket{b.from, b.to, {}});
    SeamBucket& row = rows.back();
    row.to = b.to;
    row.hours.paid += b.hours.paid;
    row.hours.provisioned += b.hours.provisioned;
    row.hours.schedulable += b.hours.schedulable;
    row.hours.allocated += b.hours.allocated;
  }
  text =
      "FROM\tTO\tPAID\tPROVISIONED\tSCHEDULABLE\tALLOCATED\tNOT-PROVISIONED\tNOT-READY\tIDLE\t\n";
  for (const SeamBucket& b : rows) {
    const SeamHours& h = b.hours;
    text += format_duration(b.from) + "\t" + format_duration(b.to) + "\t" + hours_text(h.paid) +
            "\t" + hours_text(h.provisioned) + "\t" + hours_text(h.schedulable) + "\t" +
            hours_text(h.allocated) + "\t" + hours_text(h.paid - h.provisioned) + "\t" +
            hours_text(h.provisioned - h.schedulable) + "\t" +
            hours_text(h.schedulable - h.allocated) + "\t\n";
  }
  out << align_tabs(text, kGetSettings);
}

void write_seam_csv(std::ostream& out, const Seam& seam) {
  out << csv_row({"from_ms", "to_ms", "paid", "provisioned", "schedulable", "allocated"});
  for (const SeamBucket& b : seam.series) {
    out << csv_row({std::to_string(b.from), std::to_string(b.to), hours_text(b.hours.paid),
                    hours_text(b.hours.provisioned), hours_text(b.hours.schedulable),
                    hours_text(b.hours.allocated)});
  }
}

}  // namespace gpusched::report
