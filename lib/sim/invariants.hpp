#pragma once
// What must hold between two instants of a replay, checked when asked (SimulationOptions::
// check_invariants) and always in builds without NDEBUG: a broken one is a bug in gpusched, an
// InternalError (exit 3) naming the node, the resource and the amounts.

#include <cstdint>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/model/time.hpp"
#include "sim/kubelet.hpp"

namespace gpusched::sim {

class InvariantChecker {
 public:
  /// Checks each node that changed since the last call (its NodeInfo::version), so that the
  /// cost follows the work of the instant:
  /// - the pods it lists hold it (bound to it, not ended), and its requested amounts, non-zero
  ///   cpu and memory and host ports are their sums (NodeInfo.AddPod's bookkeeping);
  /// - allocated ≤ allocatable for every resource the kubelet checks (kubelet_checks) and for
  ///   the pod count, except where the node's allocatable dropped under pods it already ran (a
  ///   GPU turned unhealthy, a smaller node object): they keep running, as on a real node, but
  ///   no pod requesting that resource joins it and the excess never grows;
  /// - each of its pods holds exactly as many devices of each device-plugin resource as it
  ///   requests.
  void check(const ClusterState& cluster, const Kubelets& kubelets, TimeMs now);
  /// check(), then every pod: a pod holding a node is among the node's pods, and a pod holding
  /// none holds no devices. For the end of a run.
  void check_all(const ClusterState& cluster, const Kubelets& kubelets, TimeMs now);
  /// check_all() on the starting cluster, whose Running pods may hold more than their nodes
  /// allocate (a snapshot of nodes that shrank under them): they are taken as they are.
  void start(const ClusterState& cluster, const Kubelets& kubelets);

 private:
  struct Seen {
    std::uint64_t version = 0;
    std::vector<std::uint64_t> pods;  // PodInfo::sequence of the pods holding it, sorted
    ResVec requested;
  };
  void check_node(const NodeInfo& node, const ClusterState& cluster, const Kubelets& kubelets,
                  TimeMs now, Seen& seen) const;
  bool starting_ = false;
  std::vector<Seen> seen_;  // by NodeInfo::slot (never reused), as the last check left it
};

}  // namespace gpusched::sim
