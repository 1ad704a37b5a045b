// explain: replays the scenario to the time asked for, finds the pod's last scheduling attempt,
// replays again to that instant and tells that cycle in full; then places the cause in a layer
// and tries remedies (explain_layer.cpp, remedies.cpp).
#include "gpusched/explain/explain.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "dra/pod_claims.hpp"
#include "explain/explain_parts.hpp"
#include "explain/remedy_replay.hpp"
#include "gpusched/error.hpp"
#include "model/go_text.hpp"
#include "sim/glob.hpp"

namespace gpusched {

std::string_view to_string(Layer layer) noexcept {
  switch (layer) {
    case Layer::CapacitySupply:
      return "capacity-supply";
    case Layer::Provisioning:
      return "provisioning";
    case Layer::Scheduling:
      return "scheduling";
    case Layer::Workload:
      return "workload";
    case Layer::None:
      break;
  }
  return "none";
}

namespace {

// "ns/name (Pending)".
std::string described(const PodRecord& r) {
  return r.pod.key() + " (" + std::string(to_string(r.pod.status.phase)) + ")";
}

// At most `most` of `pods`, described and joined, with how many more there are.
std::string listed(const std::vector<const PodRecord*>& pods, std::size_t most) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < pods.size() && i < most; ++i) names.push_back(described(*pods[i]));
  std::string out = joined(names, ", ");
  if (pods.size() > most) out += " and " + std::to_string(pods.size() - most) + " more";
  return out;
}

// The pod's record among `records` (the pods at `now`), or InputError. Besides a pod's own
// name, `key` may name its controller (the pods named "<key>-...", as a Deployment's or a Job's
// are) or be a glob ("default/train-*"): of several such pods, the one not bound is meant; when
// none is alone in that, or nothing matches, the error lists the candidates.
const PodRecord& find_pod(const std::vector<PodRecord>& records, std::string_view key, TimeMs now) {
  const auto it = std::find_if(records.begin(), records.end(),
                               [&](const PodRecord& r) { return r.pod.key() == key; });
  if (it != records.end()) return *it;
  const bool glob = key.find_first_of("*?") != std::string_view::npos;
  const std::string prefix = std::string(key) + "-";
  std::vector<const PodRecord*> matches;
  for (const PodRecord& r : records) {
    const std::string k = r.pod.key();
    if (glob ? sim::glob_match(key, k) : k.starts_with(prefix)) matches.push_back(&r);
  }
  std::vector<const PodRecord*> unbound;
  for (const PodRecord* r : matches) {
    if (r->pod.spec.node_name.empty()) unbound.push_back(r);
  }
  if (matches.size() == 1) return *matches.front();
  if (unbound.size() == 1) return *unbound.front();
  constexpr std::size_t kMostListed = 10;
  const std::string place = "pod " + std::string(key);
  if (!matches.empty()) {
    // Several waiting: those are the ones to choose from; none waiting: any of them.
    const std::vector<const PodRecord*>& candidates = unbound.empty() ? matches : unbound;
    throw InputError(place, "",
                     std::to_string(candidates.size()) + " pods" +
                         (unbound.empty() ? "" : " not bound") + " match at " +
                         format_duration(now) + ": " + listed(candidates, kMostListed) +
                         "; name one");
  }
  // Nothing matches: the pods of its namespace, those waiting first.
  const std::string ns = std::string(key.substr(0, key.find('/')));
  std::vector<const PodRecord*> in_namespace;
  for (const PodRecord& r : records) {
    if (r.pod.metadata.namespace_ == ns && r.pod.spec.node_name.empty()) in_namespace.push_back(&r);
  }
  for (const PodRecord& r : records) {
    if (r.pod.metadata.namespace_ == ns && !r.pod.spec.node_name.empty())
      in_namespace.push_back(&r);
  }
  throw InputError(place, "",
                   "no such pod at " + format_duration(now) +
                       (in_namespace.empty() ? " (namespace " + ns + " has no pods)"
                                             : "; pods of namespace " + ns + ": " +
                                                   listed(in_namespace, kMostListed)));
}

