#pragma once
// Builders mirroring Kueue's test wrappers (pkg/util/testing/v1beta2/wrappers.go, Kueue v0.19.2)
// so that upstream test tables read the same here: MakePodSet, MakeClusterQueue,
// MakeFlavorQuotas, MakeCohort.

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "gpusched/model/kueue.hpp"
#include "gpusched/model/quantity.hpp"
#include "kueue/amount.hpp"
#include "kueue/quota_tree.hpp"

namespace gpusched::kueue::testing {

inline constexpr std::int64_t Mi = std::int64_t{1} << 20;
inline constexpr std::int64_t Gi = std::int64_t{1} << 30;

inline Quantity qty(std::string_view text) {
  std::string error;
  auto q = Quantity::parse(text, &error);
  REQUIRE(q.has_value());
  return *q;
}

/// MakePodSet(name, count): one container "c" with the requests given.
class PodSetBuilder {
 public:
  PodSetBuilder(std::string name, std::int32_t count) {
    ps_.name = std::move(name);
    ps_.count = count;
    Container c;
    c.name = "c";
    ps_.template_.spec.containers = std::vector<Container>{std::move(c)};
  }
  /// Request(r, q).
  PodSetBuilder& request(const std::string& resource, std::string_view q) {
    ps_.template_.spec.containers.mut()[0].requests[resource] = qty(q);
    return *this;
  }
  /// NodeSelector(kv).
  PodSetBuilder& node_selector(std::map<std::string, std::string, std::less<>> kv) {
    ps_.template_.spec.node_selector = std::move(kv);
    return *this;
  }
  /// Toleration(t).
  PodSetBuilder& toleration(Toleration t) {
    ps_.template_.spec.tolerations.mut().push_back(std::move(t));
    return *this;
  }
  /// RequiredDuringSchedulingIgnoredDuringExecution(terms): each term's matchExpressions,
  /// appended to the required terms.
  PodSetBuilder& required_node_affinity(std::vector<std::vector<SelectorRequirement>> terms) {
    Affinity& affinity = ps_.template_.spec.affinity.mut();
    if (!affinity.node_affinity) affinity.node_affinity.emplace();
    if (!affinity.node_affinity->required) affinity.node_affinity->required.emplace();
    for (auto& expressions : terms) {
      NodeSelectorTerm term;
      term.match_expressions = std::move(expressions);
      affinity.node_affinity->required->push_back(std::move(term));
    }
    return *this;
  }
  operator PodSet() const { return ps_; }  // NOLINT: implicit, reads like upstream's Obj()

 private:
  PodSet ps_;
};

/// corev1.Toleration{Key, Operator, Value, Effect}.
inline Toleration toleration(std::string key, TolerationOperator op, std::string value,
                             TaintEffect effect) {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  t.effect = effect;
  return t;
}

/// kueue.ClusterQueuePreemption{ReclaimWithinCohort, BorrowWithinCohort.Policy,
/// WithinClusterQueue}; what a case leaves out is Never, the CRD default.
inline ClusterQueuePreemption preemption(
    PreemptionPolicy reclaim_within_cohort,
    BorrowWithinCohortPolicy borrow_within_cohort = BorrowWithinCohortPolicy::Never,
    PreemptionPolicy within_cluster_queue = PreemptionPolicy::Never) {
  ClusterQueuePreemption p;
  p.reclaim_within_cohort = reclaim_within_cohort;
  p.borrow_within_cohort.policy = borrow_within_cohort;
  p.within_cluster_queue = within_cluster_queue;
  return p;
}

/// kueue.FlavorFungibility{WhenCanBorrow, WhenCanPreempt[, Preference]}.
inline FlavorFungibility fungibility(
    FlavorFungibilityPolicy when_can_borrow, FlavorFungibilityPolicy when_can_preempt,
    std::optional<FlavorFungibilityPreference> preference = std::nullopt) {
  FlavorFungibility f;
  f.when_can_borrow = when_can_borrow;
  f.when_can_preempt = when_can_preempt;
  f.preference = preference;
  return f;
}

/// MakeFlavorQuotas(name).Resource(r, nominal[, borrowingLimit[, lendingLimit]]): "" leaves a
/// limit unset, as upstream.
class FlavorQuotasBuilder {
 public:
  explicit FlavorQuotasBuilder(std::string name) { fq_.name = std::move(name); }
  FlavorQuotasBuilder& resource(std::string name, std::string_view nominal,
                                std::string_view borrowing_limit = "",
                                std::string_view lending_limit = "") {
    ResourceQuota rq;
    rq.name = std::move(name);
    rq.nominal_quota = qty(nominal);
    if (!borrowing_limit.empty()) rq.borrowing_limit = qty(borrowing_limit);
    if (!lending_limit.empty()) rq.lending_limit = qty(lending_limit);
    fq_.resources.push_back(std::move(rq));
    return *this;
  }
  operator FlavorQuotas() const { return fq_; }  // NOLINT: implicit

