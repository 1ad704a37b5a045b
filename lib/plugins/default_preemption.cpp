#include "plugins/default_preemption.hpp"

#include <algorithm>
#include <limits>
#include <span>
#include <unordered_map>
#include <vector>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/rng.hpp"

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
  if (budgets.empty()) {
    // Nothing to violate: no need to read the pods' labels.
    non_violating.assign(pods.begin(), pods.end());
    return;
  }
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
  diagnosis.for_each_failed([&](const NodeInfo& failed, const FailedStatus& status, auto) {
    if (&failed == node) nominated_code = status.code;
  });
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
                                       Status& status) const {
  std::vector<PodInfo*>& potential = potential_;
  potential.clear();
  for (PodInfo* p : node.pods) {
    if (p->priority < pod.priority) potential.push_back(p);
  }
  if (potential.empty()) {
    status.code = Code::UnschedulableAndUnresolvable;
    status.plugin = kName;
    status.reasons.assign(1, no_victims_);
    return status.code;
  }
  Framework& fwk = *handle_.framework;
  // SelectVictimsOnNode works on NodeInfo.Snapshot() and CycleState.Clone(): here the node is
  // edited in place and restored on return, and the state is copied on write.
  CycleState& state_copy = state_copy_;
  state_copy = state;
  struct ClearOnReturn {
    CycleState& state;
    ~ClearOnReturn() { state.clear_data(); }  // lets go of what it shares with `state`
  } clear_on_return{state_copy};
  ScopedNodeEdit edit(node, edit_storage_);
  auto remove = [&](PodInfo* p) {
    edit.remove_pod(*p);
    fwk.run_pre_filter_extension_remove_pod(state_copy, pod, *p, edit.node());
  };
  auto add = [&](PodInfo* p) {
    edit.add_pod(*p);
    fwk.run_pre_filter_extension_add_pod(state_copy, pod, *p, edit.node());
  };
  for (PodInfo* p : potential) remove(p);
  if (fwk.run_filter_with_nominated(state_copy, pod, edit.node(), status) != Code::Success)
    return status.code;
  // Reprieve as many as possible: first the pods whose eviction would violate a budget, then the
  // others, the most important first in each group.
  std::sort(potential.begin(), potential.end(), more_important);
  violating_.clear();
  non_violating_.clear();
  split_by_pdb(potential, handle_.cluster.budgets(), violating_, non_violating_);
  candidate.victims.reserve(potential.size());
  // The statuses of the reprieve filters are not reported: `status` serves as their scratch.
  auto reprieve = [&](PodInfo* p) {
    add(p);
    if (fwk.run_filter_with_nominated(state_copy, pod, edit.node(), status) == Code::Success)
      return true;
    remove(p);
    candidate.victims.push_back(p);
    return false;
  };
  for (PodInfo* p : violating_) {
    if (!reprieve(p)) ++candidate.pdb_violations;
  }
  for (PodInfo* p : non_violating_) reprieve(p);
  if (!violating_.empty() && !non_violating_.empty()) {
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
  std::vector<const Candidate*> remaining, best;
  remaining.reserve(candidates.size());
  best.reserve(candidates.size());
  for (const Candidate& c : candidates) remaining.push_back(&c);
  for (const Score& score : criteria) {
    best.clear();
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
    std::swap(remaining, best);
  }
  // Upstream takes the first of a Go map's keys: effectively random. Seeded here.
  return *remaining[static_cast<std::size_t>(
      handle_.rng.intn(static_cast<std::int64_t>(remaining.size())))];
}

std::pair<std::int64_t, std::int64_t> DefaultPreemption::offset_and_num_candidates(
    std::int64_t num_nodes) const {
  const std::int64_t offset = handle_.rng.intn(num_nodes);
  // calculateNumCandidates.
  const std::int64_t num_candidates =
      std::clamp<std::int64_t>(num_nodes * args_.min_candidate_nodes_percentage / 100,
                               args_.min_candidate_nodes_absolute, num_nodes);
  return {offset, num_candidates};
}

std::vector<DefaultPreemption::KeptSearch>* DefaultPreemption::kept_searches(
    const CycleState& state, const PodInfo& pod) const {
  // What else a search reads: the budgets (their counts change with the pods they cover, and
  // split the victims); the pods nominated to the node are part of its version.
  if (handle_.config.reference_engine || !handle_.cluster.budgets().empty()) return nullptr;
  std::string& key = search_key_;
  key.clear();
  // The key holds the priority, which also decides the potential victims.
  if (!handle_.framework->append_node_filter_key(state, pod, key)) return nullptr;
  // Enough for a fleet's preemptor shapes; a run where every preemptor differs starts over.
  constexpr std::size_t kMaxKeys = 16;
  if (kept_searches_.size() >= kMaxKeys && !kept_searches_.contains(key)) kept_searches_.clear();
  return &kept_searches_[key];
}

Code DefaultPreemption::kept_select_victims(const CycleState& state, const PodInfo& pod,
                                            const NodeInfo& node, std::vector<KeptSearch>* kept,
                                            Candidate& candidate, Status& status) const {
  // A node's version covers the pods nominated to it, but the preemptor does not count itself
  // among them.
  const auto nominated = handle_.cluster.nominated_pods(node.name);
  if (kept == nullptr || std::find(nominated.begin(), nominated.end(), &pod) != nominated.end())
    return select_victims(state, pod, node, candidate, status);
  if (node.slot >= kept->size()) kept->resize(node.slot + 1);
  KeptSearch& entry = (*kept)[node.slot];
  if (entry.version != node.version) {
    const Code code = select_victims(state, pod, node, candidate, status);
    if (code == Code::Error) return code;
    entry.version = node.version;
    entry.code = code;
    entry.victims = candidate.victims;
    if (code != Code::Success) entry.status = status;
    return code;
  }
  if (entry.code == Code::Success) {
    candidate.node = &node;
    candidate.victims = entry.victims;
  } else {
    status = entry.status;
  }
  return entry.code;
}

std::vector<DefaultPreemption::Candidate> DefaultPreemption::dry_run(
    const CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& potential,
    std::int64_t offset, std::int64_t num_candidates, Diagnosis& statuses,
    std::vector<std::string>& errors) const {
  std::vector<Candidate> non_violating, violating;
  // newCandidateList(numCandidates): a list silently drops what goes past its capacity.
  const auto capacity = static_cast<std::size_t>(std::max<std::int64_t>(num_candidates, 0));
  const auto n = static_cast<std::int64_t>(potential.size());
  non_violating.reserve(std::min(capacity, potential.size()));
  statuses.expected_failures = potential.size();
  Status status;  // reused: the Diagnosis keeps a copy of what it records
  // SelectVictimsOnNode finds no potential victim on a node whose pods all have the incoming
  // pod's priority or a higher one. When every pod holding a node has, each node's status is that
  // one: recorded in the search's order without visiting the nodes' pods.
  if (const std::optional<std::int32_t> lowest = handle_.cluster.lowest_holding_priority();
      !lowest || *lowest >= pod.priority) {
    status = Status{Code::UnschedulableAndUnresolvable, kName, {no_victims_}};
    const auto start = static_cast<std::size_t>(offset % std::max<std::int64_t>(n, 1));
    statuses.add_run(std::span(potential).subspan(start), status);
    statuses.add_run(std::span(potential).first(start), status);
    return {};
  }
  std::vector<KeptSearch>* const kept = kept_searches(state, pod);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>((offset + i) % n);
    const NodeInfo& node = *potential[at];
    // The nodes' pods lie scattered in memory and each search would wait for them in turn: start
    // loading what the next searches read. Each step reads only what an earlier one fetched: a
    // node's pod list, then the list's storage, then the pods, then their requests. (Inline: GCC
    // deletes calls to a function that only prefetches, taking it for a pure one.) Not when
    // searches are kept: most nodes' are, and loading their pods would be the search's cost.
    auto ahead = [&](std::size_t steps) -> const NodeInfo& {
      const std::size_t next = at + steps;
      return *potential[next < potential.size() ? next : next % potential.size()];
    };
    if (kept == nullptr) {
      __builtin_prefetch(&ahead(4).pods);
      __builtin_prefetch(&ahead(4).requested);
      __builtin_prefetch(ahead(3).pods.data());
      for (const PodInfo* p : ahead(2).pods) {
        __builtin_prefetch(&p->priority);
        __builtin_prefetch(&p->nonzero_memory);
        __builtin_prefetch(&p->host_ports);
        __builtin_prefetch(&p->pod.status.start_ms);
      }
      for (const PodInfo* p : ahead(1).pods) __builtin_prefetch(p->requests->data());
    }
    Candidate candidate;
    const Code code = kept_select_victims(state, pod, node, kept, candidate, status);
    if (code == Code::Success && !candidate.victims.empty()) {
      std::vector<Candidate>& list = candidate.pdb_violations == 0 ? non_violating : violating;
      if (list.size() < capacity) list.push_back(std::move(candidate));
      // The search stops once it has a non-violating candidate and enough in all.
      if (!non_violating.empty() &&
          static_cast<std::int64_t>(non_violating.size() + violating.size()) >= num_candidates) {
        break;
      }
      continue;
    }
    if (code == Code::Success) {
      // DryRunPreemption: success without victims is an error for this node.
      status = Status{Code::Error, kName, {}};
      errors.push_back("expected at least one victim pod on node \"" + node.node.metadata.name +
                       "\"");
    } else if (code == Code::Error) {
      errors.push_back(status.message(handle_.cluster.pool()));
    }
    statuses.add(node, status);
  }
  non_violating.insert(non_violating.end(), std::make_move_iterator(violating.begin()),
                       std::make_move_iterator(violating.end()));
  return non_violating;
}

