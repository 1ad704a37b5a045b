// explain for a Kueue Workload: replays the scenario to the instant asked, then tells the quota
// story of the Workload as Kueue's cache and flavor assigner see it then (Kueue v0.19.2
// pkg/scheduler/flavorassigner/flavorassigner.go, pkg/cache/scheduler/clusterqueue_snapshot.go),
// and tries remedies (kueue_remedies.cpp).
#include <algorithm>

#include "explain/kueue_parts.hpp"
#include "gpusched/error.hpp"
#include "kueue/amount.hpp"
#include "kueue/flavor_assigner.hpp"
#include "kueue/preemptor.hpp"
#include "kueue/workload_info.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched {
namespace explain_detail {

kueue::QuotaTree quota_tree(const KueueState& state) {
  kueue::QuotaTree tree = kueue::QuotaTree::build(state.cluster_queues, state.cohorts);
  for (const auto& [key, wl] : state.workloads) {
    if (!kueue::has_quota_reservation(wl) || kueue::is_finished(wl) || !wl.admission) continue;
    if (kueue::ClusterQueueNode* cq = tree.cluster_queue(wl.admission->cluster_queue)) {
      cq->add_usage(kueue::make_info(wl, key).usage());
      cq->workloads.insert(key);
    }
  }
  return tree;
}

}  // namespace explain_detail

namespace {

// "Job/ns/name" or "Workload/ns/name" (a name alone is in "default", as kubectl reads it).
struct Named {
  std::string kind;
  std::string key;
};

Named parse_named(std::string_view object) {
  const auto slash = object.find('/');
  Named out{std::string(object.substr(0, slash)), {}};
  if (slash == std::string_view::npos || (out.kind != "Job" && out.kind != "Workload")) {
    throw InputError("object " + std::string(object), "",
                     "name a Kueue Workload as Job/NAMESPACE/NAME or Workload/NAMESPACE/NAME");
  }
  const std::string rest(object.substr(slash + 1));
  out.key = rest.find('/') == std::string::npos ? "default/" + rest : rest;
  return out;
}

// The record of the Workload `named` names, or InputError listing the Workloads there are.
const WorkloadRecord& find_workload(const std::vector<WorkloadRecord>& records, const Named& named,
                                    TimeMs now) {
  for (const WorkloadRecord& r : records) {
    if (named.kind == "Job" ? r.owner == "Job/" + named.key
                            : r.namespace_ + "/" + r.name == named.key)
      return r;
  }
  std::string known;
  for (const WorkloadRecord& r : records) {
    known += (known.empty() ? "" : ", ") + r.namespace_ + "/" + r.name +
             (r.owner.empty() ? "" : " (" + r.owner + ")");
  }
  throw InputError(named.kind + " " + named.key, "",
                   "no Kueue Workload " +
                       (named.kind == "Job" ? "for Job " + named.key : named.key) + " at " +
                       format_duration(now) +
                       (known.empty() ? " (there are none)" : "; Workloads then: " + known));
}

std::string text(const std::string& resource, kueue::Amount amount) {
  return kueue::amount_text(resource, amount);
}

// Per pod set and resource, every flavor of the ClusterQueue's group that covers it, as Kueue's
// flavor assigner weighs them now: its quotas, the queue's usage and what it can still take,
// and the assigner's own reasons (one fresh assignment, its scan started at the first flavor).
void quota_story(const KueueState& state, const KueueConfiguration& config, TimeMs now,
                 const kueue::Workload& wl, const std::string& key, KueueExplanation& e) {
  kueue::QuotaTree tree = explain_detail::quota_tree(state);
  kueue::ClusterQueueNode* cq = tree.cluster_queue(e.cluster_queue);
  if (cq == nullptr) return;
  kueue::WorkloadInfo info = kueue::make_info(wl, key);
  info.cluster_queue = e.cluster_queue;
  // Kueue's preemptor is the assigner's oracle, as in an admission cycle (scheduler.go).
  kueue::Preemptor preemptor(tree, state.workloads, config, now);
  const kueue::AssignerContext context{cq, &state.resource_flavors, false, &preemptor, 0};
  const kueue::Assignment assignment = kueue::assign_flavors(info, context);
  if (assignment.representative_mode() == kueue::AssignmentMode::Preempt) {
    for (const kueue::PreemptionTarget& t : preemptor.get_targets(info, assignment))
      e.would_preempt.push_back(KueueVictim{t.key, t.cluster_queue, t.reason});
  }
  std::vector<KueueResourceQuota>& out = e.quota;
  for (const kueue::PodSetResources& pod_set : info.total_requests) {
    const auto assigned =
        std::find_if(assignment.pod_sets.begin(), assignment.pod_sets.end(),
                     [&](const kueue::PodSetFlavors& p) { return p.name == pod_set.name; });
    for (const auto& [resource, amount] : kueue::resource_order(pod_set.requests)) {
      KueueResourceQuota row{pod_set.name, resource, text(resource, kueue::Amount(amount)), {}};
      if (const kueue::ResourceGroupInfo* group = cq->group_of(resource)) {
        for (const std::string& flavor : group->flavors) {
          const kueue::FlavorResource fr{flavor, resource};
          const kueue::NodeQuota quota = cq->quota_for(fr);
          KueueFlavorQuota f;
          f.flavor = flavor;
          f.nominal_quota = text(resource, quota.nominal);
          if (quota.borrowing_limit) f.borrowing_limit = text(resource, *quota.borrowing_limit);
          f.usage = text(resource, cq->resources.used(fr));
          f.available = text(resource, cq->available(fr));
          if (cq->parent != nullptr) {
            const kueue::ResourceNode& cohort = cq->parent->resources;
            f.cohort_unused =
                text(resource, kueue::max(kueue::Amount(), cohort.subtree(fr) - cohort.used(fr)));
          }
          if (assigned != assignment.pod_sets.end()) {
            for (const kueue::FlavorAttempt& attempt : assigned->attempts) {
              if (attempt.flavor == flavor) f.reasons = attempt.reasons;
            }
          }
          row.flavors.push_back(std::move(f));
        }
      }
      out.push_back(std::move(row));
    }
  }
}

std::string flavors_words(
    const std::map<std::string, std::map<std::string, std::string>>& flavors) {
  std::string out;
  for (const auto& [pod_set, resources] : flavors) {
    for (const auto& [resource, flavor] : resources)
      out += (out.empty() ? "" : ", ") + resource + " of pod set " + pod_set + " in " + flavor;
  }
  return out;
}

std::string diagnose(const KueueExplanation& e) {
  if (e.finished) return "It has finished: it no longer holds quota. Nothing to fix.";
  if (e.admitted) {
    return "Kueue admitted it in ClusterQueue " + e.cluster_queue + " (" +
           flavors_words(e.flavors) +
           "): its Job runs with those flavors' node labels and tolerations. If its pods wait, "
           "explain them (--pod).";
  }
  std::string out =
      "Kueue has not reserved quota for it (the condition says why): until it does, its Job "
      "stays suspended and has no pods, so kube-scheduler never sees them.";
  if (!e.quota.empty()) {
    out +=
        " The quota below is the ClusterQueue's as Kueue's flavor assigner weighs it now; "
        "more quota, a flavor with room, or other Workloads finishing would admit it.";
  }
  return out;
}

}  // namespace

