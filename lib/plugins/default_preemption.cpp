#include "plugins/default_preemption.hpp"

#include <algorithm>
#include <limits>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/rng.hpp"
#include "gpusched/scheduler/diagnosis.hpp"

namespace gpusched::plugins {
namespace {

// GetPodStartTime: a pod that has not started counts as starting now, i.e. after every started
// pod.
std::int64_t start_time(const PodInfo* pod) {
  return pod->pod.status.start_ms.value_or(std::numeric_limits<std::int64_t>::max());
}

// util.MoreImportantPod: higher priority first; equal priority, the earlier start time first.
// Upstream sorts with an unstable sort; creation order settles the remaining ties here.
bool more_important(const PodInfo* a, const PodInfo* b) {
  if (a->priority != b->priority) return a->priority > b->priority;
  if (start_time(a) != start_time(b)) return start_time(a) < start_time(b);
  return a->sequence < b->sequence;
}

// podTerminatingByPreemption: being deleted, with DisruptionTarget=True from the scheduler.
bool terminating_by_preemption(const PodInfo* pod) {
  if (!pod->pod.metadata.deletion_ms) return false;
  const PodCondition* c = pod->pod.status.condition("DisruptionTarget");
  return c != nullptr && c->status == "True" && c->reason == "PreemptionByScheduler";
}

// filterPodsWithPDBViolation: each matching budget is decremented per pod; a pod whose budget
// goes below zero would violate it.
void split_by_pdb(const std::vector<PodInfo*>& pods, const std::vector<BudgetInfo>& budgets,
                  std::vector<PodInfo*>& violating, std::vector<PodInfo*>& non_violating) {
  std::vector<std::int32_t> allowed;
  for (const BudgetInfo& b : budgets) allowed.push_back(b.disruptions_allowed);
  for (PodInfo* pod : pods) {
    bool violated = false;
    // A pod with no labels matches no budget; a budget with an empty selector matches nothing.
    if (!pod->pod.metadata.labels.empty()) {
      for (std::size_t i = 0; i < budgets.size(); ++i) {
        const BudgetInfo& b = budgets[i];
        if (b.namespace_ != pod->pod.metadata.namespace_ || b.selector.empty() ||
            !b.selector.matches(pod->pod.metadata.labels)) {
          continue;
        }
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(pod);
  }
}

}  // namespace

DefaultPreemption::DefaultPreemption(Handle& handle, const DefaultPreemptionArgs& args)
    : handle_(handle),
      args_(args),
      no_victims_(handle.cluster.pool().intern("No preemption victims found for incoming pod")),
      not_helpful_(handle.cluster.pool().intern("Preemption is not helpful for scheduling")) {}

std::string DefaultPreemption::eligibility(const PodInfo& pod, const Diagnosis& diagnosis) const {
  if (pod.pod.spec.preemption_policy == "Never")
    return "not eligible due to preemptionPolicy=Never.";
  const std::string& nominated = pod.pod.status.nominated_node_name;
  if (nominated.empty()) return {};
  // A nominated node that the filters now reject as UnschedulableAndUnresolvable may be given up.
  const NodeInfo* node = handle_.cluster.find_node(nominated);
  Code nominated_code =
      diagnosis.absent ? diagnosis.absent->code : Code::UnschedulableAndUnresolvable;
  for (std::size_t i = 0; i < diagnosis.failed_nodes.size(); ++i) {
    if (diagnosis.failed_nodes[i] == node) nominated_code = diagnosis.failed_statuses[i].code;
  }
  if (nominated_code == Code::UnschedulableAndUnresolvable || node == nullptr) return {};
  for (const PodInfo* p : node->pods) {
    if (p->priority < pod.priority && terminating_by_preemption(p)) {
      return "not eligible due to a terminating pod on the nominated node.";
    }
  }
  return {};
}

Code DefaultPreemption::select_victims(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node, Candidate& candidate,
                                       NodeStatus& status) const {
  NodeInfo copy = node;  // a dry-run on a copy, as upstream snapshots the NodeInfo
  CycleState state_copy = state;
  Framework& fwk = *handle_.framework;
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
  auto remove = [&](PodInfo* p) {
    copy.remove_pod(*p);
    for (const PreFilterPlugin* pf : fwk.pre_filter_plugins())
      pf->remove_pod(state_copy, pod, *p, copy);
  };
  auto add = [&](PodInfo* p) {
    copy.add_pod(*p);
    for (const PreFilterPlugin* pf : fwk.pre_filter_plugins())
      pf->add_pod(state_copy, pod, *p, copy);
  };
  for (PodInfo* p : potential) remove(p);
  if (fwk.run_filter_with_nominated(state_copy, pod, copy, status) != Code::Success)
    return status.code;
  // Reprieve as many as possible: first the pods whose eviction would violate a budget, then the
  // others, the most important first in each group.
  std::sort(potential.begin(), potential.end(), more_important);
  std::vector<PodInfo*> violating, non_violating;
  split_by_pdb(potential, handle_.cluster.budgets(), violating, non_violating);
  NodeStatus scratch;
  auto reprieve = [&](PodInfo* p) {
    add(p);
    if (fwk.run_filter_with_nominated(state_copy, pod, copy, scratch) == Code::Success) return true;
    remove(p);
    candidate.victims.push_back(p);
    return false;
  };
  for (PodInfo* p : violating) {
    if (!reprieve(p)) ++candidate.pdb_violations;
  }
  for (PodInfo* p : non_violating) reprieve(p);
  if (!violating.empty() && !non_violating.empty()) {
    std::sort(candidate.victims.begin(), candidate.victims.end(), more_important);
  }
  candidate.node = &node;
  return Code::Success;
}

// pickOneNodeForPreemption: each criterion keeps the best-scoring nodes; the first that leaves
// one node decides.
const DefaultPreemption::Candidate& DefaultPreemption::pick_one(
    const std::vector<Candidate>& candidates) const {
  if (candidates.size() == 1) return candidates.front();
  using Score = std::function<std::int64_t(const Candidate&)>;
  const std::vector<Score> criteria{
      // fewest PDB violations
      [](const Candidate& c) { return -c.pdb_violations; },
      // the lowest "highest-priority victim"
      [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.front()->priority); },
      // the smallest sum of priorities, each shifted by MaxInt32+1 to be non-negative
      [](const Candidate& c) {
        std::int64_t sum = 0;
        for (const PodInfo* v : c.victims)
          sum += static_cast<std::int64_t>(v->priority) + (1LL << 31);
        return -sum;
      },
      // the fewest victims
      [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); },
      // the latest start among the highest-priority victims (GetEarliestPodStartTime)
      [](const Candidate& c) {
        std::int32_t max_priority = c.victims.front()->priority;
        std::int64_t earliest = start_time(c.victims.front());
        for (const PodInfo* v : c.victims) {
          if (v->priority == max_priority) {
            earliest = std::min(earliest, start_time(v));
          } else if (v->priority > max_priority) {
            max_priority = v->priority;
            earliest = start_time(v);
          }
        }
        return earliest;
      },
  };
  std::vector<const Candidate*> remaining;
  for (const Candidate& c : candidates) remaining.push_back(&c);
  for (const Score& score : criteria) {
    std::vector<const Candidate*> best;
    std::int64_t max_score = std::numeric_limits<std::int64_t>::min();
    for (const Candidate* c : remaining) {
      const std::int64_t s = score(*c);
      if (s > max_score) {
        max_score = s;
        best.clear();
      }
      if (s == max_score) best.push_back(c);
    }
    if (best.size() == 1) return *best.front();
    remaining = std::move(best);
  }
  // Upstream takes the first of a Go map's keys: effectively random. Seeded here.
  return *remaining[static_cast<std::size_t>(
      handle_.rng.intn(static_cast<std::int64_t>(remaining.size())))];
}

PostFilterResult DefaultPreemption::post_filter(CycleState& state, const PodInfo& pod,
                                                const Diagnosis& diagnosis) {
  // DefaultPreemption.PostFilter prefixes every message of Evaluator.Preempt with "preemption: ".
  if (std::string reason = eligibility(pod, diagnosis); !reason.empty()) {
    return {Code::Unschedulable, "preemption: " + reason, std::nullopt};
  }
  // nodesWherePreemptionMightHelp: only nodes whose status is exactly Unschedulable.
  std::vector<const NodeInfo*> potential;
  for (std::size_t i = 0; i < diagnosis.failed_nodes.size(); ++i) {
    if (diagnosis.failed_statuses[i].code == Code::Unschedulable) {
      potential.push_back(diagnosis.failed_nodes[i]);
    }
  }
  Diagnosis dry_run;
  dry_run.absent = NodeStatus{Code::UnschedulableAndUnresolvable, kName, {not_helpful_}};
  std::vector<Candidate> non_violating, violating;
  if (!potential.empty()) {
    // GetOffsetAndNumCandidates: a random start, and enough candidates to compare.
    const auto n = static_cast<std::int64_t>(potential.size());
    const std::int64_t num_candidates = std::clamp<std::int64_t>(
        n * args_.min_candidate_nodes_percentage / 100, args_.min_candidate_nodes_absolute, n);
    const std::int64_t offset = handle_.rng.intn(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const NodeInfo& node = *potential[static_cast<std::size_t>((offset + i) % n)];
      Candidate candidate;
      NodeStatus status;
      if (select_victims(state, pod, node, candidate, status) != Code::Success) {
        dry_run.add(node, std::move(status));
        continue;
      }
      (candidate.pdb_violations == 0 ? non_violating : violating).push_back(std::move(candidate));
      // DryRunPreemption stops once it has a non-violating candidate and enough in all.
      if (!non_violating.empty() &&
          static_cast<std::int64_t>(non_violating.size() + violating.size()) >= num_candidates) {
        break;
      }
    }
  }
  std::vector<Candidate> candidates = std::move(non_violating);
  candidates.insert(candidates.end(), std::make_move_iterator(violating.begin()),
                    std::make_move_iterator(violating.end()));
  if (candidates.empty()) {
    // A FitError of the dry-run; the pod's nomination, if any, is cleared.
    return {Code::Unschedulable,
            "preemption: " + fit_error_message(handle_.cluster.node_list().size(), dry_run,
                                               handle_.cluster.pool()),
            std::string()};
  }
  const Candidate& best = pick_one(candidates);
  const std::string node_name = best.node->node.metadata.name;
  handle_.preemption.preempt(pod, *best.node, best.victims);
  // prepareCandidate: lower-priority pods nominated to the node may no longer fit there.
  const std::vector<PodInfo*> nominated = handle_.cluster.nominated_pods(node_name);
  for (PodInfo* other : nominated) {
    if (other != &pod && other->priority < pod.priority) handle_.cluster.nominate(*other, "");
  }
  return {Code::Success, "", node_name};
}

}  // namespace gpusched::plugins