 private:
  FlavorQuotas fq_;
};

/// ResourceGroup(flavors...): the covered resources are every resource of the flavors, in
/// order of first appearance.
inline ResourceGroup resource_group(std::vector<FlavorQuotas> flavors) {
  ResourceGroup group;
  for (const FlavorQuotas& f : flavors) {
    for (const ResourceQuota& rq : f.resources) {
      if (std::find(group.covered_resources.begin(), group.covered_resources.end(), rq.name) ==
          group.covered_resources.end())
        group.covered_resources.push_back(rq.name);
    }
  }
  group.flavors = std::move(flavors);
  return group;
}

/// MakeClusterQueue(name): namespaceSelector {}, BestEffortFIFO, whenCanBorrow MayStopSearch,
/// whenCanPreempt TryNextFlavor.
class ClusterQueueBuilder {
 public:
  explicit ClusterQueueBuilder(std::string name) {
    cq_.metadata.name = std::move(name);
    cq_.namespace_selector = LabelSelector{};
  }
  ClusterQueueBuilder& resource_group(std::vector<FlavorQuotas> flavors) {
    cq_.resource_groups.push_back(testing::resource_group(std::move(flavors)));
    return *this;
  }
  ClusterQueueBuilder& cohort(std::string name) {
    cq_.cohort_name = std::move(name);
    return *this;
  }
  ClusterQueueBuilder& preemption(ClusterQueuePreemption p) {
    cq_.preemption = p;
    return *this;
  }
  ClusterQueueBuilder& flavor_fungibility(FlavorFungibility f) {
    cq_.flavor_fungibility = f;
    return *this;
  }
  ClusterQueueBuilder& fair_weight(std::string_view w) {
    cq_.fair_sharing = FairSharing{qty(w)};
    return *this;
  }
  operator ClusterQueue() const { return cq_; }  // NOLINT: implicit

 private:
  ClusterQueue cq_;
};

/// MakeCohort(name).
class CohortBuilder {
 public:
  explicit CohortBuilder(std::string name) { c_.metadata.name = std::move(name); }
  CohortBuilder& parent(std::string name) {
    c_.parent_name = std::move(name);
    return *this;
  }
  CohortBuilder& resource_group(std::vector<FlavorQuotas> flavors) {
    c_.resource_groups.push_back(testing::resource_group(std::move(flavors)));
    return *this;
  }
  operator Cohort() const { return c_; }  // NOLINT: implicit

 private:
  Cohort c_;
};

/// QuotaTree::build from lists of objects.
inline QuotaTree build_tree(const std::vector<ClusterQueue>& cqs,
                            const std::vector<Cohort>& cohorts = {}) {
  std::map<std::string, ClusterQueue> cq_map;
  for (const ClusterQueue& cq : cqs) cq_map[cq.metadata.name] = cq;
  std::map<std::string, Cohort> cohort_map;
  for (const Cohort& c : cohorts) cohort_map[c.metadata.name] = c;
  return QuotaTree::build(cq_map, cohort_map);
}

/// A FlavorResourceQuantities literal: {{flavor, resource}, amount}.
inline FlavorResourceAmounts fr_amounts(
    std::initializer_list<std::pair<FlavorResource, std::int64_t>> entries) {
  FlavorResourceAmounts out;
  for (const auto& [fr, v] : entries) out[fr] = Amount(v);
  return out;
}

}  // namespace gpusched::kueue::testing