// A bound pod: it runs (layer none), ran, or the kubelet rejected it (layer workload); or its
// node does not exist (layer provisioning).
void explain_bound(const PodRecord& record, const std::vector<NodeRecord>& nodes, bool by_hand,
                   Explanation& out) {
  const Pod& pod = record.pod;
  if (std::none_of(nodes.begin(), nodes.end(),
                   [&](const NodeRecord& n) { return n.node.metadata.name == out.node; })) {
    out.layer = Layer::Provisioning;
    out.diagnosis =
        "It is bound to node " + out.node +
        ", which does not exist: nothing runs it, whatever its phase says. The pod garbage "
        "collector deletes it once the node has been missing for 40 s (it looks every 20 s); "
        "its controller, if any, then replaces it. Bring the node (back) or delete the pod.";
    return;
  }
  if (pod.status.phase == PodPhase::Failed) {
    out.layer = Layer::Workload;
    out.message = pod.status.message;
    const std::string failure = (pod.status.reason.empty() ? "" : " (" + pod.status.reason + ")") +
                                (pod.status.message.empty() ? "" : ": " + pod.status.message);
    // A pod whose manifest sets spec.nodeName never met the scheduler: only the kubelet's
    // admission checked it against the node.
    out.diagnosis =
        by_hand
            ? "Its spec.nodeName binds it to " + out.node +
                  " without the scheduler, and the kubelet refused it there" + failure +
                  ". Let the scheduler place it (no spec.nodeName), or make room on the node."
            : "The scheduler bound it to " + out.node + ", then it failed on the node" + failure +
                  ". The cause is on the node or in the pod itself, not in scheduling.";
    return;
  }
  out.layer = Layer::None;
  std::string when;
  if (record.scheduled) {
    when = " at " + format_duration(*record.scheduled);
    if (const auto wait = record.wait()) when += " after waiting " + format_duration(*wait);
  }
  out.diagnosis = "It is " + std::string(to_string(pod.status.phase)) + " on " + out.node +
                  ", bound" + when + ". Nothing to fix.";
}

// A pod GangScheduling holds back: waiting at Permit for the rest of its gang, kept out of the
// scheduling queue by PreEnqueue, or (1.36) fitting while its PodGroup's cycle found the group
// unschedulable (`message`: its last failure). Empty when none.
std::string gang_diagnosis(const GangStatus& gang, const std::string& message) {
  // 1.35 names a Workload's pod group; 1.36 a PodGroup object.
  const bool pod_group_object = gang.workload.empty();
  const std::string group =
      pod_group_object
          ? "PodGroup \"" + gang.pod_group + "\""
          : "pod group \"" + gang.pod_group + "\" of Workload \"" + gang.workload + "\"" +
                (gang.replica_key.empty() ? "" : " (replica " + gang.replica_key + ")");
  const std::string counts = std::to_string(gang.known) + " pod(s) of the group exist, " +
                             std::to_string(gang.waiting) + " waiting at Permit and " +
                             std::to_string(gang.bound) + " bound";
  const std::string min_count =
      gang.min_count ? "minCount " + std::to_string(*gang.min_count) : std::string("minCount");
  if (gang.waiting_on) {
    std::string out = "It waits at Permit on node " + *gang.waiting_on +
                      ", which it holds (Pending, not bound): GangScheduling lets its gang, " +
                      group + ", bind only once " + min_count +
                      " of its pods are waiting or bound; " + counts + ".";
    if (gang.deadline) {
      out += " At " + format_duration(*gang.deadline) +
             " (5 minutes after the group's first Permit) every pod still waiting is rejected "
             "(\"rejected due to timeout after waiting … at plugin GangScheduling\") and "
             "releases its node; the gang then tries again.";
    }
    if (pod_group_object) {
      out +=
          " 5 minutes after its Permit it is rejected (\"rejected due to timeout after "
          "waiting … at plugin GangScheduling\") and releases its node, unless the gang has "
          "bound meanwhile.";
    }
    return out + " Room for the rest of the gang, or its missing pods, would let it bind.";
  }
  if (message.starts_with("pod group is unschedulable, ")) {
    // schedule_one_podgroup.go: the pods that fit get the group's status, the others their own.
    return "It fits a node, but its " + group +
           " was unschedulable as a whole in its last PodGroup scheduling cycle: no pod's Permit "
           "let the group through (" +
           min_count + "; " + counts +
           "), so every pod of it was forgotten and this one holds nothing. The group's pods that "
           "fit nowhere say why in their own FailedScheduling; room for them lets the whole "
           "group bind in one cycle.";
  }
  if (gang.held) {
    return "GangScheduling's PreEnqueue keeps it out of the scheduling queue (\"" + *gang.held +
           "\"): " + group + ", " + min_count + "; " + counts +
           ". The scheduler has not tried it, so it has no event or condition; the missing "
           "pods (or the " +
           std::string(pod_group_object ? "PodGroup" : "Workload") +
           ") queue the gang when they are created.";
  }
  return {};
}

