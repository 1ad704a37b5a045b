#include "sim/usage_ledger.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "gpusched/model/well_known.hpp"

namespace gpusched::sim {
namespace {

void accumulate(std::vector<std::pair<ResId, plugins::Int128>>& sums, ResId id, std::int64_t milli,
                TimeMs dt) {
  auto it = std::find_if(sums.begin(), sums.end(), [id](const auto& s) { return s.first == id; });
  if (it == sums.end()) it = sums.insert(sums.end(), {id, 0});
  it->second += static_cast<plugins::Int128>(milli) * dt;
}

std::string label_or_empty(const Node& node, std::string_view key) {
  auto it = node.metadata.labels.find(std::string(key));
  return it == node.metadata.labels.end() ? std::string() : it->second;
}

}  // namespace

void UsageLedger::integrate(const NodeInfo& node, Open& open) const {
  const TimeMs dt = now_ - open.last;
  open.last = now_;
  if (dt <= 0) return;
  node.allocatable.for_each(
      [&](ResId id, std::int64_t milli) { accumulate(open.allocatable, id, milli, dt); });
  node.requested.for_each(
      [&](ResId id, std::int64_t milli) { accumulate(open.requested, id, milli, dt); });
}

void UsageLedger::observe(const NodeInfo& node, NodeChange change) {
  if (open_.size() <= node.slot) open_.resize(node.slot + 1);
  Open& open = open_[node.slot];
  if (change == NodeChange::Added) {
    open = Open{now_, now_, {}, {}};
    return;
  }
  integrate(node, open);
  if (change == NodeChange::Removing) close(node, open);
}

void UsageLedger::close(const NodeInfo& node, Open& open) {
  // milli-unit-milliseconds to unit-hours.
  constexpr double kPerHour = 1000.0 * 3'600'000.0;
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
  closed_.push_back(std::move(usage));
  open = Open{};
}

std::vector<NodeUsage> UsageLedger::finish() {
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

}  // namespace gpusched::sim
