#pragma once
// DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go).

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DefaultPreemption final : public PostFilterPlugin {
 public:
  static constexpr std::string_view kName = names::kDefaultPreemption;
  DefaultPreemption(Handle& handle, const DefaultPreemptionArgs& args);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Evaluator.Preempt: eligibility, candidate nodes (only those rejected as Unschedulable), a
  /// dry-run per node, the best candidate, then its victims are evicted and the pod nominated.
  /// Without a candidate: "preemption: 0/N nodes are available: ..." from the dry-run statuses.
  [[nodiscard]] PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                             const Diagnosis& diagnosis) override;

  /// A node where preemption would make room, and whom it would evict (most important first).
  struct Candidate {
    const NodeInfo* node = nullptr;
    std::vector<PodInfo*> victims;
    std::int64_t pdb_violations = 0;
  };
  /// PodEligibleToPreemptOthers: "" when eligible, else the reason.
  [[nodiscard]] std::string eligibility(const PodInfo& pod, const Diagnosis& diagnosis) const;
  /// SelectVictimsOnNode: Success with the victims, or the node's failing status (on Success,
  /// `status` holds whatever the last dry-run filter left).
  [[nodiscard]] Code select_victims(const CycleState& state, const PodInfo& pod,
                                    const NodeInfo& node, Candidate& candidate,
                                    Status& status) const;
  /// GetOffsetAndNumCandidates: a random start among `num_nodes` potential nodes, and how many
  /// candidates to look for (clamp(n * percentage / 100, absolute, n)).
  [[nodiscard]] std::pair<std::int64_t, std::int64_t> offset_and_num_candidates(
      std::int64_t num_nodes) const;
  /// DryRunPreemption: SelectVictimsOnNode on potential[(offset + i) % n] in turn, until there is
  /// a candidate without PDB violations and num_candidates in all. Candidates without violations
  /// come first; each of the two lists keeps at most num_candidates (newCandidateList). The
  /// statuses of rejected nodes go to `statuses`; a node that needs no victim is an error.
  [[nodiscard]] std::vector<Candidate> dry_run(const CycleState& state, const PodInfo& pod,
                                               const std::vector<const NodeInfo*>& potential,
                                               std::int64_t offset, std::int64_t num_candidates,
                                               Diagnosis& statuses,
                                               std::vector<std::string>& errors) const;
  /// pickOneNodeForPreemption, the last tie broken by the seeded random source.
  [[nodiscard]] const Candidate& pick_one(const std::vector<Candidate>& candidates) const;

 private:
  Handle& handle_;
  DefaultPreemptionArgs args_;
  StrId no_victims_;
  StrId not_helpful_;
  // select_victims' working state, kept to reuse its storage across the nodes of a dry-run.
  mutable std::vector<PodInfo*> potential_;
  mutable std::vector<PodInfo*> violating_;
  mutable std::vector<PodInfo*> non_violating_;
  mutable CycleState state_copy_;
  mutable NodeEditStorage edit_storage_;
  /// A victim search on a node as it stood at `version` (0: none): its code, the rejection when
  /// it failed, the victims when it succeeded.
  struct KeptSearch {
    std::uint64_t version = 0;
    Code code = Code::Success;
    Status status;
    std::vector<PodInfo*> victims;
  };
  /// The searches of the pods whose Filter key (Framework::append_node_filter_key, the priority
  /// included) is `pod`'s, by node slot; null when a search must run afresh on every node (the
  /// reference engine, budgets to weigh, a Filter plugin that keys nothing).
  [[nodiscard]] std::vector<KeptSearch>* kept_searches(const CycleState& state,
                                                       const PodInfo& pod) const;
  /// select_victims, or what it found for the node at its version when `kept` holds it.
  [[nodiscard]] Code kept_select_victims(const CycleState& state, const PodInfo& pod,
                                         const NodeInfo& node, std::vector<KeptSearch>* kept,
                                         Candidate& candidate, Status& status) const;
  /// Preemptors of a Job ask alike, and a dry-run's nodes mostly stand as the previous
  /// preemptor's dry-run found them.
  mutable std::unordered_map<std::string, std::vector<KeptSearch>> kept_searches_;
  mutable std::string search_key_;
};

}  // namespace gpusched::plugins
