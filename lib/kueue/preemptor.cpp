#include "kueue/preemptor.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "kueue/fair_preemption_targets.hpp"

#include "kueue/ordering.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched::kueue {

namespace {

// classical/hierarchical_preemption.go preemptionVariant.
enum class Variant : std::uint8_t {
  Never,
  WithinCQ,
  HierarchicalReclaim,
  ReclaimWithoutBorrowing,
  ReclaimWhileBorrowing,
};

std::string_view reason_of(Variant v) {
  switch (v) {
    case Variant::WithinCQ:
      return kInClusterQueueReason;
    case Variant::HierarchicalReclaim:
    case Variant::ReclaimWithoutBorrowing:
      return kInCohortReclamationReason;
    case Variant::ReclaimWhileBorrowing:
      return kInCohortReclaimWhileBorrowingReason;
    case Variant::Never:
      break;
  }
  return "Unknown";
}

struct Candidate {
  const WorkloadInfo* wl = nullptr;
  const CohortNode* lca = nullptr;  // where candidateIsValid stops climbing
  Variant variant = Variant::Never;
};

using FlavorResources = std::set<FlavorResource>;

// WorkloadUsesResources: some pod set holds one of `frs` (a resource under its flavor).
bool uses_resources(const WorkloadInfo& wl, const FlavorResources& frs) {
  for (const PodSetResources& ps : wl.total_requests) {
    for (const auto& [resource, flavor] : ps.flavors) {
      if (frs.contains({flavor, resource})) return true;
    }
  }
  return false;
}

// IsWithinNominalInResources: the node's usage stays within its subtree quota in each of `frs`.
bool within_nominal(const QuotaNode& node, const FlavorResources& frs) {
  return std::all_of(frs.begin(), frs.end(), [&](const FlavorResource& fr) {
    return node.resources.used(fr) <= node.resources.subtree(fr);
  });
}

// QuantitiesFitInQuota: whether the requests fit the node's subtree quota, and what of them its
// own unused guaranteed quota cannot hold.
std::pair<bool, FlavorResourceAmounts> fit_in_quota(const QuotaNode& node,
                                                    const FlavorResourceAmounts& requests) {
  bool fits = true;
  FlavorResourceAmounts remaining;
  for (const auto& [fr, v] : requests) {
    if (node.resources.subtree(fr) < node.resources.used(fr) + v) fits = false;
    remaining[fr] = max(Amount(), v - local_available(node, fr));
  }
  return {fits, remaining};
}

// IsBorrowingWithinCohortForbidden.
std::pair<bool, std::optional<std::int32_t>> borrowing_forbidden(const ClusterQueueNode& cq) {
  const BorrowWithinCohort& b = cq.preemption.borrow_within_cohort;
  if (b.policy == BorrowWithinCohortPolicy::Never) return {true, std::nullopt};
  return {false, b.max_priority_threshold};
}

// isAboveBorrowingThreshold.
bool above_borrowing_threshold(std::int64_t candidate, std::int64_t incoming,
                               std::optional<std::int32_t> threshold) {
  if (candidate >= incoming) return true;
  return threshold && candidate > *threshold;
}

// The candidate generator of one preemption attempt (classical.NewCandidateIterator).
class CandidateGenerator {
 public:
  CandidateGenerator(const WorkloadInfo& preemptor, const ClusterQueueNode& cq,
                     const FlavorResources& frs, const FlavorResourceAmounts& requests,
                     const KueueConfiguration& config,
                     const std::function<const WorkloadInfo&(const std::string&)>& info_of,
                     TimeMs now)
      : preemptor_(preemptor), cq_(cq), frs_(frs), config_(config), info_of_(info_of) {
    std::vector<Candidate> same_queue;
    if (cq.preemption.within_cluster_queue != PreemptionPolicy::Never)
      same_queue = from_cluster_queue(cq, nullptr, false);
    std::vector<Candidate> hierarchy;
    std::vector<Candidate> priority;
    collect_for_hierarchical_reclaim(requests, hierarchy, priority);
    auto before = [&](const Candidate& a, const Candidate& b) {
      return candidate_before(*a.wl, *b.wl, cq.name, now);
    };
    std::stable_sort(same_queue.begin(), same_queue.end(), before);
    std::stable_sort(priority.begin(), priority.end(), before);
    std::stable_sort(hierarchy.begin(), hierarchy.end(), before);
    // The evicted ones of each list first (they sort first within it), then the rest.
    auto evicted_end = [](std::vector<Candidate>& list) {
      return std::partition_point(list.begin(), list.end(), [](const Candidate& c) {
        return condition_true(c.wl->obj->conditions, kEvicted);
      });
    };
    const auto h = evicted_end(hierarchy);
    const auto p = evicted_end(priority);
    const auto s = evicted_end(same_queue);
    candidates_.insert(candidates_.end(), hierarchy.begin(), h);
    candidates_.insert(candidates_.end(), priority.begin(), p);
    candidates_.insert(candidates_.end(), same_queue.begin(), s);
    candidates_.insert(candidates_.end(), h, hierarchy.end());
    candidates_.insert(candidates_.end(), p, priority.end());
    candidates_.insert(candidates_.end(), s, same_queue.end());
    no_candidate_from_other_queues = hierarchy.empty() && priority.empty();
    no_candidate_for_hierarchical_reclaim = hierarchy.empty();
  }

