#include "kueue/flavor_assigner.hpp"

#include <algorithm>
#include <climits>
#include <set>

namespace gpusched::kueue {

namespace {

// flavorassigner.go's preemptionMode: how a flavor could be assigned, least preferred first.
enum class PreemptionMode : std::uint8_t { NoFit, NoPreemptionCandidates, Preempt, Reclaim, Fit };

// granularMode: the preemption mode with the borrowing level it needs.
struct GranularMode {
  PreemptionMode preemption = PreemptionMode::NoFit;
  int borrowing_level = INT_MAX;
};

constexpr GranularMode kWorstMode{PreemptionMode::NoFit, INT_MAX};
constexpr GranularMode kBestMode{PreemptionMode::Fit, 0};

// isPreferred: whether `a` is better than `b` under the ClusterQueue's flavorFungibility.
bool is_preferred(const GranularMode& a, const GranularMode& b, const FlavorFungibility& f) {
  if (a.preemption == PreemptionMode::NoFit) return false;
  if (b.preemption == PreemptionMode::NoFit) return true;
  // A flavor without preemption candidates cannot be admitted now: below every viable mode.
  const bool a_none = a.preemption == PreemptionMode::NoPreemptionCandidates;
  const bool b_none = b.preemption == PreemptionMode::NoPreemptionCandidates;
  if (a_none != b_none) return !a_none;
  const auto borrowing_over_preemption = [&] {
    if (a.preemption != b.preemption) return a.preemption > b.preemption;
    return a.borrowing_level < b.borrowing_level;
  };
  const auto preemption_over_borrowing = [&] {
    if (a.borrowing_level != b.borrowing_level) return a.borrowing_level < b.borrowing_level;
    return a.preemption > b.preemption;
  };
  if (f.preference == FlavorFungibilityPreference::PreemptionOverBorrowing)
    return preemption_over_borrowing();
  return borrowing_over_preemption();
}

AssignmentMode to_assignment_mode(PreemptionMode mode) {
  switch (mode) {
    case PreemptionMode::NoFit:
      return AssignmentMode::NoFit;
    case PreemptionMode::NoPreemptionCandidates:
    case PreemptionMode::Preempt:
    case PreemptionMode::Reclaim:
      return AssignmentMode::Preempt;
    case PreemptionMode::Fit:
      return AssignmentMode::Fit;
  }
  return AssignmentMode::NoFit;
}

std::optional<PreemptionPossibility> possibility_of(PreemptionMode mode) {
  switch (mode) {
    case PreemptionMode::NoPreemptionCandidates:
      return PreemptionPossibility::NoCandidates;
    case PreemptionMode::Preempt:
      return PreemptionPossibility::Preempt;
    case PreemptionMode::Reclaim:
      return PreemptionPossibility::Reclaim;
    default:
      return std::nullopt;
  }
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

using Attempts = std::map<std::string, FlavorAttempt>;  // by flavor

// mergeFlavorAttempts: the worst mode, the largest borrow, the least preemption possibility and
// every reason of the attempts at one flavor.
void merge_attempts(Attempts& dst, const std::vector<FlavorAttempt>& src) {
  for (const FlavorAttempt& at : src) {
    auto it = dst.find(at.flavor);
    if (it == dst.end()) {
      FlavorAttempt copy = at;
      copy.reasons = sorted_unique(copy.reasons);
      dst.emplace(at.flavor, std::move(copy));
      continue;
    }
    FlavorAttempt& existing = it->second;
    existing.mode = std::min(existing.mode, at.mode);
    existing.borrow = std::max(existing.borrow, at.borrow);
    if (at.preemption && (!existing.preemption || *at.preemption < *existing.preemption))
      existing.preemption = at.preemption;
    std::vector<std::string> reasons = existing.reasons;
    reasons.insert(reasons.end(), at.reasons.begin(), at.reasons.end());
    existing.reasons = sorted_unique(std::move(reasons));
  }
}

// mergeFlavorAttemptsForResource: a flavor of the resource's group that the search did not
// consider for this resource does not provide it.
void merge_attempts_for_resource(Attempts& dst, const std::vector<FlavorAttempt>& src,
                                 const std::string& resource, const ClusterQueueNode& cq) {
  merge_attempts(dst, src);
  if (src.empty()) return;
  const ResourceGroupInfo* group = cq.group_of(resource);
  if (group == nullptr) return;
  for (auto& entry : dst) {
    const std::string& flavor = entry.first;
    FlavorAttempt& at = entry.second;
    if (std::find(group->flavors.begin(), group->flavors.end(), flavor) == group->flavors.end())
      continue;
    // (Not a structured binding: clang before 16 cannot capture one in a lambda.)
    const bool present = std::any_of(src.begin(), src.end(),
                                     [&](const FlavorAttempt& a) { return a.flavor == flavor; });
    if (present) continue;
    at.mode = AssignmentMode::NoFit;
    at.reasons.push_back("flavor " + flavor + " does not provide resource " + resource);
    at.reasons = sorted_unique(std::move(at.reasons));
  }
}

PreemptionMode from_possibility(PreemptionPossibility p) {
  switch (p) {
    case PreemptionPossibility::NoCandidates:
      return PreemptionMode::NoPreemptionCandidates;
    case PreemptionPossibility::Preempt:
      return PreemptionMode::Preempt;
    case PreemptionPossibility::Reclaim:
      return PreemptionMode::Reclaim;
  }
  return PreemptionMode::NoPreemptionCandidates;
}

// shouldTryNextFlavor.
bool should_try_next_flavor(const GranularMode& mode, const FlavorFungibility& f) {
  if (mode.preemption == PreemptionMode::NoFit ||
      mode.preemption == PreemptionMode::NoPreemptionCandidates)
    return true;
  const bool preempt_mode =
      mode.preemption == PreemptionMode::Preempt || mode.preemption == PreemptionMode::Reclaim;
  if (preempt_mode && f.when_can_preempt == FlavorFungibilityPolicy::TryNextFlavor) return true;
  if (mode.borrowing_level != 0 && f.when_can_borrow == FlavorFungibilityPolicy::TryNextFlavor)
    return true;
  return false;
}

// hash/fnv New64a.
std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

class Assigner {
 public:
  Assigner(const WorkloadInfo& wl, const AssignerContext& ctx) : wl_(wl), ctx_(ctx), cq_(*ctx.cq) {}

  Assignment assign() {
    Assignment assignment;
    assignment.last_state.cluster_queue_generation = cq_.allocatable_generation;
    assignment.last_state.scheduling_cycle = ctx_.scheduling_cycle;
    for (std::size_t i = 0; i < wl_.total_requests.size(); ++i) {
      Requests requests = wl_.total_requests[i].requests;
      if (cq_.group_of("pods") != nullptr) requests["pods"] = wl_.total_requests[i].count;
      PodSetFlavors ps;
      ps.name = wl_.total_requests[i].name;
      ps.requests = requests;
      ps.count = wl_.total_requests[i].count;

      // Each pod set is a group of its own (no TAS pod set groups).
      std::map<std::string, FlavorAssignment> group_flavors;
      AssignStatus group_status;
      Attempts considered;
      for (const auto& [resource, quantity] : resource_order(requests)) {
        // Zero requests of resources the ClusterQueue does not declare need no flavor (#8079).
        if (cq_.group_of(resource) == nullptr && quantity == 0) continue;
        if (group_flavors.contains(resource)) continue;
        std::vector<FlavorAttempt> attempts;
        auto [flavors, status] = find_flavor(i, requests, resource, assignment.usage, attempts);
        merge_attempts_for_resource(considered, attempts, resource, cq_);
        if (flavors.empty() && !requests.empty()) {
          group_flavors.clear();
          group_status = std::move(status);
          break;
        }
        for (auto& [r, f] : flavors) group_flavors[r] = f;
        group_status.reasons.insert(group_status.reasons.end(), status.reasons.begin(),
                                    status.reasons.end());
      }
      // resolvePodSetFlavors: the group's flavors of the resources this pod set requests.
      for (auto& [r, f] : group_flavors) {
        if (requests.contains(r)) ps.flavors[r] = f;
      }
      ps.status = std::move(group_status);
      for (auto& [flavor, at] : considered) ps.attempts.push_back(std::move(at));
      // assignFlavors' atLeastOnePodsAssignmentFailed: a pod set that requests something but
      // got no flavor ends the assignment, also when every request was a zero of a resource
      // the ClusterQueue does not declare (skipped above); later pod sets are left out.
      const bool failed = !requests.empty() && ps.flavors.empty();
      append(assignment, requests, std::move(ps));
      if (failed) return assignment;
    }
    return assignment;
  }

 private:
  // Assignment.append: the pod set's usage under its flavors, its borrowing and scan progress.
  static void append(Assignment& a, const Requests& requests, PodSetFlavors ps) {
    std::map<std::string, int> flavor_idx;
    for (const auto& [resource, f] : ps.flavors) {
      a.borrowing = std::max(a.borrowing, f.borrow);
      auto it = requests.find(resource);
      const std::int64_t value = it == requests.end() ? 0 : it->second;
      Amount& slot = a.usage[{f.name, resource}];
      slot = slot + Amount(value);
      flavor_idx[resource] = f.tried_flavor_idx;
    }
    a.last_state.last_tried_flavor_idx.push_back(std::move(flavor_idx));
    a.pod_sets.push_back(std::move(ps));
  }

  // findFlavorForPodSets.
  std::pair<std::map<std::string, FlavorAssignment>, AssignStatus> find_flavor(
      std::size_t ps_index, const Requests& all_requests, const std::string& res_name,
      const FlavorResourceAmounts& assignment_usage, std::vector<FlavorAttempt>& attempts) {
    AssignStatus status;
    const ResourceGroupInfo* group = cq_.group_of(res_name);
    if (group == nullptr) {
      status.reasons.push_back("resource " + res_name + " unavailable in ClusterQueue");
      return {{}, status};
    }
    Requests requests;
    for (const auto& [r, v] : all_requests) {
      if (group->covered_resources.contains(r)) requests[r] = v;
    }
    std::map<std::string, FlavorAssignment> best;
    GranularMode best_mode = kWorstMode;
    int attempted_idx = -1;
    const int count = static_cast<int>(group->flavors.size());
    int idx = wl_.last_assignment ? wl_.last_assignment->next_flavor_to_try(ps_index, res_name) : 0;
    for (; idx < count; ++idx) {
      attempted_idx = idx;
      const std::string& flavor = group->flavors[static_cast<std::size_t>(idx)];
      if (auto reason = check_flavor(flavor, ps_index)) {
        status.reasons.push_back(*reason);
        attempts.push_back(
            FlavorAttempt{flavor, AssignmentMode::NoFit, 0, std::nullopt, {*reason}});
        continue;
      }
      std::map<std::string, FlavorAssignment> assignments;
      GranularMode representative = kBestMode;
      int max_borrow = 0;
      AssignStatus flavor_status;
      for (const auto& [r, val] : resource_order(requests)) {
        const FlavorResource fr{flavor, r};
        auto used = assignment_usage.find(fr);
        auto [mode, borrow] = fits_resource_quota(
            fr, used == assignment_usage.end() ? Amount() : used->second, val, flavor_status);
        max_borrow = std::max(max_borrow, borrow);
        const GranularMode granular{mode, borrow};
        if (is_preferred(representative, granular, cq_.flavor_fungibility))
          representative = granular;
        if (representative.preemption == PreemptionMode::NoFit) continue;
        assignments[r] = FlavorAssignment{flavor, to_assignment_mode(mode), 0, borrow};
      }
      status.reasons.insert(status.reasons.end(), flavor_status.reasons.begin(),
                            flavor_status.reasons.end());
      attempts.push_back(FlavorAttempt{flavor, to_assignment_mode(representative.preemption),
                                       max_borrow, possibility_of(representative.preemption),
                                       sorted_unique(flavor_status.reasons)});
      if (!should_try_next_flavor(representative, cq_.flavor_fungibility)) {
        best = std::move(assignments);
        best_mode = representative;
        break;
      }
      if (is_preferred(representative, best_mode, cq_.flavor_fungibility)) {
        best = std::move(assignments);
        best_mode = representative;
      }
    }
    for (auto& [r, f] : best) f.tried_flavor_idx = attempted_idx == count - 1 ? -1 : attempted_idx;
    if (best_mode.preemption == PreemptionMode::Fit) return {best, AssignStatus{}};
    return {best, status};
  }

  // checkFlavorForPodSets: nullopt when the pods tolerate the flavor's taints and their node
  // selector and required affinity (on the flavor's label keys) match its labels.
  std::optional<std::string> check_flavor(const std::string& flavor_name,
                                          std::size_t ps_index) const {
    auto it = ctx_.flavors->find(flavor_name);
    if (it == ctx_.flavors->end()) return "flavor " + flavor_name + " not found";
    const ResourceFlavor& flavor = it->second;
    const PodSpec& spec = wl_.obj->pod_sets[ps_index].template_.spec;
    // corev1helpers.FindMatchingUntoleratedTaint over NoSchedule and NoExecute taints, with the
    // pod's tolerations and the flavor's.
    for (const Taint& taint : flavor.node_taints) {
      if (taint.effect != TaintEffect::NoSchedule && taint.effect != TaintEffect::NoExecute)
        continue;
      const auto tolerated = [&](const std::vector<Toleration>& tolerations) {
        return std::any_of(tolerations.begin(), tolerations.end(),
                           [&](const Toleration& t) { return t.tolerates(taint); });
      };
      // flavorassigner.go checkFlavorForPodSets: appendf("untolerated taint %s in flavor %s",
      // taint, ...) formats the corev1.Taint struct (it has no String method) with Go's %v
      // layout: {Key Value Effect TimeAdded}, and a ResourceFlavor's taint has no timeAdded.
      if (!tolerated(spec.tolerations) && !tolerated(flavor.tolerations))
        return "untolerated taint {" + taint.key + " " + taint.value + " " +
               std::string(to_string(taint.effect)) + " <nil>} in flavor " + flavor_name;
    }
    if (!flavor_selector_matches(spec, flavor.node_labels))
      return "flavor " + flavor_name + " doesn't match node affinity";
    return std::nullopt;
  }

  // flavorSelector then RequiredNodeAffinity.Match against a node carrying the flavor's labels:
  // only the requirements on the flavor's own label keys count; a required term left empty
  // makes the affinity match any flavor.
  static bool flavor_selector_matches(const PodSpec& spec, const Labels& labels) {
    for (const auto& [key, value] : *spec.node_selector) {
      if (!labels->contains(key)) continue;
      if (labels->at(key) != value) return false;
    }
    const std::optional<NodeAffinity>& node_affinity = spec.affinity->node_affinity;
    if (!node_affinity || !node_affinity->required) return true;
    std::vector<std::vector<SelectorRequirement>> terms;
    for (const NodeSelectorTerm& term : *node_affinity->required) {
      std::vector<SelectorRequirement> kept;
      for (const SelectorRequirement& req : term.match_expressions) {
        if (labels->contains(req.key)) kept.push_back(req);
      }
      if (kept.empty()) return true;
      terms.push_back(std::move(kept));
    }
    if (terms.empty()) return true;
    return std::any_of(terms.begin(), terms.end(), [&](const auto& reqs) {
      return std::all_of(reqs.begin(), reqs.end(), [&](const SelectorRequirement& r) {
        return node_requirement_matches(r, labels);
      });
    });
  }

  // fitsResourceQuota: how `fr` could hold `request` on top of the pod sets already assigned.
  std::pair<PreemptionMode, int> fits_resource_quota(const FlavorResource& fr, Amount assumed,
                                                     std::int64_t request, AssignStatus& status) {
    const Amount available = cq_.available(fr);
    const Amount max_capacity = potential_available(cq_, fr);
    const Amount val = assumed + Amount(request);
    if (val > max_capacity) {
      status.reasons.push_back(
          "insufficient quota for " + fr.resource + " in flavor " + fr.flavor +
          ", previously considered podsets requests (" + amount_text(fr.resource, assumed) +
          ") + current podset request (" + amount_text(fr.resource, Amount(request)) +
          ") > maximum capacity (" + amount_text(fr.resource, max_capacity) + ")");
      return {PreemptionMode::NoFit, 0};
    }
    const auto [borrow, may_reclaim_in_hierarchy] =
        height_of_lowest_subtree_that_fits(cq_, fr, val);
    if (val <= available) return {PreemptionMode::Fit, borrow};
    status.reasons.push_back("insufficient unused quota for " + fr.resource + " in flavor " +
                             fr.flavor + ", " + amount_text(fr.resource, val - available) +
                             " more needed");
    if (cq_.quota_for(fr).nominal >= val || may_reclaim_in_hierarchy ||
        can_preempt_while_borrowing()) {
      const auto [possibility, borrow_after] = ctx_.oracle->simulate_preemption(cq_, wl_, fr, val);
      return {from_possibility(possibility), borrow_after};
    }
    return {PreemptionMode::NoFit, borrow};
  }

  bool can_preempt_while_borrowing() const {
    return cq_.preemption.borrow_within_cohort.policy != BorrowWithinCohortPolicy::Never ||
           (ctx_.enable_fair_sharing &&
            cq_.preemption.reclaim_within_cohort != PreemptionPolicy::Never);
  }

  const WorkloadInfo& wl_;
  const AssignerContext& ctx_;
  ClusterQueueNode& cq_;
};

}  // namespace

std::string AssignStatus::message() const {
  std::vector<std::string> sorted = reasons;
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const std::string& r : sorted) {
    if (!out.empty()) out += ", ";
    out += r;
  }
  return out;
}

AssignmentMode PodSetFlavors::representative_mode() const {
  if (status.is_fit()) return AssignmentMode::Fit;
  if (flavors.empty()) return AssignmentMode::NoFit;
  AssignmentMode mode = AssignmentMode::Fit;
  for (const auto& [r, f] : flavors) mode = std::min(mode, f.mode);
  return mode;
}

AssignmentMode Assignment::representative_mode() const {
  if (pod_sets.empty()) return AssignmentMode::NoFit;
  if (mode_override) return *mode_override;
  AssignmentMode mode = AssignmentMode::Fit;
  for (const PodSetFlavors& ps : pod_sets) mode = std::min(mode, ps.representative_mode());
  return mode;
}

std::string Assignment::message() const {
  std::string out;
  for (const PodSetFlavors& ps : pod_sets) {
    if (ps.status.is_fit()) continue;
    if (!out.empty()) out += "; ";
    out += "couldn't assign flavors to pod set " + ps.name + ": " + ps.status.message();
  }
  return out;
}

std::vector<PodSetAssignment> Assignment::to_api() const {
  std::vector<PodSetAssignment> out;
  for (const PodSetFlavors& ps : pod_sets) {
    PodSetAssignment psa;
    psa.name = ps.name;
    psa.count = ps.count;
    for (const auto& [resource, f] : ps.flavors) {
      psa.flavors[resource] = f.name;
      auto it = ps.requests.find(resource);
      psa.resource_usage[resource] =
          amount_quantity(resource, Amount(it == ps.requests.end() ? 0 : it->second));
    }
    out.push_back(std::move(psa));
  }
  return out;
}

namespace {

std::string_view mode_name(AssignmentMode mode) {
  switch (mode) {
    case AssignmentMode::NoFit:
      return "NoFit";
    case AssignmentMode::Preempt:
      return "Preempt";
    case AssignmentMode::DeferredFit:
      return "DeferredFit";
    case AssignmentMode::Fit:
      return "Fit";
  }
  return "Unknown";
}

std::string_view possibility_name(PreemptionPossibility p) {
  switch (p) {
    case PreemptionPossibility::NoCandidates:
      return "NoCandidates";
    case PreemptionPossibility::Preempt:
      return "Preempt";
    case PreemptionPossibility::Reclaim:
      return "Reclaim";
  }
  return "Unknown";
}

}  // namespace

std::string format_attempts_for_events(const Assignment& assignment) {
  std::string out;
  for (const PodSetFlavors& ps : assignment.pod_sets) {
    std::string attempts;
    for (const FlavorAttempt& at : ps.attempts) {
      if (at.mode == AssignmentMode::Fit && at.borrow == 0) continue;
      if (!attempts.empty()) attempts += ", ";
      attempts += at.flavor + "(";
      if (at.preemption) {
        attempts += "preemptionMode=" + std::string(possibility_name(*at.preemption));
      } else {
        attempts += mode_name(at.mode);
      }
      if (at.borrow > 0) attempts += ";borrow=" + std::to_string(at.borrow);
      for (std::size_t i = 0; i < at.reasons.size(); ++i) attempts += ";" + at.reasons[i];
      attempts += ")";
    }
    if (attempts.empty()) continue;
    if (!out.empty()) out += " | ";
    out += ps.name + ": " + attempts;
  }
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> resource_order(const Requests& requests) {
  std::vector<std::pair<std::string, std::int64_t>> out(requests.begin(), requests.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const std::uint64_t ha = fnv1a64(a.first);
    const std::uint64_t hb = fnv1a64(b.first);
    if (ha != hb) return ha < hb;
    return a.first < b.first;
  });
  return out;
}

Assignment assign_flavors(const WorkloadInfo& wl, const AssignerContext& ctx) {
  return Assigner(wl, ctx).assign();
}

}  // namespace gpusched::kueue
