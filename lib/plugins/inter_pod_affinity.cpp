// InterPodAffinity, mirroring pkg/scheduler/framework/plugins/interpodaffinity/{plugin.go,
// filtering.go,scoring.go} and framework.AffinityTerm (pkg/scheduler/framework/types.go) as of
// Kubernetes 1.33.
//
// Namespaces: upstream merges an incoming pod's namespaceSelector into the names of the
// namespaces that exist (mergeAffinityTermNamespacesIfNotEmpty) and matches existing pods'
// terms against the incoming pod's namespace labels (GetNamespaceLabelsSnapshot). gpusched
// treats every namespace that holds a pod as existing (undeclared ones carry only
// kubernetes.io/metadata.name), so both come down to matching the selector against the target
// pod's namespace labels.
#include "plugins/inter_pod_affinity.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {
namespace {

/// framework.AffinityTerm of one pod: what it selects, where, within which topology key.
struct Term {
  /// The labelSelector with matchLabelKeys / mismatchLabelKeys merged in, as the API server's
  /// applyMatchLabelKeysAndMismatchLabelKeys (pkg/registry/core/pod/strategy.go) does at creation.
  std::optional<LabelSelector> merged;
  const LabelSelector* selector = nullptr;  ///< nullptr: labels.Nothing()
  const std::vector<std::string>* namespaces = nullptr;
  std::string_view own_namespace;  ///< set when the term names no namespace and no selector
  const LabelSelector* namespace_selector = nullptr;  ///< nullptr: labels.Nothing()
  StrId topology_key = 0;
  std::int32_t weight = 0;