  [[nodiscard]] const std::vector<Candidate>& candidates() const { return candidates_; }

  // candidateIsValid: checked when reached, since earlier removals change the snapshot.
  [[nodiscard]] bool valid(const Candidate& c, bool borrow,
                           const ClusterQueueNode& candidate_cq) const {
    if (c.wl->cluster_queue == cq_.name) return true;
    if (borrow && c.variant == Variant::ReclaimWithoutBorrowing) return false;
    if (within_nominal(candidate_cq, frs_)) return false;
    // Up to the lowest common ancestor only, not to the root.
    for (const CohortNode* node = candidate_cq.parent; node != nullptr; node = node->parent) {
      if (node == c.lca) break;
      if (within_nominal(*node, frs_)) return false;
    }
    return true;
  }

  bool no_candidate_from_other_queues = false;
  bool no_candidate_for_hierarchical_reclaim = false;

 private:
  // classifyPreemptionVariant.
  [[nodiscard]] Variant classify(const WorkloadInfo& wl, bool hierarchical_advantage) const {
    if (!uses_resources(wl, frs_)) return Variant::Never;
    const bool same_queue = wl.cluster_queue == cq_.name;
    const PreemptionPolicy policy =
        same_queue ? cq_.preemption.within_cluster_queue : cq_.preemption.reclaim_within_cohort;
    if (!satisfies_preemption_policy(*preemptor_.obj, *wl.obj, config_, policy))
      return Variant::Never;
    if (same_queue) return Variant::WithinCQ;
    if (hierarchical_advantage) return Variant::HierarchicalReclaim;
    const auto [forbidden, threshold] = borrowing_forbidden(cq_);
    if (forbidden) return Variant::ReclaimWithoutBorrowing;
    if (above_borrowing_threshold(wl.obj->priority, preemptor_.obj->priority, threshold))
      return Variant::ReclaimWithoutBorrowing;
    return Variant::ReclaimWhileBorrowing;
  }

  // getCandidatesFromCQ.
  [[nodiscard]] std::vector<Candidate> from_cluster_queue(const ClusterQueueNode& cq,
                                                          const CohortNode* lca,
                                                          bool hierarchical_advantage) const {
    std::vector<Candidate> out;
    for (const std::string& key : cq.workloads) {
      const WorkloadInfo& wl = info_of_(key);
      const Variant variant = classify(wl, hierarchical_advantage);
      if (variant != Variant::Never) out.push_back(Candidate{&wl, lca, variant});
    }
    return out;
  }

