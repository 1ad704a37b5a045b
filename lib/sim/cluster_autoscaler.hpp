#pragma once
// The cluster autoscaler, simply: every --scan-interval it adds nodes to autoscaled pools for
// the pods the scheduler marked unschedulable, and removes pool nodes that have stayed empty
// for --scale-down-unneeded-time (cluster-autoscaler/core/static_autoscaler.go RunOnce).
// docs/planning.md lists what it leaves out.

#include <cstddef>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/model/kueue.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "sim/event_queue.hpp"
#include "sim/event_recorder.hpp"
#include "sim/node_host.hpp"
#include "sim/pool_provisioner.hpp"

namespace gpusched::sim {

class ClusterAutoscaler {
 public:
  ClusterAutoscaler(const Scenario& scenario, NodeHost& host, PoolProvisioner& pools,
                    ClusterState& cluster, EventRecorder& events, EventQueue& clock,
                    const TimeMs& now,
                    std::map<std::string, kueue::ProvisioningRequest>& provisioning_requests)
      : scenario_(scenario),
        host_(host),
        pools_(pools),
        cluster_(cluster),
        events_(events),
        clock_(clock),
        now_(now),
        provisioning_requests_(provisioning_requests) {
    events_.set_correlator_options(kEventSource, kCorrelatorOptions);
  }

  /// Its loop runs from the start, at tick 0, when a pool autoscales.
  void start();
  /// One run of its loop: scale-up for the unschedulable pods, scale-down of empty nodes, and
  /// the next run when one can still change something.
  void run();
  /// Runs the loop at its first tick (every scan interval from 0) at or after `at` and after
  /// now; nothing when the loop itself made the change. False when no pool autoscales (no
  /// cluster autoscaler runs).
  bool wake(TimeMs at);
  /// Whether it watches the node: a node of an autoscaled pool.
  [[nodiscard]] bool watches(const NodeInfo& node) const;

 private:
  // Its event broadcaster (utils/kubernetes/events.go CreateEventRecorder, without
  // --record-duplicated-events): one event per reason and object, then one per 5 minutes, and
  // caches of 8,192 entries.
  static constexpr std::string_view kEventSource = "cluster-autoscaler";
  static constexpr EventCorrelator::Options kCorrelatorOptions{8192, 1, true};

  /// The pods it would scale up for: unbound, marked unschedulable by the scheduler, old enough.
  [[nodiscard]] std::vector<PodInfo*> unschedulable_pods() const;
  /// Scale-up: new nodes in the first pools (in file order) whose template fits the pods.
  void scale_up(const std::vector<PodInfo*>& pods);
  /// The ProvisioningRequests not yet provisioned, each by its class's processor
  /// (cluster-autoscaler/provisioningrequest/{checkcapacity,besteffortatomic}).
  void provision_requests();
  /// best-effort-atomic-scale-up for the request's pods that do not fit the nodes there now: new
  /// nodes of one pool for all of them at once (the orchestrator's ScaleUp with allOrNothing);
  /// false when no pool can hold them all.
  bool scale_up_atomically(const std::vector<const PodInfo*>& left);
  /// The request's pods (its pod sets' templates, count times) as the scheduler would see them.
  [[nodiscard]] std::vector<PodInfo> request_pods(const kueue::ProvisioningRequest& request);
  void scale_down();
  /// The template node of an autoscaled pool, as the scheduler would see a new node.
  [[nodiscard]] NodeInfo template_node(const NodePool& pool);

  const Scenario& scenario_;
  NodeHost& host_;
  PoolProvisioner& pools_;
  ClusterState& cluster_;
  EventRecorder& events_;
  EventQueue& clock_;
  const TimeMs& now_;
  std::map<std::string, kueue::ProvisioningRequest>& provisioning_requests_;
  TimeMs last_scale_up_ = std::numeric_limits<TimeMs>::min() / 2;
  std::map<std::size_t, TimeMs> unneeded_since_;  // staged node -> since when it is empty
  bool enabled_ = false;                          // a pool autoscales
  bool busy_ = false;                             // its loop is running now
  std::set<TimeMs> ticks_;                        // its loop's runs in the event queue
};

}  // namespace gpusched::sim
