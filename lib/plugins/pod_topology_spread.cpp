#include "plugins/pod_topology_spread.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/model/well_known.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {
namespace {

constexpr std::string_view kZone = "topology.kubernetes.io/zone";  // v1.LabelTopologyZone

/// Topology value -> number of matching pods, sorted by value id (upstream map[string]int).
using Domains = std::vector<std::pair<StrId, std::int64_t>>;

const std::int64_t* find_domain(const Domains& domains, StrId value) {
  auto it = std::lower_bound(domains.begin(), domains.end(), value,
                             [](const auto& entry, StrId v) { return entry.first < v; });
  return it != domains.end() && it->first == value ? &it->second : nullptr;
}

std::int64_t& domain_at(Domains& domains, StrId value) {
  auto it = std::lower_bound(domains.begin(), domains.end(), value,
                             [](const auto& entry, StrId v) { return entry.first < v; });
  if (it == domains.end() || it->first != value) it = domains.insert(it, {value, 0});
  return it->second;
}

/// Sorts (value, count) pairs and sums the counts of equal values.
Domains merge_domains(Domains pairs) {
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Domains out;
  for (const auto& [value, count] : pairs) {
    if (!out.empty() && out.back().first == value) {
      out.back().second += count;
    } else {
      out.emplace_back(value, count);
    }
  }
  return out;
}

/// filtering.go criticalPaths: [0] always holds the minimum match number; [1] is only an upper
/// bound of the second minimum, exactly as upstream (the dry-runs rely on that behaviour).
struct CriticalPath {
  StrId value = 0;  // "" as upstream's zero value
  std::int64_t num = std::numeric_limits<std::int32_t>::max();
};
using CriticalPaths = std::array<CriticalPath, 2>;

void update_paths(CriticalPaths& p, StrId value, std::int64_t num) {
  int i = -1;
  if (value == p[0].value) {
    i = 0;
  } else if (value == p[1].value) {
    i = 1;
  }
  if (i >= 0) {
    p[static_cast<std::size_t>(i)].num = num;
    if (p[0].num > p[1].num) std::swap(p[0], p[1]);
  } else if (num < p[0].num) {
    p[1] = p[0];
    p[0] = {value, num};
  } else if (num < p[1].num) {
    p[1] = {value, num};
  }
}

/// Both halves of the plugin's cycle state share one slot: PreFilter's preFilterState and
/// PreScore's preScoreState.
struct SpreadState final : StateData {
  // preFilterState
  bool filtering = false;
  std::shared_ptr<const std::vector<SpreadConstraint>> constraints;
  std::vector<Domains> tp_value_to_match_num;
  std::vector<CriticalPaths> critical_paths;
  std::vector<char> self_match;  // c.Selector.Matches(pod labels), per constraint

  // preScoreState
  std::vector<SpreadConstraint> score_constraints;
  std::vector<Domains> tp_value_to_pod_counts;  // empty for hostname constraints
  std::vector<double> normalizing_weight;
  std::vector<char> ignored_slot;      // IgnoredNodes, by NodeInfo::slot
  std::vector<char> ignored_position;  // the same, by position in the scored node list
  std::vector<std::vector<std::int64_t>> host_counts;  // hostname constraints, by slot

  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<SpreadState>(*this);
  }
};

bool has_all_keys(const NodeInfo& node, const std::vector<SpreadConstraint>& constraints) {
  return std::all_of(constraints.begin(), constraints.end(), [&](const SpreadConstraint& c) {
    return node.label(c.key) != StringPool::kMissing;
  });
}

bool has_all_keys(const Labels& labels, const std::vector<SpreadConstraint>& constraints) {
  return std::all_of(constraints.begin(), constraints.end(),
                     [&](const SpreadConstraint& c) { return labels.contains(c.topology_key); });
}

/// node.Labels[key]: a missing label reads as "".
StrId value_of(const NodeInfo& node, StrId key) {
  const StrId value = node.label(key);
  return value == StringPool::kMissing ? 0 : value;
}

/// common.go countPodsMatchSelector: terminating pods and other namespaces do not count; an
/// empty selector counts nothing.
std::int64_t count_matching(const std::vector<PodInfo*>& pods, const SpreadConstraint& c,
                            const std::string& namespace_) {
  if (c.empty()) return 0;
  std::int64_t count = 0;
  for (const PodInfo* p : pods) {
    const ObjectMeta& meta = p->pod.metadata;
    if (meta.deletion_ms || meta.namespace_ != namespace_) continue;
    if (c.matches(meta.labels)) ++count;
  }
  return count;
}