  // collectCandidatesForHierarchicalReclaim: climbing from the queue to the root, candidates in
  // the subtrees over their quota; once a subtree holds the request, the preemptor has the
  // hierarchical advantage over the workloads using that subtree's quota.
  void collect_for_hierarchical_reclaim(const FlavorResourceAmounts& requests,
                                        std::vector<Candidate>& hierarchy,
                                        std::vector<Candidate>& priority) const {
    if (!cq_.has_parent() || cq_.preemption.reclaim_within_cohort == PreemptionPolicy::Never)
      return;
    const CohortNode* previous = nullptr;
    auto [advantage, remaining] = fit_in_quota(cq_, requests);
    for (const CohortNode* root = cq_.parent; root != nullptr; root = root->parent) {
      collect_in_subtree(*root, *root, previous, advantage, advantage ? hierarchy : priority);
      auto [fits, rest] = fit_in_quota(*root, remaining);
      remaining = std::move(rest);
      advantage = advantage || fits;
      previous = root;
    }
  }

  // collectCandidatesInSubtree: skips subtrees within their quota and the one already visited.
  void collect_in_subtree(const CohortNode& current, const CohortNode& subtree_root,
                          const CohortNode* skip, bool advantage,
                          std::vector<Candidate>& out) const {
    for (const CohortNode* child : current.child_cohorts) {
      if (child == skip || within_nominal(*child, frs_)) continue;
      collect_in_subtree(*child, subtree_root, skip, advantage, out);
    }
    for (const ClusterQueueNode* child : current.child_cqs) {
      if (child == &cq_ || within_nominal(*child, frs_)) continue;
      std::vector<Candidate> found = from_cluster_queue(*child, &subtree_root, advantage);
      out.insert(out.end(), found.begin(), found.end());
    }
  }

  const WorkloadInfo& preemptor_;
  const ClusterQueueNode& cq_;
  const FlavorResources& frs_;
  const KueueConfiguration& config_;
  const std::function<const WorkloadInfo&(const std::string&)>& info_of_;
  std::vector<Candidate> candidates_;
};

std::string_view human_reason(std::string_view reason) {
  // HumanReadablePreemptionReasons; a reason missing from the map reads as "".
  if (reason == kInClusterQueueReason) return "prioritization in the ClusterQueue";
  if (reason == kInCohortReclamationReason) return "reclamation within the cohort";
  if (reason == kInCohortFairSharingReason) return "Fair Sharing within the cohort";
  if (reason == kInCohortReclaimWhileBorrowingReason)
    return "reclamation within the cohort while borrowing";
  if (reason.empty()) return "UNKNOWN";
  return "";
}

std::string or_unknown(const std::string& s) {
  return s.empty() ? "UNKNOWN" : s;
}

}  // namespace

Preemptor::Preemptor(QuotaTree& snapshot, const std::map<std::string, Workload>& workloads,
                     const KueueConfiguration& config, TimeMs now)
    : snapshot_(snapshot), workloads_(workloads), config_(config), now_(now) {}

const WorkloadInfo& Preemptor::info(const std::string& key) {
  auto it = infos_.find(key);
  if (it == infos_.end()) it = infos_.emplace(key, make_info(workloads_.at(key), key)).first;
  return it->second;
}

void Preemptor::remove_workload(const std::string& key) {
  const WorkloadInfo& wl = info(key);
  ClusterQueueNode* cq = snapshot_.cluster_queue(wl.cluster_queue);
  cq->workloads.erase(key);
  cq->remove_usage(wl.usage());
}

void Preemptor::add_workload(const std::string& key) {
  const WorkloadInfo& wl = info(key);
  ClusterQueueNode* cq = snapshot_.cluster_queue(wl.cluster_queue);
  cq->workloads.insert(key);
  cq->add_usage(wl.usage());
}

void Preemptor::remove_usage_of(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const WorkloadInfo& wl = info(key);
    snapshot_.cluster_queue(wl.cluster_queue)->remove_usage(wl.usage());
  }
}

void Preemptor::add_usage_of(const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const WorkloadInfo& wl = info(key);
    snapshot_.cluster_queue(wl.cluster_queue)->add_usage(wl.usage());
  }
}

bool Preemptor::workload_fits(const Context& ctx, bool allow_borrowing) const {
  return std::all_of(ctx.usage.begin(), ctx.usage.end(), [&](const auto& entry) {
    const auto& [fr, v] = entry;
    if (!allow_borrowing && ctx.cq->borrowing_with(fr, v)) return false;
    return v <= ctx.cq->available(fr);
  });
}

