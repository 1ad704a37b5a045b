#pragma once
// Node pools in the replay: their nodes from 0s, or, for a pool with a reservation (layer 1) or
// provisioning (layer 2), their way into the cluster: a launch that may fail, the node
// registering NotReady, becoming Ready, and the device plugin advertising its GPUs, then the
// reservation's end.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/rng.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/result.hpp"
#include "sim/event_queue.hpp"
#include "sim/node_host.hpp"

namespace gpusched::sim {

class PoolProvisioner {
 public:
  /// A pool node's stage on its way in (layers 1 and 2), and Gone once removed.
  enum class Stage : std::uint8_t { Launching, Booting, Driver, Up, Gone };
  struct StagedNode {
    std::size_t pool = 0;
    std::int32_t index = 0;
    std::int32_t attempts = 0;
    Stage stage = Stage::Launching;
  };

  PoolProvisioner(const Scenario& scenario, NodeHost& host, ClusterState& cluster,
                  EventQueue& clock, const TimeMs& now, Rng& rng)
      : scenario_(scenario), host_(host), cluster_(cluster), clock_(clock), now_(now), rng_(rng) {}

  /// A node pool's `index`-th node: the template renamed and labelled with its pool.
  [[nodiscard]] static Node pool_node(const NodePool& pool, std::int32_t index);
  /// Puts each pool's nodes in the cluster now, or schedules their reservation and launches.
  void start();
  /// The staged node's next step: a launch's outcome, Ready, or its GPUs advertised.
  void advance(std::size_t staged);
  /// A pool's reservation ends: its nodes leave the cluster.
  void end_reservation(std::size_t pool);
  /// Adds a staged node to a pool (its next index) whose launch is asked for at `at`.
  void launch(std::size_t pool, TimeMs at);
  /// The staged node, up, is removed (scale-down).
  void remove(std::size_t staged);
  /// Each pool's nodes that are up or on their way (not gone), by pool index.
  [[nodiscard]] std::vector<std::int32_t> pool_sizes() const;

  [[nodiscard]] const std::vector<StagedNode>& staged() const noexcept { return staged_; }
  /// Each staged node's record, same index as staged().
  [[nodiscard]] const std::vector<NodeProvisioning>& records() const noexcept {
    return provisioning_;
  }
  /// The result's pools and provisioning records (the run is over then).
  [[nodiscard]] std::vector<PoolRecord> take_pools() { return std::move(pool_records_); }
  [[nodiscard]] std::vector<NodeProvisioning> take_provisioning() {
    return std::move(provisioning_);
  }

 private:
  /// Asks for a staged node's launch at `at`: its outcome comes launchDelay later.
  void request_launch(std::size_t staged, TimeMs at);

  const Scenario& scenario_;
  NodeHost& host_;
  ClusterState& cluster_;
  EventQueue& clock_;
  const TimeMs& now_;
  Rng& rng_;
  std::vector<StagedNode> staged_;
  std::vector<NodeProvisioning> provisioning_;
  std::vector<PoolRecord> pool_records_;
  std::vector<std::int32_t> next_pool_index_;  // per pool: the next node's index
};

}  // namespace gpusched::sim
