// One-shot questions against the replay's cluster now: dry runs of the scheduler that leave the
// replay exactly as it was.
#include <algorithm>
#include <deque>
#include <map>
#include <type_traits>

#include "gpusched/error.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/validation.hpp"
#include "model/priority_admission.hpp"
#include "sim/simulation.hpp"

namespace gpusched::sim {
namespace {

// A question about a pod no profile schedules has no answer.
void require_profile(const SchedulerConfig& config, const Pod& pod, const std::string& what) {
  if (std::none_of(config.profiles.begin(), config.profiles.end(),
                   [&](const Profile& p) { return p.scheduler_name == pod.spec.scheduler_name; })) {
    throw InputError(what, "/spec/schedulerName",
                     "no scheduler profile has schedulerName \"" + pod.spec.scheduler_name + "\"");
  }
}

// A pod of the cluster by its "ns/name".
PodInfo* find_by_key(ClusterState& cluster, std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return nullptr;
  return cluster.find_pod(key.substr(0, slash), key.substr(slash + 1));
}

}  // namespace

PodInfo Simulation::probe_pod(Pod pod) {
  if (pod.metadata.namespace_.empty()) pod.metadata.namespace_ = pod_defaults().default_namespace;
  const std::string what = "pod " + pod.key();
  if (!pod.spec.node_name.empty())
    throw InputError(what, "/spec/nodeName", "the pod is already bound; nothing to schedule");
  // As the API server would: defaulted (SetDefaults_Pod), then validated.
  default_requests_from_limits(pod.spec);
  const FieldPath spec{PathStep{PathStep::Kind::Field, "spec"}};
  if (const auto errors = validate_pod_spec(pod.spec, spec); !errors.empty()) {
    throw InputError(what, to_json_pointer(errors.front().path),
                     to_field_string(errors.front().path) + ": " + errors.front().detail);
  }
  // The Priority admission plugin, as on create.
  if (auto error = admit_priority(pod, api_.priority_classes)) throw InputError(what, "", *error);
  require_profile(config_, pod, what);
  return cluster_.detached_pod(std::move(pod));
}

template <typename Cycle>
auto Simulation::dry_run(Cycle cycle) {
  std::optional<PreemptionRecord> preemption;
  // Preemption's dry run draws from the random source as a real cycle would: it is put back.
  struct Restore {
    Simulation& sim;
    Rng saved;
    ~Restore() {
      sim.rng_ = saved;
      sim.probe_preemption_ = nullptr;
    }
  } restore{*this, rng_};
  probe_preemption_ = &preemption;
  auto out = cycle();
  Placement& placement = [&]() -> Placement& {
    if constexpr (std::is_same_v<decltype(out), Placement>) {
      return out;
    } else {
      return out.placement;
    }
  }();
  if (preemption) {
    for (const VictimRecord& victim : preemption->victims) placement.victims.push_back(victim.pod);
  }
  return out;
}

Placement Simulation::schedule_one(Pod pod) {
  const PodInfo probe = probe_pod(std::move(pod));
  return dry_run([&] { return scheduler_.evaluate(probe, true); });
}

bool Simulation::last_attempt_current(std::string_view key) {
  const PodInfo* pod = find_by_key(cluster_, key);
  return pod != nullptr && scheduler_.last_failure_current(*pod);
}

std::optional<GangStatus> Simulation::gang_status(std::string_view key) {
  const PodInfo* pod = find_by_key(cluster_, key);
  return pod == nullptr ? std::nullopt : scheduler_.gang_status(*pod);
}

CycleReport Simulation::report_cycle(std::string_view key, std::optional<std::int32_t> priority) {
  PodInfo* pod = find_by_key(cluster_, key);
  if (pod == nullptr) throw InputError("pod " + std::string(key), "", "no such pod now");
  if (pod->node != nullptr) {
    throw InputError(
        "pod " + std::string(key), "/spec/nodeName",
        "the pod is bound to " + pod->node->node.metadata.name + "; nothing to schedule");
  }
  require_profile(config_, pod->pod, "pod " + std::string(key));
  if (!priority) return dry_run([&] { return scheduler_.report_cycle(*pod); });
  // The same pod as if it had another priority: a copy outside the cluster.
  PodInfo copy = *pod;
  copy.priority = *priority;
  copy.pod.spec.priority = *priority;
  return dry_run([&] { return scheduler_.report_cycle(copy); });
}

FitCount Simulation::count_fits(Pod pod, std::int64_t limit) {
  if (limit < 0 || static_cast<std::uint64_t>(limit) > kMaxPodsPerRun) {
    throw InputError("count_fits", "",
                     "the limit must be between 0 and " + std::to_string(kMaxPodsPerRun));
  }
  const PodInfo probe = probe_pod(std::move(pod));
  // The copies are assumed on their nodes one after another, as cluster-autoscaler's binpacking
  // estimator does on a forked snapshot (estimator/binpacking_estimator.go), and all forgotten
  // at the end; deque: their addresses stay put while nodes point at them. The usage ledger and
  // the autoscaler (the node observer) never hear of them.
  std::deque<PodInfo> placed;
  struct ForgetAll {
    ClusterState& cluster;
    std::deque<PodInfo>& placed;
    ~ForgetAll() {
      for (auto it = placed.rbegin(); it != placed.rend(); ++it) cluster.forget(*it);
    }
  } forget_all{cluster_, placed};
  FitCount out;
  std::map<std::string, std::int64_t> per_node;
  while (out.count < limit) {
    Placement placement = scheduler_.evaluate(probe, false);
    if (placement.best.empty()) {
      out.stopped_by = std::move(placement.message);
      break;
    }
    placed.push_back(probe);
    cluster_.assume(placed.back(), *cluster_.find_node(placement.best.front()));
    ++out.count;
    ++per_node[placement.best.front()];
  }
  out.per_node.assign(per_node.begin(), per_node.end());
  return out;
}

}  // namespace gpusched::sim