void Preemptor::fill_back(const Context& ctx, std::vector<PreemptionTarget>& targets,
                          bool allow_borrowing) {
  // fillBackWorkloads: in reverse order, put back each target the workload fits without.
  for (std::size_t i = targets.size() - 1; i-- > 0;) {
    add_workload(targets[i].key);
    if (workload_fits(ctx, allow_borrowing)) {
      targets[i] = targets.back();
      targets.pop_back();
    } else {
      remove_workload(targets[i].key);
    }
  }
}

std::vector<const WorkloadInfo*> Preemptor::fair_candidates(const Context& ctx) {
  // findCandidates: by the queue's own policy in it; by reclaimWithinCohort in every other
  // queue of the tree that borrows in a flavor and resource needing preemption.
  std::vector<const WorkloadInfo*> out;
  auto add_from = [&](const ClusterQueueNode& cq, PreemptionPolicy policy) {
    for (const std::string& key : cq.workloads) {
      const WorkloadInfo& wl = info(key);
      if (satisfies_preemption_policy(*ctx.preemptor->obj, *wl.obj, config_, policy) &&
          uses_resources(wl, ctx.frs_need_preemption))
        out.push_back(&wl);
    }
  };
  if (ctx.cq->preemption.within_cluster_queue != PreemptionPolicy::Never)
    add_from(*ctx.cq, ctx.cq->preemption.within_cluster_queue);
  if (ctx.cq->has_parent() && ctx.cq->preemption.reclaim_within_cohort != PreemptionPolicy::Never) {
    std::function<void(const CohortNode&)> visit = [&](const CohortNode& cohort) {
      for (const CohortNode* child : cohort.child_cohorts) visit(*child);
      for (const ClusterQueueNode* other : cohort.child_cqs) {
        // cqIsBorrowing.
        const bool borrowing = std::any_of(
            ctx.frs_need_preemption.begin(), ctx.frs_need_preemption.end(),
            [&](const FlavorResource& fr) { return other->borrowing_with(fr, Amount()); });
        if (other != ctx.cq && borrowing)
          add_from(*other, ctx.cq->preemption.reclaim_within_cohort);
      }
    };
    visit(ctx.cq->parent->root());
  }
  std::stable_sort(out.begin(), out.end(), [&](const WorkloadInfo* a, const WorkloadInfo* b) {
    return candidate_before(*a, *b, ctx.cq->name, now_);
  });
  return out;
}

bool Preemptor::fits_for_fair_sharing(const Context& ctx) {
  // workloadFitsForFairSharing: without the preemptor's own usage, added for the shares.
  ctx.cq->remove_usage(ctx.usage);
  const bool fits = workload_fits(ctx, true);
  ctx.cq->add_usage(ctx.usage);
  return fits;
}

bool Preemptor::take(const Context& ctx, const WorkloadInfo& wl, std::string_view reason,
                     std::vector<PreemptionTarget>& targets) {
  remove_workload(wl.key);
  targets.push_back(PreemptionTarget{wl.key, std::string(reason), wl.cluster_queue});
  return fits_for_fair_sharing(ctx);
}