/// countPodsMatchSelector by node slot for one cycle, computed once per node and shared by the
/// constraints whose selectors are equal (the system defaults, a zone and a hostname constraint
/// over the same pods).
class NodeCounts {
 public:
  NodeCounts(const std::vector<SpreadConstraint>& constraints, std::uint32_t slots,
             const std::string& pod_namespace)
      : constraints_(constraints), slots_(slots), namespace_(pod_namespace) {
    group_.resize(constraints.size());
    for (std::size_t i = 0; i < constraints.size(); ++i) {
      group_[i] = i;
      for (std::size_t j = 0; j < i; ++j) {
        if (constraints[j].nothing == constraints[i].nothing &&
            constraints[j].selector == constraints[i].selector) {
          group_[i] = group_[j];
          break;
        }
      }
    }
    counts_.resize(constraints.size());
  }

  std::int64_t get(std::size_t constraint, const NodeInfo& node) {
    std::vector<std::int64_t>& counts = counts_[group_[constraint]];
    if (counts.empty()) counts.assign(slots_, -1);
    std::int64_t& count = counts[node.slot];
    if (count < 0) count = count_matching(node.pods, constraints_[constraint], namespace_);
    return count;
  }

 private:
  const std::vector<SpreadConstraint>& constraints_;
  std::uint32_t slots_;
  const std::string& namespace_;
  std::vector<std::size_t> group_;
  std::vector<std::vector<std::int64_t>> counts_;
};

std::uint32_t slot_count(const std::vector<NodeInfo*>& nodes) {
  std::uint32_t slots = 0;
  for (const NodeInfo* node : nodes) slots = std::max(slots, node->slot + 1);
  return slots;
}

std::string_view label_or_empty(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string_view{} : std::string_view{it->second};
}

}  // namespace

PodTopologySpread::PodTopologySpread(Handle& handle)
    : cluster_(handle.cluster),
      hostname_key_(handle.cluster.pool().intern(well_known::kHostnameLabel)),
      reason_constraints_(
          handle.cluster.pool().intern("node(s) didn't match pod topology spread constraints")),
      reason_label_(handle.cluster.pool().intern(
          "node(s) didn't match pod topology spread constraints (missing required label)")) {
  // plugin.go systemDefaultConstraints, used with `defaultingType: System` (the default).
  TopologySpreadConstraint host;
  host.topology_key = std::string(well_known::kHostnameLabel);
  host.when_unsatisfiable = "ScheduleAnyway";
  host.max_skew = 3;
  TopologySpreadConstraint zone;
  zone.topology_key = std::string(kZone);
  zone.when_unsatisfiable = "ScheduleAnyway";
  zone.max_skew = 5;
  default_constraints_ = {host, zone};
}

// common.go filterTopologySpreadConstraints, with MinDomains, NodeInclusionPolicy and
// MatchLabelKeys enabled (all on by default in 1.33).
std::vector<SpreadConstraint> PodTopologySpread::filter_constraints(
    const std::vector<TopologySpreadConstraint>& constraints, const Labels& pod_labels,
    std::string_view action) const {
  std::vector<SpreadConstraint> out;
  for (const TopologySpreadConstraint& c : constraints) {
    if (c.when_unsatisfiable != action) continue;
    SpreadConstraint sc;
    sc.max_skew = c.max_skew;
    sc.topology_key = c.topology_key;
    sc.key = cluster_.pool().intern(c.topology_key);
    sc.hostname = sc.key == hostname_key_;
    // metav1.LabelSelectorAsSelector: nil selects nothing, {} everything.
    if (c.label_selector) {
      sc.selector = *c.label_selector;
    } else {
      sc.nothing = true;
    }
    // mergeLabelSetWithSelector: the pod's values of matchLabelKeys are ANDed with the selector
    // (a Nothing selector stays Nothing). 1.34+ API servers merge them at creation instead,
    // with the same effect.
    if (!sc.nothing) {
      for (const std::string& key : c.match_label_keys) {
        auto it = pod_labels.find(key);
        if (it != pod_labels.end()) sc.selector.match_labels.emplace(key, it->second);
      }
    }
    sc.min_domains = c.min_domains.value_or(1);
    sc.honor_affinity = c.node_affinity_policy != "Ignore";
    sc.honor_taints = c.node_taints_policy == "Honor";
    out.push_back(std::move(sc));
  }
  return out;
}

