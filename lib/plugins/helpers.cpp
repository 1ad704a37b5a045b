#include "plugins/helpers.hpp"
#include "framework/string_pool.hpp"
#include "gpusched/framework/dra_state.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace gpusched::plugins {

bool delegated_to_dra(bool dra_extended_resource, const NodeInfo& node, const ClusterState& cluster,
                      ResId id) {
  if (!dra_extended_resource || node.allocatable[id] > 0 || cluster.dra().classes().empty())
    return false;
  return cluster.dra().extended_resource_class(cluster.resources().name(id)) != nullptr;
}

void default_normalize_score(std::int64_t max_priority, bool reverse,
                             std::span<std::int64_t> scores) {
  std::int64_t max_count = 0;
  for (std::int64_t s : scores) max_count = std::max(max_count, s);
  if (max_count == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
    return;
  }
  for (std::int64_t& s : scores) {
    s = max_priority * s / max_count;
    if (reverse) s = max_priority - s;
  }
}

namespace {

bool contains(const std::vector<StrId>& sorted, StrId v) {
  return std::binary_search(sorted.begin(), sorted.end(), v);
}

std::optional<std::int64_t> parse_int(const std::string& text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// labels.Requirement.Matches for a node label (In, NotIn, Exists, DoesNotExist, Gt, Lt).
bool requirement_matches(const RequirementInfo& r, StrId value, const StringPool& pool) {
  const bool present = value != StringPool::kMissing;
  switch (r.op) {
    case SelectorOperator::In:
      return present && contains(r.values, value);
    case SelectorOperator::NotIn:
      return !present || !contains(r.values, value);
    case SelectorOperator::Exists:
      return present;
    case SelectorOperator::DoesNotExist:
      return !present;
    case SelectorOperator::Gt:
    case SelectorOperator::Lt: {
      if (!present || !r.bound) return false;
      const auto label = parse_int(pool.str(value));
      if (!label) return false;
      return r.op == SelectorOperator::Gt ? *label > *r.bound : *label < *r.bound;
    }
  }
  return false;
}

}  // namespace

bool term_matches(const TermInfo& term, const NodeInfo& node, const StringPool& pool) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions) {
    if (!requirement_matches(r, node.label(r.key), pool)) return false;
  }
  // Only metadata.name is a supported field (nodeaffinity.nodeSelectorTerm: "metadata.name").
  for (const auto& r : term.match_fields) {
    if (!requirement_matches(r, node.name, pool)) return false;
  }
  return true;
}

bool required_node_affinity_matches(const PodInfo& pod, const NodeInfo& node,
                                    const StringPool& pool) {
  for (const auto& [key, value] : pod.node_selector) {
    if (node.label(key) != value) return false;
  }
  if (!pod.required_terms) return true;
  return std::any_of(pod.required_terms->begin(), pod.required_terms->end(),
                     [&](const TermInfo& t) { return term_matches(t, node, pool); });
}

namespace {

// Raw integers, each list preceded by its length, so that no two pods' keys run together.
void append_int(std::string& key, std::uint64_t value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void append_requirements(std::string& key, const std::vector<RequirementInfo>& requirements) {
  append_int(key, requirements.size());
  for (const RequirementInfo& r : requirements) {
    append_int(key, r.key);
    append_int(key, static_cast<std::uint64_t>(r.op));
    append_int(key, r.values.size());
    for (StrId v : r.values) append_int(key, v);
    append_int(key, r.bound ? 1 : 0);
    append_int(key, static_cast<std::uint64_t>(r.bound.value_or(0)));
  }
}

}  // namespace

void append_node_affinity_key(const PodInfo& pod, std::string& key) {
  append_int(key, pod.node_selector.size());
  for (const auto& [k, v] : pod.node_selector) {
    append_int(key, k);
    append_int(key, v);
  }
  append_int(key, pod.required_terms ? pod.required_terms->size() + 1 : 0);
  if (!pod.required_terms) return;
  for (const TermInfo& term : *pod.required_terms) {
    append_requirements(key, term.match_expressions);
    append_requirements(key, term.match_fields);
  }
}

void append_tolerations_key(const PodInfo& pod, std::string& key) {
  append_int(key, pod.tolerations.size());
  for (const TolerationInfo& t : pod.tolerations) {
    append_int(key, t.key);
    append_int(key, static_cast<std::uint64_t>(t.op));
    append_int(key, t.value);
    append_int(key, t.effect ? 1 + static_cast<std::uint64_t>(*t.effect) : 0);
  }
}

const TaintInfo* find_untolerated_taint(const PodInfo& pod, const NodeInfo& node,
                                        TaintFilter filter) {
  for (const TaintInfo& taint : node.taints) {
    const bool considered =
        taint.effect == TaintEffect::NoExecute ||
        (filter == TaintFilter::DoNotSchedule && taint.effect == TaintEffect::NoSchedule);
    if (!considered) continue;
    const bool tolerated = std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                                       [&](const TolerationInfo& t) { return t.tolerates(taint); });
    if (!tolerated) return &taint;
  }
  return nullptr;
}

LabelSelector default_selector(const Pod& pod, const ClusterState& cluster) {
  LabelSelector selector;
  // GetPodServices: a Service selects the pod when every key of its selector has the pod's
  // value; services with nil selectors match nothing (the simulation passes none). Services and
  // controllers all select the pod, so their labels never conflict and merging is safe.
  const Labels& labels = pod.metadata.labels;
  const auto& services = cluster.service_selectors();
  if (auto it = services.find(pod.metadata.namespace_); it != services.end()) {
    for (const Labels& service : it->second) {
      const bool selects = std::all_of(service.begin(), service.end(), [&](const auto& entry) {
        auto label = labels->find(entry.first);
        return label != labels->end() && label->second == entry.second;
      });
      if (!selects) continue;
      for (const auto& [key, value] : *service) selector.match_labels.mut()[key] = value;
    }
  }
  // The controller's selector is added as its requirements, for a ReplicaSet or a StatefulSet.
  const OwnerReference* owner = pod.metadata.controller();
  if (owner == nullptr) return selector;
  const ClusterState::SelectorMap* controllers = nullptr;
  if (owner->kind == "ReplicaSet") controllers = &cluster.replica_set_selectors();
  if (owner->kind == "StatefulSet") controllers = &cluster.stateful_set_selectors();
  if (controllers == nullptr) return selector;
  auto it = controllers->find(pod.metadata.namespace_ + "/" + owner->name);
  if (it == controllers->end()) return selector;
  for (const auto& [key, value] : *it->second.match_labels)
    selector.match_labels.mut()[key] = value;
  selector.match_expressions.insert(selector.match_expressions.end(),
                                    it->second.match_expressions.begin(),
                                    it->second.match_expressions.end());
  return selector;
}

}  // namespace gpusched::plugins
