// explain: replays the scenario to the time asked for, finds the pod's last scheduling attempt,
// replays again to that instant and tells that cycle in full; then places the cause in a layer
// and tries remedies (explain_layer.cpp, remedies.cpp).
#include "gpusched/explain/explain.hpp"

#include <algorithm>

#include "explain/explain_parts.hpp"
#include "gpusched/error.hpp"

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

// The pod's record among `records` (the pods at `now`), or InputError.
const PodRecord& find_pod(const std::vector<PodRecord>& records, std::string_view key, TimeMs now) {
  const auto it = std::find_if(records.begin(), records.end(),
                               [&](const PodRecord& r) { return r.pod.key() == key; });
  if (it == records.end())
    throw InputError("pod " + std::string(key), "", "no such pod at " + format_duration(now));
  return *it;
}

// A bound pod: it runs (layer none), ran, or the kubelet rejected it (layer workload).
void explain_bound(const PodRecord& record, Explanation& out) {
  const Pod& pod = record.pod;
  if (pod.status.phase == PodPhase::Failed) {
    out.layer = Layer::Workload;
    out.message = pod.status.message;
    out.diagnosis = "The scheduler bound it to " + out.node + ", then it failed on the node" +
                    (pod.status.reason.empty() ? "" : " (" + pod.status.reason + ")") +
                    (pod.status.message.empty() ? "" : ": " + pod.status.message) +
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

// Explains `record` as `at` stands now: the pod's cycle told in full, the layer and the
// diagnosis, and with `remedies` (the replays' options) the remedies.
Explanation explain_here(const Scenario& scenario, Simulator& at, const PodRecord& record,
                         TimeMs time, const std::vector<NodeRecord>& nodes,
                         const std::vector<PodRecord>& pods, const SimulationOptions* remedies) {
  Explanation out;
  out.pod = record.pod.key();
  out.time = time;
  out.phase = std::string(to_string(record.pod.status.phase));
  out.node = record.pod.spec.node_name;
  const explain_detail::AttemptView view{scenario, record, nodes, pods};
  if (!out.node.empty()) {
    explain_bound(record, out);
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
  const std::string object = "Pod/" + std::string(pod);
  std::optional<TimeMs> last_attempt;
  first.observer.event = [&, user = options.simulation.observer.event](const EventRecord& e) {
    if (e.reason == "FailedScheduling" && e.object == object) last_attempt = e.last_time;
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
  // A bound pod is explained as of the time asked; an unbound one as its last attempt saw the
  // cluster: that instant, replayed again when it lies earlier and the cluster has changed
  // since (the pod itself may have too, e.g. its nomination).
  std::optional<Simulator> again;
  Simulator* at = &replay;
  if (record->pod.spec.node_name.empty() && last_attempt && *last_attempt < replay.now() &&
      !replay.last_attempt_current(pod)) {
    SimulationOptions quiet = options.simulation;
    quiet.observer = {};
    quiet.progress = nullptr;
    again.emplace(scenario, quiet);
    again->run_until(*last_attempt);
    at = &*again;
    records = at->pods();
    record = &find_pod(records, pod, at->now());
  }
  const TimeMs time = record->pod.spec.node_name.empty() && last_attempt
                          ? *last_attempt
                          : options.at.value_or(replay.now());
  return explain_here(scenario, *at, *record, time, at->nodes(), records, remedies);
}

std::vector<Explanation> explain_now(Simulator& simulator, const Scenario& scenario,
                                     const std::vector<std::string>& pods) {
  const std::vector<NodeRecord> nodes = simulator.nodes();
  const std::vector<PodRecord> records = simulator.pods();
  std::vector<Explanation> out;
  for (const std::string& pod : pods) {
    out.push_back(explain_here(scenario, simulator, find_pod(records, pod, simulator.now()),
                               simulator.now(), nodes, records, nullptr));
  }
  return out;
}

}  // namespace gpusched