// plugin.go getConstraints and common.go buildDefaultConstraints. helper.DefaultSelector merges
// the selectors of the Services that select the pod and of the ReplicaSet or StatefulSet that
// controls it (gpusched has no ReplicationControllers); a pod none of them gives a selector gets
// no default constraints.
std::vector<SpreadConstraint> PodTopologySpread::constraints_for(const Pod& pod,
                                                                 std::string_view action) const {
  if (!pod.spec.topology_spread_constraints.empty()) {
    return filter_constraints(pod.spec.topology_spread_constraints, pod.metadata.labels, action);
  }
  if (default_constraints_.empty()) return {};
  std::vector<SpreadConstraint> out =
      filter_constraints(default_constraints_, pod.metadata.labels, action);
  if (out.empty()) return out;
  LabelSelector selector = default_selector(pod, cluster_);
  if (selector.empty()) return {};
  for (SpreadConstraint& c : out) {
    c.selector = selector;
    c.nothing = false;
  }
  return out;
}

bool PodTopologySpread::node_included(const SpreadConstraint& c, const PodInfo& pod,
                                      const NodeInfo& node) const {
  if (c.honor_affinity && !required_node_affinity_matches(pod, node, cluster_.pool())) {
    return false;
  }
  return !(c.honor_taints && find_untolerated_taint(pod, node) != nullptr);
}

// filtering.go calPreFilterState over every node of the snapshot.
Status PodTopologySpread::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) {
  auto constraints = std::make_shared<const std::vector<SpreadConstraint>>(
      constraints_for(pod.pod, "DoNotSchedule"));
  if (constraints->empty()) {
    state.skip_filter(slot());
    return {Code::Skip};
  }
  auto data = std::make_unique<SpreadState>();
  data->filtering = true;
  data->constraints = constraints;
  const std::size_t n = constraints->size();
  std::vector<Domains> pairs(n);
  const std::vector<NodeInfo*>& all = cluster_.node_list();
  NodeCounts counts(*constraints, slot_count(all), pod.pod.metadata.namespace_);
  for (const NodeInfo* node : all) {
    if (!has_all_keys(*node, *constraints)) continue;
    for (std::size_t i = 0; i < n; ++i) {
      const SpreadConstraint& c = (*constraints)[i];
      if (!node_included(c, pod, *node)) continue;
      pairs[i].emplace_back(node->label(c.key), counts.get(i, *node));
    }
  }
  data->tp_value_to_match_num.reserve(n);
  data->critical_paths.assign(n, CriticalPaths{});
  data->self_match.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    data->tp_value_to_match_num.push_back(merge_domains(std::move(pairs[i])));
    for (const auto& [value, num] : data->tp_value_to_match_num[i]) {
      update_paths(data->critical_paths[i], value, num);
    }
    data->self_match[i] = (*constraints)[i].matches(pod.pod.metadata.labels) ? 1 : 0;
  }
  state.set(slot(), std::move(data));
  return {};
}

// filtering.go updateWithPod.
void PodTopologySpread::update_with_pod(CycleState& state, const PodInfo& pod,
                                        const PodInfo& updated, const NodeInfo& node,
                                        int delta) const {
  auto* s = state.get_mut<SpreadState>(slot());
  if (s == nullptr || !s->filtering) return;
  if (updated.pod.metadata.namespace_ != pod.pod.metadata.namespace_) return;
  const auto& constraints = *s->constraints;
  if (!has_all_keys(node, constraints)) return;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const SpreadConstraint& c = constraints[i];
    // Upstream checks Selector.Matches only, so an empty selector counts here too.
    if (!c.matches(updated.pod.metadata.labels)) continue;
    if (!node_included(c, pod, node)) continue;
    const StrId value = node.label(c.key);
    std::int64_t& num = domain_at(s->tp_value_to_match_num[i], value);
    num += delta;
    update_paths(s->critical_paths[i], value, num);
  }
}

void PodTopologySpread::add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                                const NodeInfo& node) const {
  update_with_pod(state, pod, added, node, 1);
}

void PodTopologySpread::remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                                   const NodeInfo& node) const {
  update_with_pod(state, pod, removed, node, -1);
}

// filtering.go Filter: 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum'
// <= 'maxSkew', the global minimum being 0 while fewer than minDomains domains exist.
Code PodTopologySpread::filter(const CycleState& state, const PodInfo&, const NodeInfo& node,
                               Reasons& reasons) const {
  const auto* s = state.get<SpreadState>(slot());
  if (s == nullptr || !s->filtering) return Code::Success;
  const auto& constraints = *s->constraints;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const SpreadConstraint& c = constraints[i];
    const StrId value = node.label(c.key);
    if (value == StringPool::kMissing) {
      reasons.push_back(reason_label_);
      return Code::UnschedulableAndUnresolvable;
    }
    const Domains& domains = s->tp_value_to_match_num[i];
    std::int64_t min_match = s->critical_paths[i][0].num;
    if (static_cast<std::int64_t>(domains.size()) < c.min_domains) min_match = 0;
    const std::int64_t* match = find_domain(domains, value);
    const std::int64_t skew = (match ? *match : 0) + s->self_match[i] - min_match;
    if (skew > c.max_skew) {
      reasons.push_back(reason_constraints_);
      return Code::Unschedulable;
    }
  }
  return Code::Success;
}

