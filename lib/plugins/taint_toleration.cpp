#include "plugins/taint_toleration.hpp"

#include <algorithm>
#include <memory>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {
namespace {

struct PreScoreState final : StateData {
  std::vector<TolerationInfo> prefer_no_schedule;
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

bool untolerated_in(const std::vector<Taint>& taints, const Pod& pod) {
  for (const Taint& taint : taints) {
    if (taint.effect != TaintEffect::NoSchedule && taint.effect != TaintEffect::NoExecute) continue;
    if (std::none_of(pod.spec.tolerations.begin(), pod.spec.tolerations.end(),
                     [&](const Toleration& t) { return t.tolerates(taint); })) {
      return true;
    }
  }
  return false;
}

}  // namespace

TaintToleration::TaintToleration(Handle& handle)
    : cluster_(handle.cluster),
      aggregated_reason_(handle.version.aggregated_taint_reason()),
      // PR #134740: the reason no longer names the taint, so events aggregate across nodes.
      aggregated_(handle.cluster.pool().intern("node(s) had untolerated taint(s)")) {}

Code TaintToleration::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                             Reasons& reasons) const {
  const TaintInfo* taint = find_untolerated_taint(pod, node);
  if (taint == nullptr) return Code::Success;
  reasons.push_back(aggregated_reason_ ? aggregated_ : taint->reason);
  return Code::UnschedulableAndUnresolvable;
}

// Its verdict reads the pod's tolerations and the node's taints.
bool TaintToleration::append_node_static_key(const PodInfo& pod, std::string& key) const {
  append_tolerations_key(pod, key);
  return true;
}

Code TaintToleration::pre_score(CycleState& state, const PodInfo& pod,
                                std::span<const NodeInfo* const>) {
  auto data = std::make_unique<PreScoreState>();
  for (const TolerationInfo& t : pod.tolerations) {
    if (!t.effect || *t.effect == TaintEffect::PreferNoSchedule)
      data->prefer_no_schedule.push_back(t);
  }
  state.set(slot(), std::move(data));
  return Code::Success;
}

namespace {

/// countIntolerableTaintsPreferNoSchedule.
std::int64_t intolerable(const std::vector<TolerationInfo>& prefer_no_schedule,
                         const NodeInfo& node) {
  std::int64_t count = 0;
  for (const TaintInfo& taint : node.taints) {
    if (taint.effect != TaintEffect::PreferNoSchedule) continue;
    if (std::none_of(prefer_no_schedule.begin(), prefer_no_schedule.end(),
                     [&](const TolerationInfo& t) { return t.tolerates(taint); })) {
      ++count;
    }
  }
  return count;
}

}  // namespace

std::int64_t TaintToleration::score(const CycleState& state, const PodInfo&,
                                    const NodeInfo& node) const {
  return intolerable(state.get<PreScoreState>(slot())->prefer_no_schedule, node);
}

void TaintToleration::score_nodes(const CycleState& state, const PodInfo&,
                                  std::span<const NodeInfo* const> nodes,
                                  std::span<std::int64_t> scores) const {
  const std::vector<TolerationInfo>& tolerations =
      state.get<PreScoreState>(slot())->prefer_no_schedule;
  const std::span<const std::uint32_t> positions = state.node_positions();
  if (positions.empty()) {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      scores[i] = nodes[i]->taints.empty() ? 0 : intolerable(tolerations, *nodes[i]);
    return;
  }
  const std::span<const std::uint32_t> slots = cluster_.node_slots();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    scores[i] =
        cluster_.node_tainted(slots[positions[i]]) ? intolerable(tolerations, *nodes[i]) : 0;
  }
}

void TaintToleration::normalize(const CycleState&, const PodInfo&,
                                std::span<std::int64_t> scores) const {
  default_normalize_score(kMaxNodeScore, true, scores);
}

bool TaintToleration::scores_alike(const CycleState& state, const PodInfo&,
                                   std::span<const NodeInfo* const> nodes) const {
  const std::span<const std::uint32_t> positions = state.node_positions();
  if (positions.empty()) {
    return std::all_of(nodes.begin(), nodes.end(),
                       [](const NodeInfo* node) { return node->taints.empty(); });
  }
  const std::span<const std::uint32_t> slots = cluster_.node_slots();
  return std::none_of(positions.begin(), positions.end(),
                      [&](std::uint32_t at) { return cluster_.node_tainted(slots[at]); });
}

std::vector<ClusterEventWithHint> TaintToleration::events_to_register() const {
  return {{{EventResource::Node, action::kAdd | action::kUpdateNodeTaint, "Node"}, true},
          {{EventResource::Pod, action::kUpdatePodToleration, "Pod"}, true}};
}

// isSchedulableAfterNodeChange: Queue only when a taint went from untolerated to tolerated.
QueueingHint TaintToleration::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                            const EventObjects& objects) const {
  if (event.resource == EventResource::Pod) {
    return objects.pod == &pod ? QueueingHint::Queue : QueueingHint::QueueSkip;
  }
  if (objects.node == nullptr) return QueueingHint::QueueSkip;
  const bool was_untolerated =
      objects.old_node == nullptr || untolerated_in(objects.old_node->effective_taints(), pod.pod);
  const bool is_untolerated = untolerated_in(objects.node->node.effective_taints(), pod.pod);
  return was_untolerated && !is_untolerated ? QueueingHint::Queue : QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
