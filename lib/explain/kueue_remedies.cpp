// Remedies for a Workload Kueue has not admitted, each a change to its ClusterQueue applied at
// the instant explained and verified by replaying the scenario with it: the pods the Job creates
// when Kueue admits it must all get a node sooner than without the change (or at all). The
// smallest changes come first: a flavor's nominal quota raised by what is missing, its borrowing
// limit raised by as much, then a flavor the ClusterQueue does not have yet.
#include <algorithm>
#include <map>
#include <set>

#include "explain/kueue_parts.hpp"
#include "gpusched/error.hpp"
#include "kueue/amount.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::explain_detail {
namespace {

// Where the change a remedy makes is said to come from, in messages about it.
constexpr std::string_view kPointer = "/explain/remedy";
// Most flavors tried as an addition: each costs a replay.
constexpr std::size_t kMostFlavorsAdded = 4;

// How the explained Workload fared in a replay: when its quota was first reserved, and when
// the pods its Job created at that instant had all been bound (nullopt: not all were).
struct Outcome {
  std::optional<TimeMs> reserved;
  std::optional<TimeMs> running;
  std::string nodes;  ///< where those pods run, ", "-joined in name order
};

bool owned_by(const Pod& pod, const std::string& job) {
  return std::any_of(pod.metadata.owner_references->begin(), pod.metadata.owner_references->end(),
                     [&](const OwnerReference& o) {
                       return o.kind == "Job" && pod.metadata.namespace_ + "/" + o.name == job;
                     });
}

Outcome outcome(const SimulationResult& result, const KueueExplanation& e) {
  Outcome out;
  std::string workload = e.workload;
  for (const WorkloadRecord& r : result.workloads) {
    // A Job's Workload is found by its owner: its name is the one the explained replay gave it.
    if (!e.job.empty() && r.owner == "Job/" + e.job) workload = r.namespace_ + "/" + r.name;
  }
  for (const QuotaSpan& span : result.quota_spans) {
    if (span.workload == workload && span.reserved) {
      out.reserved = span.reserved;
      break;
    }
  }
  if (!out.reserved || e.job.empty()) return out;
  // Evicted since (waitForPodsReady's timeout, a preemption): its pods were deleted, so those
  // left do not say the Job ran.
  for (const WorkloadRecord& r : result.workloads) {
    if (r.namespace_ + "/" + r.name != workload) continue;
    for (const kueue::Condition& c : r.conditions) {
      if (c.type == "Evicted") return out;
    }
  }
  // The pods its Job created when it was admitted: all bound, the Job runs.
  TimeMs last = *out.reserved;
  std::set<std::string> nodes;
  bool any = false;
  for (const PodRecord& pod : result.pods) {
    if (!owned_by(pod.pod, e.job) || pod.created != out.reserved) continue;
    if (!pod.scheduled) return out;
    any = true;
    last = std::max(last, *pod.scheduled);
    nodes.insert(pod.pod.spec.node_name);
  }
  if (!any) return out;
  out.running = last;
  for (const std::string& node : nodes) out.nodes += (out.nodes.empty() ? "" : ", ") + node;
  return out;
}

class KueueRemedies {
 public:
  KueueRemedies(const Scenario& scenario, const KueueState& state, const KueueExplanation& e,
                const SimulationOptions& options)
      : scenario_(scenario), state_(state), e_(e), options_(options) {
    options_.observer = {};
    options_.progress = nullptr;
    options_.until.reset();
    for (const kueue::PodSetResources& pod_set :
         kueue::make_info(state.workloads.at(e.workload), e.workload).total_requests) {
      for (const auto& [resource, amount] : pod_set.requests)
        requested_[{pod_set.name, resource}] = kueue::Amount(amount);
    }
  }

  std::vector<Remedy> find() {
    auto cq = state_.cluster_queues.find(e_.cluster_queue);
    if (cq == state_.cluster_queues.end()) return {};
    raise_quota(cq->second, /*borrowing=*/false);
    raise_quota(cq->second, /*borrowing=*/true);
    add_flavor(cq->second);
    return std::move(out_);
  }

 private:
  // A flavor the assigner refused only for quota: more quota there is what it lacks.
  static bool quota_only(const KueueFlavorQuota& f) {
    return !f.reasons.empty() && std::all_of(f.reasons.begin(), f.reasons.end(), [](const auto& r) {
      return r.starts_with("insufficient unused quota for ") ||
             r.starts_with("insufficient quota for ");
    });
  }