// scoring.go initPreScoreState and PreScore.
Code PodTopologySpread::pre_score(CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes) {
  const std::vector<NodeInfo*>& all = cluster_.node_list();
  std::vector<SpreadConstraint> constraints =
      all.empty() ? std::vector<SpreadConstraint>{} : constraints_for(pod.pod, "ScheduleAnyway");
  if (constraints.empty()) {
    state.skip_score(slot());
    return Code::Skip;
  }
  auto* s = state.get_mut<SpreadState>(slot());
  if (s == nullptr) {
    state.set(slot(), std::make_unique<SpreadState>());
    s = state.get_mut<SpreadState>(slot());
  }
  // Only the pod's own constraints require every topology key: with the system defaults a
  // node without a zone label still gets hostname spreading.
  const bool require_all = !pod.pod.spec.topology_spread_constraints.empty() || !system_defaulted_;
  const std::size_t n = constraints.size();
  const std::uint32_t slots = slot_count(all);
  s->ignored_slot.assign(slots, 0);
  s->ignored_position.assign(nodes.size(), 0);
  std::vector<Domains> values(n);
  std::size_t ignored = 0;
  for (std::size_t pos = 0; pos < nodes.size(); ++pos) {
    const NodeInfo& node = *nodes[pos];
    if (require_all && !has_all_keys(node, constraints)) {
      s->ignored_slot[node.slot] = 1;
      s->ignored_position[pos] = 1;
      ++ignored;
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (constraints[i].hostname) continue;  // counted per node in Score
      values[i].emplace_back(value_of(node, constraints[i].key), 0);
    }
  }
  s->tp_value_to_pod_counts.clear();
  s->normalizing_weight.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    s->tp_value_to_pod_counts.push_back(merge_domains(std::move(values[i])));
    const std::size_t size =
        constraints[i].hostname ? nodes.size() - ignored : s->tp_value_to_pod_counts[i].size();
    // topologyNormalizingWeight: log(size + 2).
    s->normalizing_weight[i] = std::log(static_cast<double>(size + 2));
  }
  NodeCounts counts(constraints, slots, pod.pod.metadata.namespace_);
  for (const NodeInfo* node : all) {
    if (require_all && !has_all_keys(*node, constraints)) continue;
    for (std::size_t i = 0; i < n; ++i) {
      const SpreadConstraint& c = constraints[i];
      if (c.hostname) continue;  // no domain counts: Score counts per node
      if (!node_included(c, pod, *node)) continue;
      const StrId value = value_of(*node, c.key);
      Domains& domains = s->tp_value_to_pod_counts[i];
      auto it = std::lower_bound(domains.begin(), domains.end(), value,
                                 [](const auto& entry, StrId v) { return entry.first < v; });
      if (it == domains.end() || it->first != value) continue;
      it->second += counts.get(i, *node);
    }
  }
  // Score's per-node count for hostname constraints, precomputed for the scored nodes.
  s->host_counts.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) {
    if (!constraints[i].hostname) continue;
    s->host_counts[i].assign(slots, 0);
    for (std::size_t pos = 0; pos < nodes.size(); ++pos) {
      if (s->ignored_position[pos]) continue;
      s->host_counts[i][nodes[pos]->slot] = counts.get(i, *nodes[pos]);
    }
  }
  s->score_constraints = std::move(constraints);
  return Code::Success;
}

// scoring.go Score: scoreForCount = count * topologyNormalizingWeight + maxSkew - 1.
std::int64_t PodTopologySpread::score(const CycleState& state, const PodInfo&,
                                      const NodeInfo& node) const {
  const auto* s = state.get<SpreadState>(slot());
  if (s->ignored_slot[node.slot]) return 0;
  double total = 0;
  for (std::size_t i = 0; i < s->score_constraints.size(); ++i) {
    const SpreadConstraint& c = s->score_constraints[i];
    const StrId value = node.label(c.key);
    if (value == StringPool::kMissing) continue;
    std::int64_t count = 0;
    if (c.hostname) {
      count = s->host_counts[i][node.slot];
    } else if (const std::int64_t* found = find_domain(s->tp_value_to_pod_counts[i], value)) {
      count = *found;
    }
    total +=
        static_cast<double>(count) * s->normalizing_weight[i] + static_cast<double>(c.max_skew - 1);
  }
  return static_cast<std::int64_t>(std::round(total));  // math.Round: half away from zero
}