  [[nodiscard]] const LabelSelector* label_selector() const noexcept {
    return merged ? &*merged : selector;
  }
};

using Terms = std::vector<Term>;

Term make_term(const Pod& owner, const PodAffinityTerm& term, std::int32_t weight,
               StringPool& pool) {
  Term out;
  if (term.label_selector) {
    out.selector = &*term.label_selector;
    if (!term.match_label_keys.empty() || !term.mismatch_label_keys.empty()) {
      out.merged = *term.label_selector;
      auto add = [&](const std::vector<std::string>& keys, SelectorOperator op) {
        for (const std::string& key : keys) {
          auto it = owner.metadata.labels.find(key);
          if (it == owner.metadata.labels.end()) continue;
          out.merged->match_expressions.push_back(SelectorRequirement{key, op, {it->second}});
        }
      };
      add(term.match_label_keys, SelectorOperator::In);
      add(term.mismatch_label_keys, SelectorOperator::NotIn);
    }
  }
  // getNamespacesFromPodAffinityTerm: no names and no selector mean the pod's own namespace.
  if (term.namespaces.empty() && !term.namespace_selector) {
    out.own_namespace = owner.metadata.namespace_;
  } else {
    out.namespaces = &term.namespaces;
  }
  if (term.namespace_selector) out.namespace_selector = &*term.namespace_selector;
  out.topology_key = pool.intern(term.topology_key);
  out.weight = weight;
  return out;
}

Terms required_terms(const Pod& owner, const std::optional<PodAffinity>& affinity,
                     std::int32_t weight, StringPool& pool) {
  Terms out;
  if (!affinity) return out;
  out.reserve(affinity->required.size());
  for (const PodAffinityTerm& t : affinity->required) {
    out.push_back(make_term(owner, t, weight, pool));
  }
  return out;
}

Terms preferred_terms(const Pod& owner, const std::optional<PodAffinity>& affinity,
                      StringPool& pool) {
  Terms out;
  if (!affinity) return out;
  out.reserve(affinity->preferred.size());
  for (const WeightedPodAffinityTerm& t : affinity->preferred) {
    out.push_back(make_term(owner, t.term, t.weight, pool));
  }
  return out;
}

/// AffinityTerm.Matches: the namespace is listed or selected, and the labels are selected.
bool term_matches(const Term& term, const Pod& target, const Labels& target_ns_labels) {
  const std::string& ns = target.metadata.namespace_;
  bool ns_ok = term.namespaces == nullptr
                   ? term.own_namespace == ns
                   : std::find(term.namespaces->begin(), term.namespaces->end(), ns) !=
                         term.namespaces->end();
  if (!ns_ok && term.namespace_selector != nullptr) {
    ns_ok = term.namespace_selector->matches(target_ns_labels);
  }
  if (!ns_ok) return false;
  const LabelSelector* selector = term.label_selector();
  return selector != nullptr && selector->matches(target.metadata.labels);
}

/// podMatchesAllAffinityTerms: false without terms.
bool matches_all(const Terms& terms, const Pod& target, const Labels& target_ns_labels) {
  if (terms.empty()) return false;
  return std::all_of(terms.begin(), terms.end(),
                     [&](const Term& t) { return term_matches(t, target, target_ns_labels); });
}

/// Whether matching `terms` needs the target pod's namespace labels (a namespaceSelector).
bool needs_namespace_labels(const Terms& terms) {
  return std::any_of(terms.begin(), terms.end(),
                     [](const Term& t) { return t.namespace_selector != nullptr; });
}

/// The labels of `ns` when a term needs them; an empty set otherwise (no map lookup).
const Labels& labels_if(bool needed, const ClusterState& cluster, const std::string& ns) {
  static const Labels kNone;
  return needed ? cluster.namespace_labels(ns) : kNone;
}

constexpr std::uint64_t pair_id(StrId key, StrId value) noexcept {
  return (static_cast<std::uint64_t>(key) << 32) | value;
}

/// topologyToMatchedTermCount, keyed by interned (topology key, value).
using PairCounts = std::unordered_map<std::uint64_t, std::int64_t>;

/// topologyToMatchedTermCount.update: entries that drop to zero are removed.
void update(PairCounts& counts, const NodeInfo& node, StrId key, std::int64_t value) {
  const StrId tv = node.label(key);
  if (tv == StringPool::kMissing) return;
  const std::uint64_t id = pair_id(key, tv);
  auto [it, inserted] = counts.try_emplace(id, 0);
  it->second += value;
  if (it->second == 0) counts.erase(it);
}

std::int64_t count_of(const PairCounts& counts, std::uint64_t id) {
  auto it = counts.find(id);
  return it == counts.end() ? 0 : it->second;
}

struct PreFilterState final : StateData {
  const PodInfo* pod = nullptr;
  const Labels* namespace_labels = nullptr;  ///< of the incoming pod's namespace
  Terms affinity;                            ///< RequiredAffinityTerms
  Terms anti_affinity;                       ///< RequiredAntiAffinityTerms
  bool matches_own_affinity = false;         ///< podMatchesAllAffinityTerms(terms, pod)
  PairCounts existing_anti_affinity_counts;
  PairCounts affinity_counts;
  PairCounts anti_affinity_counts;

  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

struct PreScoreState final : StateData {
  std::vector<StrId> keys;  ///< topology keys with a score entry, in first-seen order
  std::unordered_map<std::uint64_t, std::int64_t> scores;  ///< topologyScore
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

/// scoreMap.processTerm.
void process_term(PreScoreState& s, const Term& term, std::int32_t weight, const Pod& target,
                  const Labels& target_ns_labels, const NodeInfo& node, std::int64_t multiplier) {
  if (!term_matches(term, target, target_ns_labels)) return;
  const StrId tv = node.label(term.topology_key);
  if (tv == StringPool::kMissing) return;
  if (std::find(s.keys.begin(), s.keys.end(), term.topology_key) == s.keys.end()) {
    s.keys.push_back(term.topology_key);
  }
  s.scores[pair_id(term.topology_key, tv)] += static_cast<std::int64_t>(weight) * multiplier;
}

}  // namespace

InterPodAffinity::InterPodAffinity(Handle& handle, std::int32_t hard_pod_affinity_weight)
    : cluster_(handle.cluster),
      hard_pod_affinity_weight_(hard_pod_affinity_weight),
      reason_affinity_(handle.cluster.pool().intern("node(s) didn't match pod affinity rules")),
      reason_anti_affinity_(
          handle.cluster.pool().intern("node(s) didn't match pod anti-affinity rules")),
      reason_existing_anti_affinity_(handle.cluster.pool().intern(
          "node(s) didn't satisfy existing pods anti-affinity rules")) {}

// filtering.go PreFilter.
Status InterPodAffinity::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) {
  const Pod& p = pod.pod;
  StringPool& pool = cluster_.pool();
  const bool has_required =
      (p.spec.affinity->pod_affinity && !p.spec.affinity->pod_affinity->required.empty()) ||
      (p.spec.affinity->pod_anti_affinity && !p.spec.affinity->pod_anti_affinity->required.empty());
  // Nothing to count: the Skip below would be reached with empty maps.
  if (!has_required && cluster_.pods_with_required_anti_affinity() == 0) {
    state.skip_filter(slot());
    return {Code::Skip};
  }
  auto s = std::make_unique<PreFilterState>();
  s->pod = &pod;
  s->namespace_labels = &cluster_.namespace_labels(p.metadata.namespace_);
  s->affinity = required_terms(p, p.spec.affinity->pod_affinity, 0, pool);
  s->anti_affinity = required_terms(p, p.spec.affinity->pod_anti_affinity, 0, pool);
  s->matches_own_affinity = matches_all(s->affinity, p, *s->namespace_labels);
  const bool incoming_ns =
      needs_namespace_labels(s->affinity) || needs_namespace_labels(s->anti_affinity);

  for (const NodeInfo* node : cluster_.node_list()) {
    for (const PodInfo* existing : node->pods) {
      const Pod& e = existing->pod;
      // getExistingAntiAffinityCounts: existing pods' required anti-affinity vs the pod.
      const auto& anti = e.spec.affinity->pod_anti_affinity;
      if (anti && !anti->required.empty()) {
        for (const Term& t : required_terms(e, anti, 0, pool)) {
          if (term_matches(t, p, *s->namespace_labels)) {
            update(s->existing_anti_affinity_counts, *node, t.topology_key, 1);
          }
        }
      }
      // getIncomingAffinityAntiAffinityCounts: the pod's terms vs existing pods.
      if (!s->affinity.empty() || !s->anti_affinity.empty()) {
        const Labels& ns_labels = labels_if(incoming_ns, cluster_, e.metadata.namespace_);
        if (matches_all(s->affinity, e, ns_labels)) {
          for (const Term& t : s->affinity) update(s->affinity_counts, *node, t.topology_key, 1);
        }
        for (const Term& t : s->anti_affinity) {
          if (term_matches(t, e, ns_labels)) {
            update(s->anti_affinity_counts, *node, t.topology_key, 1);
          }
        }
      }
    }
  }
  if (s->existing_anti_affinity_counts.empty() && s->affinity.empty() && s->anti_affinity.empty()) {
    state.skip_filter(slot());
    return {Code::Skip};
  }
  state.set(slot(), std::move(s));
  return {};
}

namespace {

// preFilterState.updateWithPod.
void update_with_pod(PreFilterState* s, const PodInfo& changed, const NodeInfo& node,
                     std::int64_t multiplier, StringPool& pool, const ClusterState& cluster) {
  if (s == nullptr) return;
  const Pod& e = changed.pod;
  const auto& anti = e.spec.affinity->pod_anti_affinity;
  if (anti && !anti->required.empty()) {
    for (const Term& t : required_terms(e, anti, 0, pool)) {
      if (term_matches(t, s->pod->pod, *s->namespace_labels)) {
        update(s->existing_anti_affinity_counts, node, t.topology_key, multiplier);
      }
    }
  }
  if (s->affinity.empty() && s->anti_affinity.empty()) return;
  const bool needed =
      needs_namespace_labels(s->affinity) || needs_namespace_labels(s->anti_affinity);
  const Labels& ns_labels = labels_if(needed, cluster, e.metadata.namespace_);
  if (matches_all(s->affinity, e, ns_labels)) {
    for (const Term& t : s->affinity) {
      update(s->affinity_counts, node, t.topology_key, multiplier);
    }
  }
  for (const Term& t : s->anti_affinity) {
    if (term_matches(t, e, ns_labels)) {
      update(s->anti_affinity_counts, node, t.topology_key, multiplier);
    }
  }
}

}  // namespace

void InterPodAffinity::add_pod(CycleState& state, const PodInfo&, const PodInfo& added,
                               const NodeInfo& node) const {
  update_with_pod(state.get_mut<PreFilterState>(slot()), added, node, 1, cluster_.pool(), cluster_);
}

void InterPodAffinity::remove_pod(CycleState& state, const PodInfo&, const PodInfo& removed,
                                  const NodeInfo& node) const {
  update_with_pod(state.get_mut<PreFilterState>(slot()), removed, node, -1, cluster_.pool(),
                  cluster_);
}

// filtering.go Filter: satisfyPodAffinity, satisfyPodAntiAffinity,
// satisfyExistingPodsAntiAffinity.
Code InterPodAffinity::filter(const CycleState& state, const PodInfo&, const NodeInfo& node,
                              Reasons& reasons) const {
  const auto* s = state.get<PreFilterState>(slot());
  if (s == nullptr) return Code::Success;

  bool pods_exist = true;
  for (const Term& t : s->affinity) {
    const StrId tv = node.label(t.topology_key);
    if (tv == StringPool::kMissing) {
      // All topology labels must exist on the node.
      reasons.push_back(reason_affinity_);
      return Code::UnschedulableAndUnresolvable;
    }
    if (count_of(s->affinity_counts, pair_id(t.topology_key, tv)) <= 0) pods_exist = false;
  }
  // The first pod of a series with affinity to itself: allowed when no pod matches anywhere.
  if (!pods_exist && !(s->affinity_counts.empty() && s->matches_own_affinity)) {
    reasons.push_back(reason_affinity_);
    return Code::UnschedulableAndUnresolvable;
  }

  for (const Term& t : s->anti_affinity) {
    const StrId tv = node.label(t.topology_key);
    if (tv == StringPool::kMissing) continue;
    if (count_of(s->anti_affinity_counts, pair_id(t.topology_key, tv)) > 0) {
      reasons.push_back(reason_anti_affinity_);
      return Code::Unschedulable;
    }
  }

  if (!s->existing_anti_affinity_counts.empty()) {
    for (const auto& [key, value] : node.labels) {
      if (count_of(s->existing_anti_affinity_counts, pair_id(key, value)) > 0) {
        reasons.push_back(reason_existing_anti_affinity_);
        return Code::Unschedulable;
      }
    }
  }
  return Code::Success;
}

// scoring.go PreScore / processExistingPod.
Code InterPodAffinity::pre_score(CycleState& state, const PodInfo& pod,
                                 std::span<const NodeInfo* const> nodes) {
  const Pod& p = pod.pod;
  const bool has_constraints =
      (p.spec.affinity->pod_affinity && !p.spec.affinity->pod_affinity->preferred.empty()) ||
      (p.spec.affinity->pod_anti_affinity &&
       !p.spec.affinity->pod_anti_affinity->preferred.empty());
  if (nodes.empty() || (!has_constraints && cluster_.pods_with_affinity() == 0)) {
    state.skip_score(slot());
    return Code::Skip;
  }
  StringPool& pool = cluster_.pool();
  const Terms affinity = preferred_terms(p, p.spec.affinity->pod_affinity, pool);
  const Terms anti_affinity = preferred_terms(p, p.spec.affinity->pod_anti_affinity, pool);
  const Labels& ns_labels = cluster_.namespace_labels(p.metadata.namespace_);
  const bool incoming_ns =
      needs_namespace_labels(affinity) || needs_namespace_labels(anti_affinity);

  auto s = std::make_unique<PreScoreState>();
  for (const NodeInfo* node : cluster_.node_list()) {
    if (node->labels.empty()) continue;
    for (const PodInfo* existing : node->pods) {
      const Pod& e = existing->pod;
      const auto& e_affinity = e.spec.affinity->pod_affinity;
      const auto& e_anti = e.spec.affinity->pod_anti_affinity;
      // Without preferred terms of its own the pod only meets existing pods with affinity.
      if (!has_constraints && !e_affinity && !e_anti) continue;
      if (has_constraints) {
        const Labels& e_ns_labels = labels_if(incoming_ns, cluster_, e.metadata.namespace_);
        for (const Term& t : affinity) process_term(*s, t, t.weight, e, e_ns_labels, *node, 1);
        for (const Term& t : anti_affinity) {
          process_term(*s, t, t.weight, e, e_ns_labels, *node, -1);
        }
      }
      if (hard_pod_affinity_weight_ > 0 && e_affinity) {
        for (const Term& t : required_terms(e, e_affinity, 0, pool)) {
          process_term(*s, t, hard_pod_affinity_weight_, p, ns_labels, *node, 1);
        }
      }
      for (const Term& t : preferred_terms(e, e_affinity, pool)) {
        process_term(*s, t, t.weight, p, ns_labels, *node, 1);
      }
      for (const Term& t : preferred_terms(e, e_anti, pool)) {
        process_term(*s, t, t.weight, p, ns_labels, *node, -1);
      }
    }
  }
  if (s->keys.empty()) {
    state.skip_score(slot());
    return Code::Skip;
  }
  state.set(slot(), std::move(s));
  return Code::Success;
}

std::int64_t InterPodAffinity::score(const CycleState& state, const PodInfo&,
                                     const NodeInfo& node) const {
  const auto* s = state.get<PreScoreState>(slot());
  if (s == nullptr) return 0;
  std::int64_t total = 0;
  for (StrId key : s->keys) {
    const StrId tv = node.label(key);
    if (tv == StringPool::kMissing) continue;
    auto it = s->scores.find(pair_id(key, tv));
    if (it != s->scores.end()) total += it->second;
  }
  return total;
}

void InterPodAffinity::normalize(const CycleState& state, const PodInfo&,
                                 std::span<std::int64_t> scores) const {
  const auto* s = state.get<PreScoreState>(slot());
  if (s == nullptr || s->keys.empty()) return;
  std::int64_t min_count = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_count = std::numeric_limits<std::int64_t>::min();
  for (std::int64_t v : scores) {
    max_count = std::max(max_count, v);
    min_count = std::min(min_count, v);
  }
  const std::int64_t diff = max_count - min_count;
  for (std::int64_t& v : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(v - min_count) / static_cast<double>(diff));
    }
    v = static_cast<std::int64_t>(f);
  }
}