bool Preemptor::first_fair_strategy(const Context& ctx,
                                    const std::vector<const WorkloadInfo*>& candidates,
                                    KueuePreemptionStrategy strategy,
                                    std::vector<PreemptionTarget>& targets,
                                    std::vector<const WorkloadInfo*>& retry) {
  // runFirstFsStrategy.
  FairPreemptionTargets ordering(*ctx.cq, candidates, now_);
  // queueWithinNominalInResourcesNeedingPreemption (with the preemptor's usage): within nominal,
  // the queue reclaims whatever its shares say.
  const bool within_nominal =
      config_.gate("FairSharingPreemptWithinNominal", true) &&
      std::none_of(ctx.frs_need_preemption.begin(), ctx.frs_need_preemption.end(),
                   [&](const FlavorResource& fr) { return ctx.cq->borrowing_with(fr, Amount()); });
  while (ClusterQueueNode* target = ordering.next()) {
    if (target == ctx.cq) {
      if (take(ctx, *ordering.pop_workload(*target), kInClusterQueueReason, targets)) return true;
      continue;
    }
    if (within_nominal) {
      if (take(ctx, *ordering.pop_workload(*target), kInCohortReclamationReason, targets))
        return true;
      continue;
    }
    const auto [preemptor_new, target_old] = ordering.compute_shares(*target);
    // fsStrategyUnsatisfiable: a preemptor of weight 0 that borrows passes neither strategy
    // against a target that does not; its candidates are kept for the second strategy.
    if (std::isinf(preemptor_new.precise_weighted_share()) &&
        !std::isinf(target_old.precise_weighted_share())) {
      while (ordering.has_workload(*target)) retry.push_back(ordering.pop_workload(*target));
      continue;
    }
    while (ordering.has_workload(*target)) {
      const WorkloadInfo* wl = ordering.pop_workload(*target);
      const Drs target_new = ordering.target_share_after_removal(*target, *wl);
      const bool passed = strategy == KueuePreemptionStrategy::LessThanOrEqualToFinalShare
                              ? compare_drs(preemptor_new, target_new) <= 0
                              : compare_drs(preemptor_new, target_old) < 0;
      if (!passed) {
        retry.push_back(wl);
        continue;
      }
      if (take(ctx, *wl, kInCohortFairSharingReason, targets)) return true;
      break;  // the shares changed: the next target may be another queue
    }
  }
  return false;
}

bool Preemptor::second_fair_strategy(const Context& ctx,
                                     const std::vector<const WorkloadInfo*>& retry,
                                     std::vector<PreemptionTarget>& targets) {
  // runSecondFsStrategy (rule S2-b, LessThanInitialShare): at most one workload per queue.
  FairPreemptionTargets ordering(*ctx.cq, retry, now_);
  while (ClusterQueueNode* target = ordering.next()) {
    const auto [preemptor_new, target_old] = ordering.compute_shares(*target);
    const WorkloadInfo* wl = ordering.pop_workload(*target);
    if (compare_drs(preemptor_new, target_old) < 0 &&
        take(ctx, *wl, kInCohortFairSharingReason, targets))
      return true;
    ordering.drop_queue(*target);
  }
  return false;
}

std::vector<PreemptionTarget> Preemptor::fair_preemptions(const Context& ctx) {
  const std::vector<const WorkloadInfo*> candidates = fair_candidates(ctx);
  if (candidates.empty()) return {};
  // parseStrategies: none given (a Configuration always gives some) reads as both.
  std::vector<KueuePreemptionStrategy> strategies = config_.fair_sharing->preemption_strategies;
  if (strategies.empty())
    strategies = {KueuePreemptionStrategy::LessThanOrEqualToFinalShare,
                  KueuePreemptionStrategy::LessThanInitialShare};
  // The shares count the incoming workload.
  ctx.cq->add_usage(ctx.usage);
  std::vector<PreemptionTarget> targets;
  std::vector<const WorkloadInfo*> retry;
  bool fits = first_fair_strategy(ctx, candidates, strategies.front(), targets, retry);
  if (!fits && strategies.size() > 1) fits = second_fair_strategy(ctx, retry, targets);
  ctx.cq->remove_usage(ctx.usage);
  if (fits) fill_back(ctx, targets, true);
  for (const PreemptionTarget& t : targets) add_workload(t.key);
  if (!fits) return {};
  return targets;
}

