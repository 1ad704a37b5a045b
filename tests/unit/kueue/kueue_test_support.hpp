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
/// WithinClusterQueue, BorrowWithinCohort.MaxPriorityThreshold}; what a case leaves out is Never,
/// the CRD default.
inline ClusterQueuePreemption preemption(
    PreemptionPolicy reclaim_within_cohort,
    BorrowWithinCohortPolicy borrow_within_cohort = BorrowWithinCohortPolicy::Never,
    PreemptionPolicy within_cluster_queue = PreemptionPolicy::Never,
    std::optional<std::int32_t> max_priority_threshold = std::nullopt) {
  ClusterQueuePreemption p;
  p.reclaim_within_cohort = reclaim_within_cohort;
  p.borrow_within_cohort.policy = borrow_within_cohort;
  p.borrow_within_cohort.max_priority_threshold = max_priority_threshold;
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

/// metav1.LabelSelector{MatchExpressions: [{Key: key, Operator: In, Values: values}]}.
inline LabelSelector selector_in(std::string key, std::vector<std::string> values) {
  LabelSelector selector;
  selector.match_expressions.push_back(
      SelectorRequirement{std::move(key), SelectorOperator::In, std::move(values)});
  return selector;
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
  ClusterQueueBuilder& namespace_selector(LabelSelector selector) {
    cq_.namespace_selector = std::move(selector);
    return *this;
  }
  ClusterQueueBuilder& queueing_strategy(QueueingStrategy strategy) {
    cq_.queueing_strategy = strategy;
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
  CohortBuilder& fair_weight(std::string_view w) {
    c_.fair_sharing = FairSharing{qty(w)};
    return *this;
  }
  operator Cohort() const { return c_; }  // NOLINT: implicit

 private:
  Cohort c_;
};

/// MakePodSetAssignment(name): count 1, no flavors yet.
class PodSetAssignmentBuilder {
 public:
  explicit PodSetAssignmentBuilder(std::string name) {
    psa_.name = std::move(name);
    psa_.count = 1;
  }
  /// Assignment(r, f, value): the flavor of `r` and the pod set's usage of it.
  PodSetAssignmentBuilder& assignment(const std::string& resource, std::string flavor,
                                      std::string_view value) {
    psa_.flavors[resource] = std::move(flavor);
    psa_.resource_usage[resource] = qty(value);
    return *this;
  }
  PodSetAssignmentBuilder& count(std::int32_t n) {
    psa_.count = n;
    return *this;
  }
  operator PodSetAssignment() const { return psa_; }  // NOLINT: implicit

 private:
  PodSetAssignment psa_;
};

/// MakeAdmission(cq): one assignment for pod set "main" until PodSets replaces them.
class AdmissionBuilder {
 public:
  explicit AdmissionBuilder(std::string cluster_queue) {
    a_.cluster_queue = std::move(cluster_queue);
    a_.pod_set_assignments = {PodSetAssignmentBuilder("main")};
  }
  template <class... P>
  AdmissionBuilder& pod_sets(const P&... assignments) {
    a_.pod_set_assignments = {PodSetAssignment(assignments)...};
    return *this;
  }
  operator Admission() const { return a_; }  // NOLINT: implicit

 private:
  Admission a_;
};

/// MakeWorkload(name, ns): one pod set "main" of one pod with one container.
class WorkloadBuilder {
 public:
  WorkloadBuilder(std::string name, std::string ns) {
    wl_.metadata.name = std::move(name);
    wl_.metadata.namespace_ = std::move(ns);
    wl_.pod_sets = {PodSetBuilder("main", 1)};
  }
  /// Clone().
  [[nodiscard]] WorkloadBuilder clone() const { return *this; }
  WorkloadBuilder& uid(std::string uid) {
    wl_.metadata.uid = std::move(uid);
    return *this;
  }
  WorkloadBuilder& label(const std::string& key, std::string value) {
    wl_.metadata.labels[key] = std::move(value);
    return *this;
  }
  /// JobUID(uid): the job-uid label.
  WorkloadBuilder& job_uid(std::string uid) {
    return label(std::string(kJobUidLabel), std::move(uid));
  }
  WorkloadBuilder& queue(std::string name) {
    wl_.queue_name = std::move(name);
    return *this;
  }
  WorkloadBuilder& priority(std::int32_t p) {
    wl_.priority = p;
    return *this;
  }
  WorkloadBuilder& creation(TimeMs t) {
    wl_.metadata.creation_ms = t;
    return *this;
  }
  /// Request(r, q): on the first pod set's container.
  WorkloadBuilder& request(const std::string& resource, std::string_view q) {
    wl_.pod_sets[0].template_.spec.containers.mut()[0].requests[resource] = qty(q);
    return *this;
  }
  template <class... P>
  WorkloadBuilder& pod_sets(const P&... pod_sets) {
    wl_.pod_sets = {PodSet(pod_sets)...};
    return *this;
  }
  /// ReserveQuotaAt(a, now): the admission and QuotaReserved=True at `now`.
  WorkloadBuilder& reserve_quota_at(Admission a, TimeMs now) {
    wl_.conditions = {Condition{"QuotaReserved", "True", "AdmittedByTest",
                                "Admitted by ClusterQueue " + a.cluster_queue, now, 0}};
    wl_.admission = std::move(a);
    return *this;
  }
  /// Condition(c): apimeta.SetStatusCondition, replacing the condition of the same type.
  WorkloadBuilder& condition(Condition c) {
    auto it = std::find_if(wl_.conditions.begin(), wl_.conditions.end(),
                           [&](const Condition& x) { return x.type == c.type; });
    if (it != wl_.conditions.end())
      *it = std::move(c);
    else
      wl_.conditions.push_back(std::move(c));
    return *this;
  }
  /// AdmittedAt(a, t): Admitted=True (or False) at `t`.
  WorkloadBuilder& admitted_at(bool admitted, TimeMs t) {
    return condition(Condition{"Admitted", admitted ? "True" : "False", "ByTest",
                               "Admitted by ClusterQueue " + wl_.admission->cluster_queue, t, 0});
  }
  /// SimpleReserveQuota(cq, flavor, now): every request of the first pod set (times its count)
  /// in `flavor`.
  WorkloadBuilder& simple_reserve_quota(std::string cq, const std::string& flavor, TimeMs now) {
    const PodSet& ps = wl_.pod_sets[0];
    PodSetAssignment psa = PodSetAssignmentBuilder(ps.name).count(ps.count);
    for (const auto& [resource, q] : ps.template_.spec.containers.get()[0].requests) {
      psa.flavors[resource] = flavor;
      Quantity total = q;  // Quantity.Mul(count), count >= 1
      for (std::int32_t i = 1; i < ps.count; ++i) total = total.plus(q);
      psa.resource_usage[resource] = total;
    }
    Admission a = AdmissionBuilder(std::move(cq));
    a.pod_set_assignments = {std::move(psa)};
    return reserve_quota_at(std::move(a), now);
  }
  operator Workload() const { return wl_; }  // NOLINT: implicit

 private:
  Workload wl_;
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
