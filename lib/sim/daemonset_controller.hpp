#pragma once
// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go).

#include <string>
#include <vector>

#include "sim/backoff.hpp"
#include "sim/controller.hpp"

namespace gpusched::sim {

class DaemonSetController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "DaemonSet"; }
  void sync(const std::string& key) override;
  void sync_all() override;
  /// addNode / updateNode: new labels or taints may change where daemon pods belong.
  void node_changed() override { sync_all(); }

 private:
  /// syncDaemonSet's manage; true when it deleted pods.
  bool sync_once(const std::string& key);
  /// podsShouldBeOnNode; true when the node admits the DaemonSet's pod.
  bool pods_should_be_on_node(const NodeInfo& node, const std::vector<PodInfo*>* daemon_pods,
                              const DaemonSetState& state, std::vector<std::string>& create_on,
                              std::vector<PodInfo*>& to_delete);
  void sync_nodes(const std::string& key, const DaemonSetState& state,
                  const std::vector<std::string>& create_on,
                  const std::vector<PodInfo*>& to_delete);

  // kube-controller-manager's failedPodsBackoff: flowcontrol.NewBackOff(1s, 15m).
  Backoff failed_pods_backoff_{1000, 15 * 60 * 1000};
};

}  // namespace gpusched::sim
