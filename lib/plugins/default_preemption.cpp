#include "plugins/default_preemption.hpp"

#include <algorithm>
#include <limits>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/rng.hpp"
#include "gpusched/scheduler/diagnosis.hpp"

namespace gpusched::plugins {
namespace {

// util.MoreImportantPod: higher priority first; equal priority, the earlier start time first.
bool more_important(const PodInfo* a, const PodInfo* b) {
  if (a->priority != b->priority) return a->priority > b->priority;
  const auto start_a = a->pod.status.start_ms.value_or(std::numeric_limits<std::int64_t>::max());
  const auto start_b = b->pod.status.start_ms.value_or(std::numeric_limits<std::int64_t>::max());
  if (start_a != start_b) return start_a < start_b;
  return a->sequence < b->sequence;
}

}  // namespace

DefaultPreemption::DefaultPreemption(Handle& handle, const DefaultPreemptionArgs& args)
    : handle_(handle),
      args_(args),
      no_victims_(handle.cluster.pool().intern("No preemption victims found for incoming pod")) {}

Code DefaultPreemption::select_victims(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node, std::vector<PodInfo*>& victims,
                                       NodeStatus& status) const {
  NodeInfo copy = node;  // a dry-run on a copy, as upstream clones the NodeInfo
  CycleState state_copy = state;
  std::vector<PodInfo*> potential;
  for (PodInfo* p : node.pods) {
    if (p->priority < pod.priority) potential.push_back(p);
  }
  if (potential.empty()) {
    status.code = Code::UnschedulableAndUnresolvable;
    status.plugin = kName;
    status.reasons.assign(1, no_victims_);
    return status.code;
  }
  for (PodInfo* p : potential) copy.remove_pod(*p);
  Framework& fwk = *handle_.framework;
  if (fwk.run_filter(state_copy, pod, copy, status) != Code::Success) return status.code;
  // Reprieve as many victims as possible, most important first.
  std::sort(potential.begin(), potential.end(), more_important);
  NodeStatus scratch;
  for (PodInfo* p : potential) {
    copy.add_pod(*p);
    scratch.reasons.clear();
    if (fwk.run_filter(state_copy, pod, copy, scratch) != Code::Success) {
      copy.remove_pod(*p);
      victims.push_back(p);
    }
  }
  return Code::Success;
}

// pickOneNodeForPreemption, without PDBs: lowest highest-priority victim, smallest sum of
// shifted victim priorities, fewest victims, latest start of the highest-priority victims,
// then the first remaining (upstream: map order).
const DefaultPreemption::Candidate& DefaultPreemption::pick_one(
    const std::vector<Candidate>& candidates) const {
  const Candidate* best = &candidates.front();
  auto key = [](const Candidate& c) {
    const std::int64_t highest =
        c.victims.empty() ? std::numeric_limits<std::int32_t>::min() : c.victims.front()->priority;
    // Each term is in [0, 2^32): the sum fits 64 bits for any realistic victim count.
    std::int64_t sum = 0;
    for (const PodInfo* v : c.victims) sum += static_cast<std::int64_t>(v->priority) + (1LL << 31);
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    for (const PodInfo* v : c.victims) {
      if (v->priority == highest) earliest = std::min(earliest, v->pod.status.start_ms.value_or(0));
    }
    return std::tuple(highest, sum, c.victims.size(), -earliest);
  };
  for (const Candidate& c : candidates) {
    if (key(c) < key(*best)) best = &c;
  }
  return *best;
}

PostFilterResult DefaultPreemption::post_filter(CycleState& state, const PodInfo& pod,
                                                const Diagnosis& diagnosis) {
  const std::size_t num_all = handle_.cluster.node_list().size();
  if (pod.pod.spec.preemption_policy == "Never") {
    return {Code::Unschedulable, "preemption: not eligible due to preemptionPolicy=Never.",
            std::nullopt};
  }
  // nodesWherePreemptionMightHelp: only nodes whose status is exactly Unschedulable.
  std::vector<const NodeInfo*> potential;
  for (std::size_t i = 0; i < diagnosis.failed_nodes.size(); ++i) {
    if (diagnosis.failed_statuses[i].code == Code::Unschedulable)
      potential.push_back(diagnosis.failed_nodes[i]);
  }
  Diagnosis dry_run;
  dry_run.absent =
      NodeStatus{Code::UnschedulableAndUnresolvable,
                 kName,
                 {handle_.cluster.pool().intern("Preemption is not helpful for scheduling")}};
  std::vector<Candidate> candidates;
  if (!potential.empty()) {
    // GetOffsetAndNumCandidates: a random start, and enough candidates to compare.
    const auto n = static_cast<std::int64_t>(potential.size());
    std::int64_t num_candidates = n * args_.min_candidate_nodes_percentage / 100;
    num_candidates =
        std::clamp<std::int64_t>(num_candidates, args_.min_candidate_nodes_absolute, n);
    const std::int64_t offset = handle_.rng.intn(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const NodeInfo& node = *potential[static_cast<std::size_t>((offset + i) % n)];
      std::vector<PodInfo*> victims;
      NodeStatus status;
      if (select_victims(state, pod, node, victims, status) == Code::Success) {
        candidates.push_back({&node, std::move(victims)});
        if (static_cast<std::int64_t>(candidates.size()) >= num_candidates) break;
      } else {
        dry_run.add(node, std::move(status));
      }
    }
  }
  if (candidates.empty()) {
    return {Code::Unschedulable,
            "preemption: " + fit_error_message(num_all, dry_run, handle_.cluster.pool()),
            std::string()};
  }
  const Candidate& best = pick_one(candidates);
  handle_.preemption.preempt(pod, *best.node, best.victims);
  return {Code::Success, "", best.node->node.metadata.name};
}

}  // namespace gpusched::plugins