PostFilterResult DefaultPreemption::post_filter(CycleState& state, const PodInfo& pod,
                                                const Diagnosis& diagnosis) {
  // DefaultPreemption.PostFilter prefixes every message of Evaluator.Preempt with "preemption: ".
  if (std::string reason = eligibility(pod, diagnosis); !reason.empty()) {
    return {Code::Unschedulable, "preemption: " + reason, std::nullopt};
  }
  // NodeToStatus.NodesForStatusCode(lister, Unschedulable): the nodes whose status is exactly
  // Unschedulable. When the status of absent nodes is Unschedulable too (a PreFilter rejection),
  // every node of the snapshot qualifies unless its own status says otherwise, in list order;
  // else only the nodes with an explicit Unschedulable status (upstream walks a Go map).
  std::vector<const NodeInfo*> potential;
  const Code absent_code =
      diagnosis.absent ? diagnosis.absent->code : Code::UnschedulableAndUnresolvable;
  if (absent_code == Code::Unschedulable) {
    std::unordered_map<const NodeInfo*, Code> explicit_codes;
    diagnosis.for_each_failed([&](const NodeInfo& node, const FailedStatus& status, auto) {
      explicit_codes[&node] = status.code;
    });
    for (const NodeInfo* node : handle_.cluster.node_list()) {
      auto it = explicit_codes.find(node);
      if ((it == explicit_codes.end() ? absent_code : it->second) == Code::Unschedulable)
        potential.push_back(node);
    }
  } else {
    diagnosis.for_each_failed([&](const NodeInfo& node, const FailedStatus& status, auto) {
      if (status.code == Code::Unschedulable) potential.push_back(&node);
    });
  }
  Diagnosis dry_run_statuses;
  std::vector<std::string> errors;
  std::vector<Candidate> candidates;
  if (!potential.empty()) {
    const auto [offset, num_candidates] =
        offset_and_num_candidates(static_cast<std::int64_t>(potential.size()));
    candidates = dry_run(state, pod, potential, offset, num_candidates, dry_run_statuses, errors);
  }
  if (candidates.empty() && !errors.empty()) {
    // Evaluator.Preempt: an error with no candidate is the status, as utilerrors.NewAggregate
    // prints it (duplicates once; several in brackets).
    std::vector<std::string> seen;
    for (const std::string& e : errors) {
      if (std::find(seen.begin(), seen.end(), e) == seen.end()) seen.push_back(e);
    }
    std::string message;
    for (const std::string& e : seen) message += (message.empty() ? "" : ", ") + e;
    if (seen.size() > 1) message = "[" + message + "]";
    return {Code::Error, "preemption: " + message, std::nullopt};
  }
  if (candidates.empty()) {
    // A FitError of the dry-run, the nodes not tried counting as "not helpful"; the pod's
    // nomination, if any, is cleared.
    dry_run_statuses.absent = Status{Code::UnschedulableAndUnresolvable, kName, {not_helpful_}};
    return {Code::Unschedulable,
            "preemption: " + fit_error_message(handle_.cluster.node_list().size(), dry_run_statuses,
                                               handle_.cluster.pool()),
            std::string()};
  }
  const Candidate& best = pick_one(candidates);
  const std::string node_name = best.node->node.metadata.name;
  // prepareCandidate (the victims' eviction, the lower-priority nominations to the node
  // cleared) is the sink's.
  handle_.preemption.preempt(pod, *best.node, best.victims);
  return {Code::Success, "", node_name};
}

}  // namespace gpusched::plugins