KueueExplanation explain_workload(const Scenario& scenario, std::string_view object,
                                  const ExplainOptions& options) {
  const Named named = parse_named(object);
  Simulator replay(scenario, options.simulation);
  if (options.at) {
    replay.run_until(*options.at);
  } else {
    while (replay.step()) {
    }
  }
  const std::vector<WorkloadRecord> records = replay.workloads();
  const WorkloadRecord& record = find_workload(records, named, options.at.value_or(replay.now()));
  const KueueState state = replay.kueue_state();
  const std::string key = record.namespace_ + "/" + record.name;
  const kueue::Workload& wl = state.workloads.at(key);

  KueueExplanation out;
  if (record.owner.starts_with("Job/")) out.job = record.owner.substr(4);
  out.workload = key;
  out.time = options.at.value_or(replay.now());
  out.local_queue = record.namespace_ + "/" + record.queue_name;
  out.cluster_queue = record.cluster_queue.value_or("");
  if (auto cq = state.cluster_queues.find(out.cluster_queue); cq != state.cluster_queues.end())
    out.cohort = cq->second.cohort_name;
  out.priority = record.priority;
  out.admitted = record.admitted;
  out.finished = kueue::is_finished(wl);
  out.flavors = record.flavors;
  // Finished or Admitted says it is; while it is not admitted, QuotaReserved carries Kueue's
  // reason.
  const std::string_view told = out.finished   ? kueue::kFinished
                                : out.admitted ? kueue::kAdmitted
                                               : kueue::kQuotaReserved;
  if (const kueue::Condition* c = kueue::find_condition(wl.conditions, told)) out.condition = *c;
  if (!out.admitted && !out.finished && !kueue::has_quota_reservation(wl)) {
    quota_story(state, scenario.kueue.value_or(KueueConfiguration{}), replay.now(), wl, key, out);
  }
  out.diagnosis = diagnose(out);
  if (options.remedies && !out.quota.empty()) {
    out.remedies = explain_detail::find_kueue_remedies(scenario, state, out, options.simulation);
  }
  return out;
}

}  // namespace gpusched