// plugin.go EventsToRegister with QueueingHints on (1.32+ default).
std::vector<ClusterEventWithHint> InterPodAffinity::events_to_register() const {
  return {
      {{EventResource::Pod, action::kAdd | action::kUpdatePodLabel | action::kDelete, "Pod"}, true},
      {{EventResource::Node, action::kAdd | action::kUpdateNodeLabel, "Node"}, true},
  };
}

// isSchedulableAfterPodChange / isSchedulableAfterNodeChange. The terms are built as
// framework.GetAffinityTerms does: namespaceSelectors are not resolved (nil namespace labels).
QueueingHint InterPodAffinity::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                             const EventObjects& objects) const {
  const Pod& p = pod.pod;
  StringPool& pool = cluster_.pool();
  const Terms terms = required_terms(p, p.spec.affinity->pod_affinity, 0, pool);
  const Terms anti_terms = required_terms(p, p.spec.affinity->pod_anti_affinity, 0, pool);
  static const Labels kNoLabels;
  if (event.resource == EventResource::Node) {
    if (objects.node == nullptr) return QueueingHint::Queue;
    const Labels& labels = objects.node->node.metadata.labels;
    auto has_key = [&](const Term& t) { return labels.contains(pool.str(t.topology_key)); };
    if (std::any_of(terms.begin(), terms.end(), has_key) ||
        std::any_of(anti_terms.begin(), anti_terms.end(), has_key)) {
      return QueueingHint::Queue;
    }
    return QueueingHint::QueueSkip;
  }
  if (objects.pod == nullptr) return QueueingHint::Queue;
  const Pod& changed = objects.pod->pod;
  // Unscheduled pods cannot make the pod schedulable.
  if (changed.spec.node_name.empty()) return QueueingHint::QueueSkip;
  if ((event.actions & action::kDelete) != 0) {
    // Pod is deleted: Queue when it matched the pod's anti-affinity.
    return matches_all(anti_terms, changed, kNoLabels) ? QueueingHint::Queue
                                                       : QueueingHint::QueueSkip;
  }
  if ((event.actions & action::kAdd) != 0) {
    // Pod is added: Queue when it matches the pod's affinity.
    return matches_all(terms, changed, kNoLabels) ? QueueingHint::Queue : QueueingHint::QueueSkip;
  }
  // A label update: gpusched's events carry only the new object, so requeue.
  return QueueingHint::Queue;
}

bool required_affinity_matches(const Pod& waiting, const Pod& added,
                               const Labels& added_namespace_labels, StringPool& pool) {
  const auto& affinity = waiting.spec.affinity->pod_affinity;
  if (!affinity || affinity->required.empty()) return false;
  const Terms terms = required_terms(waiting, affinity, 0, pool);
  return std::any_of(terms.begin(), terms.end(), [&](const Term& term) {
    return term_matches(term, added, added_namespace_labels);
  });
}

}  // namespace gpusched::plugins