// Explains `record` as `at` stands now: the pod's cycle told in full, the layer and the
// diagnosis, and with `remedies` (the replays' options) the remedies.
// `claim_failures`, when known: the resourceclaim controller's last FailedResourceClaimCreation
// message per pod ("ns/name").
Explanation explain_here(const Scenario& scenario, Simulator& at, const PodRecord& record,
                         TimeMs time, const std::vector<NodeRecord>& nodes,
                         const std::vector<PodRecord>& pods, const SimulationOptions* remedies,
                         const std::map<std::string, std::string, std::less<>>* claim_failures) {
  Explanation out;
  out.pod = record.pod.key();
  out.time = time;
  out.phase = std::string(to_string(record.pod.status.phase));
  out.node = record.pod.spec.node_name;
  const explain_detail::AttemptView view{scenario, record, nodes, pods};
  if (!out.node.empty()) {
    explain_bound(record, nodes, explain_detail::bound_by_manifest(scenario, record.pod), out);
    if (out.layer == Layer::Workload && remedies != nullptr)
      out.remedies = explain_detail::find_workload_remedies(view, out, *remedies);
    return out;
  }
  if (const std::string* message = record.pod.message()) out.message = *message;
  const auto& profiles = scenario.scheduler.profiles;
  if (std::none_of(profiles.begin(), profiles.end(), [&](const Profile& p) {
        return p.scheduler_name == record.pod.spec.scheduler_name;
      })) {
    out.layer = Layer::Scheduling;
    out.diagnosis = "No scheduler profile serves its schedulerName \"" +
                    record.pod.spec.scheduler_name +
                    "\": kube-scheduler never tries it. Set spec.schedulerName to one of the "
                    "profiles, or run the scheduler it names.";
    return out;
  }
  if (const std::vector<std::string>& gates = record.pod.spec.scheduling_gates; !gates.empty()) {
    out.layer = Layer::Scheduling;
    out.diagnosis = "It carries scheduling gates (" + joined(gates, ", ") +
                    "): the SchedulingGates plugin keeps it out of the scheduling queue, so the "
                    "scheduler has not tried it. Whoever added the gates (a queueing controller "
                    "such as Kueue) removes them when it admits the pod; until the last one is "
                    "gone, no node can help.";
    return out;
  }
  for (const PodResourceClaim& pod_claim : record.pod.spec.resource_claims) {
    // DynamicResources' PreEnqueue: a template's claim the controller has not made yet keeps
    // the pod out of the scheduling queue.
    if (!dra::pod_claim_name(record.pod, pod_claim).not_created_yet) continue;
    out.layer = Layer::Scheduling;
    out.diagnosis = "Its ResourceClaim for \"" + pod_claim.name +
                    "\" has not been created from ResourceClaimTemplate " +
                    record.pod.metadata.namespace_ + "/" +
                    pod_claim.resource_claim_template_name.value_or("") +
                    ": DynamicResources' PreEnqueue keeps it out of the scheduling queue, so no "
                    "node can help until the resourceclaim controller creates the claim.";
    if (claim_failures != nullptr) {
      if (const auto it = claim_failures->find(out.pod); it != claim_failures->end())
        out.diagnosis += " The controller said: " + it->second + ".";
    }
    return out;
  }
  if (record.pod.spec.workload_ref || record.pod.spec.scheduling_group) {
    if (const std::optional<GangStatus> gang = at.gang_status(out.pod)) {
      if (std::string diagnosis = gang_diagnosis(*gang, out.message); !diagnosis.empty()) {
        out.layer = Layer::Scheduling;
        out.diagnosis = std::move(diagnosis);
        return out;
      }
    }
  }
  out.cycle = at.report_cycle(out.pod);
  if (out.message.empty()) out.message = out.cycle.placement.message;
  out.groups = group_verdicts(out.cycle);
  explain_detail::diagnose_pending(view, out);
  if (remedies != nullptr) out.remedies = explain_detail::find_remedies(view, out, at, *remedies);
  return out;
}

}  // namespace

