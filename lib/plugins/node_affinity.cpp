#include "plugins/node_affinity.hpp"

#include <algorithm>
#include <set>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {

NodeAffinity::NodeAffinity(Handle& handle)
    : cluster_(handle.cluster),
      reason_pod_(
          handle.cluster.pool().intern("node(s) didn't match Pod's node affinity/selector")),
      name_field_(handle.cluster.pool().intern("metadata.name")) {}

Status NodeAffinity::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) {
  if (!pod.required_terms && pod.node_selector.empty()) {
    state.skip_filter(slot());
    return {Code::Skip};
  }
  if (!pod.required_terms || pod.required_terms->empty()) return {};
  // Terms are ORed; within a term the metadata.name In requirements are intersected. A term
  // without one allows every node, so no narrowing at all.
  std::optional<std::set<StrId>> names;
  for (const TermInfo& term : *pod.required_terms) {
    std::optional<std::set<StrId>> term_names;
    for (const RequirementInfo& r : term.match_fields) {
      if (r.key != name_field_ || r.op != SelectorOperator::In) continue;
      std::set<StrId> values(r.values.begin(), r.values.end());
      if (!term_names) {
        term_names = std::move(values);
      } else {
        std::set<StrId> both;
        std::set_intersection(term_names->begin(), term_names->end(), values.begin(), values.end(),
                              std::inserter(both, both.end()));
        term_names = std::move(both);
      }
    }
    if (!term_names) return {};
    if (!names) names.emplace();
    names->insert(term_names->begin(), term_names->end());
  }
  if (names && names->empty()) {
    return {Code::UnschedulableAndUnresolvable,
            {},
            {cluster_.pool().intern("pod affinity terms conflict")}};
  }
  if (names) result.node_names.emplace(names->begin(), names->end());
  return {};
}

Code NodeAffinity::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                          Reasons& reasons) const {
  if (required_node_affinity_matches(pod, node, cluster_.pool())) return Code::Success;
  reasons.push_back(reason_pod_);
  return Code::UnschedulableAndUnresolvable;
}

// Its verdict reads the pod's node selector and required terms, and the node's labels and name.
bool NodeAffinity::append_node_static_key(const PodInfo& pod, std::string& key) const {
  append_node_affinity_key(pod, key);
  return true;
}

Code NodeAffinity::pre_score(CycleState& state, const PodInfo& pod,
                             std::span<const NodeInfo* const>) {
  if (pod.preferred_terms.empty()) {
    state.skip_score(slot());
    return Code::Skip;
  }
  return Code::Success;
}

std::int64_t NodeAffinity::score(const CycleState&, const PodInfo& pod,
                                 const NodeInfo& node) const {
  std::int64_t total = 0;
  for (const auto& [weight, term] : pod.preferred_terms) {
    if (term_matches(term, node, cluster_.pool())) total += weight;
  }
  return total;
}

void NodeAffinity::normalize(const CycleState&, const PodInfo&,
                             std::span<std::int64_t> scores) const {
  default_normalize_score(kMaxNodeScore, false, scores);
}

std::vector<ClusterEventWithHint> NodeAffinity::events_to_register() const {
  return {{{EventResource::Node, action::kAdd | action::kUpdateNodeLabel, "Node"}, true}};
}

// isSchedulableAfterNodeChange: Queue when the node matches now and did not before.
QueueingHint NodeAffinity::queueing_hint(const ClusterEvent&, const PodInfo& pod,
                                         const EventObjects& objects) const {
  if (objects.node == nullptr) return QueueingHint::QueueSkip;
  if (!required_node_affinity_matches(pod, *objects.node, cluster_.pool())) {
    return QueueingHint::QueueSkip;
  }
  if (objects.old_node == nullptr) return QueueingHint::Queue;
  // The old labels: compile a throwaway view of the old node against the same pool.
  NodeInfo old_view;
  old_view.name = objects.node->name;
  for (const auto& [k, v] : objects.old_node->metadata.labels) {
    old_view.labels.emplace_back(cluster_.pool().intern(k), cluster_.pool().intern(v));
  }
  std::sort(old_view.labels.begin(), old_view.labels.end());
  return required_node_affinity_matches(pod, old_view, cluster_.pool()) ? QueueingHint::QueueSkip
                                                                        : QueueingHint::Queue;
}

}  // namespace gpusched::plugins