// scoring.go NormalizeScore: fewer matching pods score higher; ignored nodes score 0.
void PodTopologySpread::normalize(const CycleState& state, const PodInfo&,
                                  std::span<std::int64_t> scores) const {
  const auto* s = state.get<SpreadState>(slot());
  std::int64_t min_score = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_score = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (s->ignored_position[i]) continue;
    min_score = std::min(min_score, scores[i]);
    max_score = std::max(max_score, scores[i]);
  }
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (s->ignored_position[i]) {
      scores[i] = 0;
    } else if (max_score == 0) {
      scores[i] = kMaxNodeScore;
    } else {
      scores[i] = kMaxNodeScore * (max_score + min_score - scores[i]) / max_score;
    }
  }
}

// plugin.go EventsToRegister with QueueingHints on (1.32+ default).
std::vector<ClusterEventWithHint> PodTopologySpread::events_to_register() const {
  return {{{EventResource::Pod,
            action::kAdd | action::kUpdatePodLabel | action::kUpdatePodToleration | action::kDelete,
            "Pod"},
           true},
          {{EventResource::Node,
            action::kAdd | action::kDelete | action::kUpdateNodeLabel | action::kUpdateNodeTaint,
            "Node"},
           true}};
}

// plugin.go isSchedulableAfterPodChange / isSchedulableAfterNodeChange.
QueueingHint PodTopologySpread::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                              const EventObjects& objects) const {
  const std::vector<SpreadConstraint> constraints = constraints_for(pod.pod, "DoNotSchedule");
  if (event.resource == EventResource::Pod) {
    if (objects.pod == nullptr) return QueueingHint::Queue;
    const Pod& other = objects.pod->pod;
    // involvedInTopologySpreading: the pod itself, or an assigned pod of its namespace.
    const bool involved =
        other.metadata.uid == pod.pod.metadata.uid ||
        (!other.spec.node_name.empty() && other.metadata.namespace_ == pod.pod.metadata.namespace_);
    if (!involved) return QueueingHint::QueueSkip;
    auto any_match = [&](const Labels& labels) {
      return std::any_of(constraints.begin(), constraints.end(),
                         [&](const SpreadConstraint& c) { return c.matches(labels); });
    };
    if ((event.actions & (action::kUpdatePodLabel | action::kUpdatePodToleration)) != 0) {
      const bool honor_taints =
          std::any_of(constraints.begin(), constraints.end(),
                      [](const SpreadConstraint& c) { return c.honor_taints; });
      if (objects.pod == &pod && (event.actions & action::kUpdatePodToleration) != 0 &&
          honor_taints) {
        return QueueingHint::Queue;
      }
      if ((event.actions & action::kUpdatePodLabel) == 0) return QueueingHint::QueueSkip;
      // Upstream requeues when some selector matches the old labels and not the new ones or
      // the reverse; the update event carries only the new pod, so any label change requeues.
      return QueueingHint::Queue;
    }
    return any_match(other.metadata.labels) ? QueueingHint::Queue : QueueingHint::QueueSkip;
  }
  const Labels* old_labels = objects.old_node ? &objects.old_node->metadata.labels : nullptr;
  const Labels* new_labels = objects.node ? &objects.node->node.metadata.labels : nullptr;
  const bool old_matching = old_labels && has_all_keys(*old_labels, constraints);
  const bool new_matching = new_labels && has_all_keys(*new_labels, constraints);
  if (old_labels && new_labels) {
    if (old_matching != new_matching) return QueueingHint::Queue;
    if (!new_matching) return QueueingHint::QueueSkip;
    const bool key_changed =
        std::any_of(constraints.begin(), constraints.end(), [&](const SpreadConstraint& c) {
          return label_or_empty(*old_labels, c.topology_key) !=
                 label_or_empty(*new_labels, c.topology_key);
        });
    const bool taints_changed =
        objects.old_node->effective_taints() != objects.node->node.effective_taints();
    return key_changed || taints_changed ? QueueingHint::Queue : QueueingHint::QueueSkip;
  }
  if (new_labels) return new_matching ? QueueingHint::Queue : QueueingHint::QueueSkip;
  return old_matching ? QueueingHint::Queue : QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