Explanation explain(const Scenario& scenario, std::string_view pod, const ExplainOptions& options) {
  // The replay to the time asked for, noting the pod's last scheduling attempt.
  SimulationOptions first = options.simulation;
  // Every pod's last FailedScheduling: `pod` may name its controller or be a glob, resolved
  // only at the end of this replay.
  std::map<std::string, TimeMs, std::less<>> last_attempts;  // by event object, "Pod/ns/name"
  std::map<std::string, std::string, std::less<>> claim_failures;  // by pod, "ns/name"
  first.observer.event = [&, user = options.simulation.observer.event](const EventRecord& e) {
    if (e.reason == "FailedScheduling") last_attempts[e.object] = e.last_time;
    if (e.reason == "FailedResourceClaimCreation" && e.object.starts_with("Pod/"))
      claim_failures[e.object.substr(4)] = e.message;
    if (user) user(e);
  };
  Simulator replay(scenario, first);
  if (options.at) {
    replay.run_until(*options.at);
  } else {
    while (replay.step()) {
    }
  }
  const SimulationOptions* remedies = options.remedies ? &options.simulation : nullptr;
  std::vector<PodRecord> records = replay.pods();
  const PodRecord* record = &find_pod(records, pod, replay.now());
  const std::string key = record->pod.key();
  std::optional<TimeMs> last_attempt;
  if (auto it = last_attempts.find("Pod/" + key); it != last_attempts.end())
    last_attempt = it->second;
  // A bound pod is explained as of the time asked; an unbound one as its last attempt saw the
  // cluster: that instant, replayed again when it lies earlier and the cluster has changed
  // since (the pod itself may have too, e.g. its nomination).
  std::optional<Simulator> again;
  Simulator* at = &replay;
  if (record->pod.spec.node_name.empty() && last_attempt && *last_attempt < replay.now() &&
      !replay.last_attempt_current(key)) {
    SimulationOptions quiet = options.simulation;
    quiet.observer = {};
    quiet.progress = nullptr;
    again.emplace(scenario, quiet);
    again->run_until(*last_attempt);
    at = &*again;
    records = at->pods();
    record = &find_pod(records, key, at->now());
  }
  const TimeMs time = record->pod.spec.node_name.empty() && last_attempt
                          ? *last_attempt
                          : options.at.value_or(replay.now());
  return explain_here(scenario, *at, *record, time, at->nodes(), records, remedies,
                      &claim_failures);
}

std::vector<Explanation> explain_now(Simulator& simulator, const Scenario& scenario,
                                     const std::vector<std::string>& pods) {
  const std::vector<NodeRecord> nodes = simulator.nodes();
  const std::vector<PodRecord> records = simulator.pods();
  std::vector<Explanation> out;
  for (const std::string& pod : pods) {
    out.push_back(explain_here(scenario, simulator, find_pod(records, pod, simulator.now()),
                               simulator.now(), nodes, records, nullptr, nullptr));
  }
  return out;
}

}  // namespace gpusched
