#pragma once
// The pod garbage collector's orphan pass (pkg/controller/podgc/gc_controller.go gcOrphaned):
// every gcCheckPeriod it lists the pods bound to a node that does not exist, quarantines each
// such node name for quarantineTime, and once a quarantine is over and the node still does not
// exist, deletes its pods (marked Failed with a DisruptionTarget condition, grace period 0).
// Until then the pods stay in the API server as they were: a deleted node's pods do not vanish
// with it, and a pod bound to a node that never comes is deleted, not reported Running forever.

#include <map>
#include <string>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/model/time.hpp"
#include "sim/event_queue.hpp"

namespace gpusched::sim {

class PodGarbageCollector {
 public:
  static constexpr TimeMs kCheckPeriod = 20'000;  ///< gcCheckPeriod
  static constexpr TimeMs kQuarantine = 40'000;   ///< quarantineTime

  PodGarbageCollector(const TimeMs& now, EventQueue& clock) : now_(now), clock_(clock) {}

  /// A pod may have lost its node (the node was deleted, or the pod was created bound to a name
  /// no node has): the next pass, on the controller's 20 s grid, is put on the clock.
  void orphan_possible();
  /// One gc() pass: the pods to delete now. Passes go on while orphans or quarantines remain.
  [[nodiscard]] std::vector<PodInfo*> run(ClusterState& cluster);

 private:
  void schedule(TimeMs at);

  const TimeMs& now_;
  EventQueue& clock_;
  bool scheduled_ = false;
  std::map<std::string, TimeMs> quarantine_;  // nodeQueue: node name -> when its check is due
};

}  // namespace gpusched::sim