std::vector<PreemptionTarget> Preemptor::classical_preemptions(const Context& ctx) {
  const std::function<const WorkloadInfo&(const std::string&)> info_of =
      [this](const std::string& key) -> const WorkloadInfo& { return info(key); };
  const CandidateGenerator generator(*ctx.preemptor, *ctx.cq, ctx.frs_need_preemption, ctx.usage,
                                     config_, info_of, now_);
  const bool forbidden = borrowing_forbidden(*ctx.cq).first;
  // queueUnderNominalInResourcesNeedingPreemption: usage strictly below nominal in each.
  const bool under_nominal =
      std::all_of(ctx.frs_need_preemption.begin(), ctx.frs_need_preemption.end(),
                  [&](const FlavorResource& fr) {
                    return ctx.cq->resources.used(fr) < ctx.cq->quota_for(fr).nominal;
                  });
  // Which borrowing options to try, in Kueue's order (kept for compatibility upstream).
  std::vector<bool> attempts;
  if (generator.no_candidate_from_other_queues || (forbidden && !under_nominal)) {
    attempts = {true};
  } else if (forbidden && generator.no_candidate_for_hierarchical_reclaim) {
    attempts = {false, true};
  } else {
    attempts = {true, false};
  }
  for (const bool borrowing : attempts) {
    std::vector<PreemptionTarget> targets;
    for (const Candidate& c : generator.candidates()) {
      if (!generator.valid(c, borrowing, *snapshot_.cluster_queue(c.wl->cluster_queue))) continue;
      remove_workload(c.wl->key);
      targets.push_back(
          PreemptionTarget{c.wl->key, std::string(reason_of(c.variant)), c.wl->cluster_queue});
      if (!workload_fits(ctx, borrowing)) continue;
      fill_back(ctx, targets, borrowing);
      for (const PreemptionTarget& t : targets) add_workload(t.key);
      return targets;
    }
    for (const PreemptionTarget& t : targets) add_workload(t.key);
  }
  return {};
}

std::vector<PreemptionTarget> Preemptor::preemptions(const Context& ctx) {
  return config_.fair_sharing ? fair_preemptions(ctx) : classical_preemptions(ctx);
}

std::vector<PreemptionTarget> Preemptor::get_targets(const WorkloadInfo& wl,
                                                     const Assignment& assignment) {
  Context ctx;
  ctx.preemptor = &wl;
  ctx.cq = snapshot_.cluster_queue(wl.cluster_queue);
  // flavorResourcesNeedPreemption.
  for (const PodSetFlavors& ps : assignment.pod_sets) {
    for (const auto& [resource, flavor] : ps.flavors) {
      if (flavor.mode == AssignmentMode::Preempt)
        ctx.frs_need_preemption.insert({flavor.name, resource});
    }
  }
  ctx.usage = assignment.usage;
  return preemptions(ctx);
}

std::pair<PreemptionPossibility, int> Preemptor::simulate_preemption(const ClusterQueueNode& cq,
                                                                     const WorkloadInfo& wl,
                                                                     const FlavorResource& fr,
                                                                     Amount quantity) {
  Context ctx;
  ctx.preemptor = &wl;
  ctx.cq = snapshot_.cluster_queue(wl.cluster_queue);
  ctx.frs_need_preemption = {fr};
  ctx.usage = {{fr, quantity}};
  const std::vector<PreemptionTarget> targets = preemptions(ctx);
  if (targets.empty())
    return {PreemptionPossibility::NoCandidates,
            height_of_lowest_subtree_that_fits(cq, fr, quantity).first};
  std::vector<std::string> keys;
  for (const PreemptionTarget& t : targets) keys.push_back(t.key);
  remove_usage_of(keys);
  const int borrow = height_of_lowest_subtree_that_fits(cq, fr, quantity).first;
  add_usage_of(keys);
  const bool in_own_queue = std::any_of(targets.begin(), targets.end(),
                                        [&](const auto& t) { return t.cluster_queue == cq.name; });
  return {in_own_queue ? PreemptionPossibility::Preempt : PreemptionPossibility::Reclaim, borrow};
}

std::string preemption_message(const Workload& preemptor, std::string_view reason,
                               const std::string& preemptor_path,
                               const std::string& preemptee_path) {
  auto job_uid = preemptor.metadata.labels->find(kJobUidLabel);
  return "Preempted to accommodate a workload (UID: " + or_unknown(preemptor.metadata.uid) +
         ", JobUID: " +
         or_unknown(job_uid == preemptor.metadata.labels->end() ? "" : job_uid->second) +
         ") due to " + std::string(human_reason(reason)) +
         "; preemptor path: " + or_unknown(preemptor_path) +
         "; preemptee path: " + or_unknown(preemptee_path);
}

std::string cluster_queue_path(const ClusterQueueNode& cq) {
  std::vector<std::string> parts{cq.name};
  for (const CohortNode* node = cq.parent; node != nullptr; node = node->parent)
    parts.push_back(node->name);
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += "/" + *it;
  return out;
}

}  // namespace gpusched::kueue
