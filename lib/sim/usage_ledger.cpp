#include "sim/usage_ledger.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "devices/nvidia_dra_driver.hpp"
#include "gpusched/framework/dra_state.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/well_known.hpp"

namespace gpusched::sim {
namespace {

// milli-unit-milliseconds in a unit-hour.
constexpr double kPerHour = 1000.0 * 3'600'000.0;

void accumulate(std::vector<std::pair<ResId, Int128>>& sums, ResId id, std::int64_t milli,
                TimeMs dt) {
  auto it = std::find_if(sums.begin(), sums.end(), [id](const auto& s) { return s.first == id; });
  if (it == sums.end()) it = sums.insert(sums.end(), {id, 0});
  it->second += static_cast<Int128>(milli) * dt;
}

std::string label_or_empty(const Node& node, std::string_view key) {
  auto it = node.metadata.labels.find(std::string(key));
  return it == node.metadata.labels.end() ? std::string() : it->second;
}

/// Whether the scheduler may place pods on the node: Ready (no not-ready or unreachable taint
/// from its condition) and not cordoned.
bool schedulable(const NodeInfo& node) {
  return !node.unschedulable && node.node.ready();
}

}  // namespace

void UsageLedger::integrate(const NodeInfo& node, Open& open) {
  const TimeMs dt = now_ - open.last;
  const TimeMs from = open.last;
  open.last = now_;
  if (dt <= 0) return;
  const bool ready = schedulable(node);
  if (!gpu_) gpu_ = cluster_.resources().find(std::string(resource::kGpu));
  // nvidia.com/gpu is integrated below, as the GPU metrics count GPUs.
  node.allocatable.for_each([&](ResId id, std::int64_t milli) {
    if (id == gpu_) return;
    accumulate(open.allocatable, id, milli, dt);
    if (ready) accumulate(open.schedulable, id, milli, dt);
  });
  // GPU sharing's pods ask by annotation, not by request: a shared node's alibabacloud.com
  // resources count what its pods hold (the artifact's MilliGpu ratio, and its Gpu ratio of
  // GPUs in use), unless requests say more.
  const bool shared = !node.gpu_free.empty();
  if (shared && !share_milli_)
    share_milli_ = cluster_.resources().find(std::string(gpu_share_names::kGpuMilliResource));
  if (shared && !share_count_)
    share_count_ = cluster_.resources().find(std::string(gpu_share_names::kGpuCountResource));
  node.requested.for_each([&](ResId id, std::int64_t milli) {
    if (id != gpu_ && !(shared && (id == share_milli_ || id == share_count_)))
      accumulate(open.requested, id, milli, dt);
  });
  if (shared) {
    std::int64_t held_milli = 0;
    std::int64_t gpus_in_use = 0;
    for (const std::int32_t free : node.gpu_free) {
      held_milli += kMilliPerGpu - free;
      gpus_in_use += free < kMilliPerGpu ? 1 : 0;
    }
    if (share_milli_) {
      accumulate(open.requested, *share_milli_,
                 std::max(node.requested[*share_milli_], held_milli * 1000), dt);
    }
    if (share_count_) {
      accumulate(open.requested, *share_count_,
                 std::max(node.requested[*share_count_], gpus_in_use * 1000), dt);
    }
  }
  if (gpu_ || !cluster_.dra().slices().empty()) {
    const auto [gpus, allocated] = gpus_of(node);
    open.gpus.allocatable += static_cast<Integral>(gpus) * dt;
    if (ready) open.gpus.schedulable += static_cast<Integral>(gpus) * dt;
    open.gpus.requested += static_cast<Integral>(allocated) * dt;
    if (gpus != 0 || allocated != 0) add_to_series(from, now_, ready ? gpus : 0, allocated);
    // The values held since `from`: a step when they differ from the last one.
    const GpuStep step{from, gpus / 1000, allocated / 1000, ready};
    auto& steps = open.gpu_steps;
    const bool same = !steps.empty() && steps.back().allocatable == step.allocatable &&
                      steps.back().allocated == step.allocated &&
                      steps.back().schedulable == step.schedulable;
    if (!same && (gpus != 0 || allocated != 0 || !steps.empty())) steps.push_back(step);
  }
}

UsageLedger::Gpus UsageLedger::gpus_of(const NodeInfo& node) {
  Gpus out;
  if (gpu_) {
    out.allocatable = node.allocatable[*gpu_];
    out.allocated = node.requested[*gpu_];
    // A pod whose nvidia.com/gpu DRA devices serve holds them through its claim, counted below.
    for (const PodInfo* pod : node.pods) {
      const auto& extended = pod->pod.status.extended_resource_claim_status;
      if (!extended) continue;
      const bool bridged =
          std::any_of(extended->request_mappings.begin(), extended->request_mappings.end(),
                      [](const ContainerExtendedResourceRequest& m) {
                        return m.resource_name == resource::kGpu;
                      });
      if (bridged) out.allocated -= pod->request(*gpu_);
    }
  }
  const DraState& dra = cluster_.dra();
  if (dra.slices().empty()) return out;
  if (dra_slices_seen_ != dra.slices_generation()) {
    // The driver's full GPUs, and each device's GPU: its own, or its MIG parent's (parentUUID,
    // else the GPU whose counter set it consumes).
    dra_gpus_.clear();
    dra_gpu_of_.clear();
    auto text = [](const dra::Device& device, const char* name) -> const std::string* {
      const auto it = device.attributes.find(name);
      return it == device.attributes.end() ? nullptr : &it->second.string_value;
    };
    std::map<std::string, DeviceKey, std::less<>> by_uuid;
    std::map<DeviceKey, DeviceKey> by_counter_set;  // (pool, counter set) -> its GPU
    for (const auto& [name, slice] : dra.slices()) {
      if (slice.driver != devices::kNvidiaDraDriverName || !slice.node_name) continue;
      for (const dra::Device& device : slice.devices) {
        const std::string* type = text(device, "type");
        if (type == nullptr || *type != "gpu") continue;
        DeviceKey key{slice.pool.name, device.name};
        dra_gpus_[*slice.node_name].insert(key);
        dra_gpu_of_.emplace(key, key);
        if (const std::string* uuid = text(device, "uuid")) by_uuid.emplace(*uuid, key);
        for (const dra::DeviceCounterConsumption& c : device.consumes_counters)
          by_counter_set.emplace(DeviceKey{slice.pool.name, c.counter_set}, key);
      }
    }
    for (const auto& [name, slice] : dra.slices()) {
      if (slice.driver != devices::kNvidiaDraDriverName) continue;
      for (const dra::Device& device : slice.devices) {
        DeviceKey key{slice.pool.name, device.name};
        if (const std::string* parent = text(device, "parentUUID")) {
          if (const auto gpu = by_uuid.find(*parent); gpu != by_uuid.end())
            dra_gpu_of_.emplace(std::move(key), gpu->second);
          continue;
        }
        // A partition without parentUUID: the GPU whose counters it shares.
        for (const dra::DeviceCounterConsumption& c : device.consumes_counters) {
          const auto gpu = by_counter_set.find(DeviceKey{slice.pool.name, c.counter_set});
          if (gpu == by_counter_set.end()) continue;
          dra_gpu_of_.emplace(std::move(key), gpu->second);
          break;
        }
      }
    }
    dra_slices_seen_ = dra.slices_generation();
  }
  const auto gpus = dra_gpus_.find(node.node.metadata.name);
  if (gpus == dra_gpus_.end()) return out;
  if (dra_claims_seen_ != dra.claims_generation()) {
    dra_allocated_.clear();
    for (const auto& [key, claim] : dra.claims()) {
      if (!claim.status.allocation) continue;
      for (const dra::DeviceRequestAllocationResult& r : claim.status.allocation->devices) {
        if (r.driver != devices::kNvidiaDraDriverName) continue;
        // A GPU counts as allocated when it or one of its MIG devices is.
        const auto gpu = dra_gpu_of_.find(DeviceKey{r.pool, r.device});
        if (gpu != dra_gpu_of_.end()) dra_allocated_.insert(gpu->second);
      }
    }
    dra_claims_seen_ = dra.claims_generation();
  }
  out.allocatable += 1000 * static_cast<std::int64_t>(gpus->second.size());
  for (const DeviceKey& gpu : gpus->second)
    out.allocated += dra_allocated_.contains(gpu) ? 1000 : 0;
  return out;
}

void UsageLedger::widen_to(TimeMs to) {
  // Twice as wide buckets, half as many, until `to` falls in the last one allowed.
  while (static_cast<std::size_t>((to - 1) / bucket_ms_) >= kMaxBuckets) {
    for (std::size_t i = 0; i < series_.size(); i += 2) {
      Bucket merged = series_[i];
      if (i + 1 < series_.size()) {
        merged.schedulable += series_[i + 1].schedulable;
        merged.allocated += series_[i + 1].allocated;
      }
      series_[i / 2] = merged;
    }
    series_.resize((series_.size() + 1) / 2);
    bucket_ms_ *= 2;
  }
}

void UsageLedger::add_to_series(TimeMs from, TimeMs to, std::int64_t schedulable,
                                std::int64_t allocated) {
  widen_to(to);
  const auto last = static_cast<std::size_t>((to - 1) / bucket_ms_);
  if (series_.size() <= last) series_.resize(last + 1);
  for (auto b = static_cast<std::size_t>(from / bucket_ms_); b <= last; ++b) {
    const TimeMs start = std::max<TimeMs>(from, static_cast<TimeMs>(b) * bucket_ms_);
    const TimeMs end = std::min<TimeMs>(to, static_cast<TimeMs>(b + 1) * bucket_ms_);
    series_[b].schedulable += static_cast<Integral>(schedulable) * (end - start);
    series_[b].allocated += static_cast<Integral>(allocated) * (end - start);
  }
}

void UsageLedger::observe(const NodeInfo& node, NodeChange change) {
  if (open_.size() <= node.slot) open_.resize(node.slot + 1);
  Open& open = open_[node.slot];
  if (change == NodeChange::Added) {
    open = Open{now_, now_, {}, {}, {}, {}, {}};
    return;
  }
  integrate(node, open);
  if (change == NodeChange::Removing) close(node, open);
}

void UsageLedger::close(const NodeInfo& node, Open& open) {
  NodeUsage usage;
  usage.node = node.node.metadata.name;
  usage.pool = label_or_empty(node.node, well_known::kNodePoolLabel);
  usage.gpu_model = label_or_empty(node.node, well_known::kGpuProductLabel);
  usage.from = open.from;
  usage.to = now_;
  for (const auto& [id, sum] : open.allocatable)
    usage.allocatable_hours[cluster_.resources().name(id)] = static_cast<double>(sum) / kPerHour;
  for (const auto& [id, sum] : open.requested)
    usage.requested_hours[cluster_.resources().name(id)] = static_cast<double>(sum) / kPerHour;
  for (const auto& [id, sum] : open.schedulable)
    usage.schedulable_hours[cluster_.resources().name(id)] = static_cast<double>(sum) / kPerHour;
  const std::string gpu(resource::kGpu);
  if (open.gpus.allocatable != 0)
    usage.allocatable_hours[gpu] = static_cast<double>(open.gpus.allocatable) / kPerHour;
  if (open.gpus.requested != 0)
    usage.requested_hours[gpu] = static_cast<double>(open.gpus.requested) / kPerHour;
  if (open.gpus.schedulable != 0)
    usage.schedulable_hours[gpu] = static_cast<double>(open.gpus.schedulable) / kPerHour;
  usage.gpu_steps = std::move(open.gpu_steps);
  closed_.push_back(std::move(usage));
  open = Open{};
}

std::vector<NodeUsage> UsageLedger::finish() {
  // The series covers the whole run, GPUs or not: without this a run whose clock went far
  // (an action at 2562047h) on a fleet that never had a GPU would be cut into minutes.
  widen_to(now_);
  for (const NodeInfo* node : cluster_.node_list()) {
    Open& open = open_[node->slot];
    integrate(*node, open);
    close(*node, open);
  }
  std::sort(closed_.begin(), closed_.end(), [](const NodeUsage& a, const NodeUsage& b) {
    return std::tie(a.node, a.from) < std::tie(b.node, b.from);
  });
  return std::move(closed_);
}

std::vector<GpuBucket> UsageLedger::gpu_series() const {
  std::vector<GpuBucket> out;
  for (TimeMs from = 0; from < now_; from += bucket_ms_) {
    const std::size_t b = out.size();
    GpuBucket bucket{from, std::min(now_, from + bucket_ms_), 0, 0};
    if (b < series_.size()) {
      bucket.schedulable_hours = static_cast<double>(series_[b].schedulable) / kPerHour;
      bucket.allocated_hours = static_cast<double>(series_[b].allocated) / kPerHour;
    }
    out.push_back(bucket);
  }
  return out;
}

}  // namespace gpusched::sim