  // For each flavor refused only for quota, in the ClusterQueue's order: its nominal quota (or,
  // with `borrowing`, its borrowing limit) raised by what is missing for every resource short.
  void raise_quota(const kueue::ClusterQueue& cq, bool borrowing) {
    if (borrowing && cq.cohort_name.empty()) return;  // nothing to borrow from
    const kueue::QuotaTree tree = quota_tree(state_);
    const kueue::ClusterQueueNode* node = tree.cluster_queue(cq.metadata.name);
    if (node == nullptr) return;
    std::vector<std::string> flavors;  // refused only for quota, in the queue's order
    for (const KueueResourceQuota& row : e_.quota) {
      for (const KueueFlavorQuota& f : row.flavors) {
        if (quota_only(f) && std::find(flavors.begin(), flavors.end(), f.flavor) == flavors.end())
          flavors.push_back(f.flavor);
      }
    }
    for (const std::string& flavor : flavors) {
      kueue::ClusterQueue changed = cq;
      std::vector<std::string> words;
      for (const KueueResourceQuota& row : e_.quota) {
        const kueue::FlavorResource fr{flavor, row.resource};
        const kueue::Amount requested = requested_of(row);
        const kueue::Amount missing = requested - node->available(fr);
        if (missing <= kueue::Amount()) continue;
        kueue::ResourceQuota* quota = quota_of(changed, flavor, row.resource);
        if (quota == nullptr) continue;
        const std::string& r = row.resource;
        if (borrowing) {
          // Only a limit stops borrowing from the cohort; without one there is none to raise.
          if (!quota->borrowing_limit) continue;
          const kueue::Amount from = kueue::Amount::from_quantity(r, *quota->borrowing_limit);
          quota->borrowing_limit = kueue::amount_quantity(r, from + missing);
          words.push_back("borrowingLimit of " + r + " in flavor " + flavor + " from " +
                          kueue::amount_text(r, from) + " to " +
                          kueue::amount_text(r, from + missing));
        } else {
          const kueue::Amount from = kueue::Amount::from_quantity(r, quota->nominal_quota);
          quota->nominal_quota = kueue::amount_quantity(r, from + missing);
          words.push_back("nominalQuota of " + r + " in flavor " + flavor + " from " +
                          kueue::amount_text(r, from) + " to " +
                          kueue::amount_text(r, from + missing));
        }
      }
      if (words.empty()) continue;
      std::string change = "raise ClusterQueue " + cq.metadata.name + "'s ";
      for (std::size_t i = 0; i < words.size(); ++i)
        change += (i == 0 ? "" : (i + 1 == words.size() ? " and " : ", ")) + words[i];
      verify(std::move(changed), change);
    }
  }

  // A ResourceFlavor the ClusterQueue does not list, added last to the group covering the
  // Workload's resources with a nominal quota of its whole request for each covered resource.
  void add_flavor(const kueue::ClusterQueue& cq) {
    std::set<std::string> listed;
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& f : group.flavors) listed.insert(f.name);
    }
    std::size_t tried = 0;
    for (const auto& [name, flavor] : state_.resource_flavors) {
      if (listed.contains(name) || tried == kMostFlavorsAdded) continue;
      kueue::ClusterQueue changed = cq;
      std::set<std::size_t> groups;
      std::string words;
      for (const KueueResourceQuota& row : e_.quota) {
        for (std::size_t g = 0; g < changed.resource_groups.size(); ++g) {
          const auto& covered = changed.resource_groups[g].covered_resources;
          if (std::find(covered.begin(), covered.end(), row.resource) != covered.end())
            groups.insert(g);
        }
      }
      if (groups.empty()) return;
      for (std::size_t g : groups) {
        kueue::ResourceGroup& group = changed.resource_groups[g];
        kueue::FlavorQuotas added{name, {}};
        for (const std::string& resource : group.covered_resources) {
          kueue::Amount amount;
          for (const KueueResourceQuota& row : e_.quota) {
            if (row.resource == resource) amount = amount + requested_of(row);
          }
          added.resources.push_back(
              kueue::ResourceQuota{resource, kueue::amount_quantity(resource, amount), {}, {}});
          words +=
              (words.empty() ? "" : ", ") + resource + "=" + kueue::amount_text(resource, amount);
        }
        group.flavors.push_back(std::move(added));
      }
      ++tried;
      verify(std::move(changed), "add ResourceFlavor " + name + " to ClusterQueue " +
                                     cq.metadata.name + " with nominalQuota " + words);
    }
  }

  kueue::Amount requested_of(const KueueResourceQuota& row) const {
    auto it = requested_.find({row.pod_set, row.resource});
    return it == requested_.end() ? kueue::Amount() : it->second;
  }

  static kueue::ResourceQuota* quota_of(kueue::ClusterQueue& cq, const std::string& flavor,
                                        const std::string& resource) {
    for (kueue::ResourceGroup& group : cq.resource_groups) {
      for (kueue::FlavorQuotas& f : group.flavors) {
        if (f.name != flavor) continue;
        for (kueue::ResourceQuota& q : f.resources) {
          if (q.name == resource) return &q;
        }
      }
    }
    return nullptr;
  }

  // Replays the scenario with `cq` applied at the explained instant; keeps the remedy when the
  // pods of the Workload's admission all get a node sooner than without it (or at all).
  void verify(kueue::ClusterQueue cq, const std::string& change) {
    Scenario changed = without_expectations();
    Action apply;
    apply.at = e_.time;
    apply.verb = Verb::Apply;
    apply.pointer = std::string(kPointer);
    apply.objects.emplace_back(std::move(cq));
    changed.timeline.push_back(std::move(apply));
    Outcome with;
    try {
      with = outcome(simulate(changed, options_), e_);
    } catch (const InputError&) {
      return;  // a change the replay refuses is no remedy
    }
    const Outcome& without = baseline();
    // Quota sooner counts only when the pods run sooner too: nodes may be what they wait for.
    if (!with.running || (without.running && *with.running >= *without.running)) return;
    out_.push_back(Remedy{change, true, with.running, with.nodes, {}});
  }

  Scenario without_expectations() const {
    Scenario copy = scenario_;
    copy.expect.clear();
    return copy;
  }

  const Outcome& baseline() {
    if (!baseline_) baseline_ = outcome(simulate(without_expectations(), options_), e_);
    return *baseline_;
  }

  const Scenario& scenario_;
  const KueueState& state_;
  const KueueExplanation& e_;
  SimulationOptions options_;
  std::optional<Outcome> baseline_;
  std::vector<Remedy> out_;
  std::map<std::pair<std::string, std::string>, kueue::Amount> requested_;  // pod set, resource
};

}  // namespace

std::vector<Remedy> find_kueue_remedies(const Scenario& scenario, const KueueState& state,
                                        const KueueExplanation& explanation,
                                        const SimulationOptions& options) {
  return KueueRemedies(scenario, state, explanation, options).find();
}

}  // namespace gpusched::explain_detail
