// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go), reacting at once: one
// pod per node the template admits, pinned to it by node affinity and bound by the scheduler.
// It syncs on DaemonSet apply/patch, node add and update, and pod deletion or completion
// (ControllerManager::sync_all). Rolling updates are not modelled: a changed template is used for
// the pods created afterwards, as with updateStrategy OnDelete.
#include "sim/daemonset_controller.hpp"

#include <algorithm>
#include <map>

#include "gpusched/framework/cluster_state.hpp"
#include "model/names.hpp"
#include "plugins/helpers.hpp"
#include "sim/daemonset_util.hpp"

namespace gpusched::sim {
namespace {

// The component of its own event broadcaster (pkg/controller/daemon/daemon_controller.go).
constexpr std::string_view kEventSource = "daemonset-controller";

/// NodeShouldRunDaemonPod's two answers.
struct Placement {
  bool should_run = false;               ///< a pod should be created when the node has none
  bool should_continue_running = false;  ///< a pod already there may stay
};

/// NodeShouldRunDaemonPod and predicates: the template's nodeName, then NewPod (the template
/// with the daemon tolerations) against the node's labels (nodeSelector and required node
/// affinity, nodeaffinity.GetRequiredNodeAffinity) and its NoSchedule / NoExecute taints. A pod
/// that tolerates every NoExecute taint may stay where an untolerated NoSchedule taint keeps new
/// pods out.
Placement node_should_run_daemon_pod(ClusterState& cluster, const NodeInfo& node,
                                     const DaemonSet& ds) {
  const std::string& pinned = ds.template_.spec.node_name;
  if (!pinned.empty() && pinned != node.node.metadata.name) return {};
  PodInfo pod;
  pod.pod.spec = ds.template_.spec;
  add_or_update_daemon_pod_tolerations(pod.pod.spec);
  cluster.compile_pod(pod);
  if (!plugins::required_node_affinity_matches(pod, node, cluster.pool())) return {};
  if (plugins::find_untolerated_taint(pod, node) == nullptr) return {true, true};
  return {false,
          plugins::find_untolerated_taint(pod, node, plugins::TaintFilter::NoExecute) == nullptr};
}

/// podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name.
bool runs_longer(const PodInfo* a, const PodInfo* b) {
  const bool a_scheduled = !a->pod.spec.node_name.empty();
  const bool b_scheduled = !b->pod.spec.node_name.empty();
  if (a_scheduled != b_scheduled) return a_scheduled;
  if (a->pod.metadata.creation_ms != b->pod.metadata.creation_ms) {
    return a->pod.metadata.creation_ms < b->pod.metadata.creation_ms;
  }
  return a->pod.metadata.name < b->pod.metadata.name;
}

}  // namespace

void DaemonSetController::sync_all() {
  sync_keys(context_.api().daemonsets);
}

void DaemonSetController::sync(const std::string& key) {
  // A deleted pod enqueues its DaemonSet again (deletePod): the next sync replaces a pod that is
  // gone at once, such as a failed one. That sync deletes nothing it did not already.
  if (sync_once(key)) sync_once(key);
}

bool DaemonSetController::sync_once(const std::string& key) {
  ClusterState& cluster = context_.api().cluster();
  auto it = context_.api().daemonsets.find(key);
  if (it == context_.api().daemonsets.end()) return false;
  const DaemonSetState state = it->second;
  // getNodesToDaemonPods: the pods it controls by the node they are for (GetTargetNodeName). A
  // terminal pod already being deleted is left to the kubelet and the pod garbage collector.
  std::map<std::string, std::vector<PodInfo*>> by_node;
  for (PodInfo* pod : owned_pods(state.ds.metadata.uid)) {
    if (pod->pod.terminated() && pod->pod.metadata.deletion_ms) continue;
    if (auto node = target_node_name(pod->pod)) by_node[*node].push_back(pod);
  }
  // manage: every node in turn. A Go lister lists in map order; gpusched goes by name.
  std::vector<const NodeInfo*> nodes(cluster.node_list().begin(), cluster.node_list().end());
  std::sort(nodes.begin(), nodes.end(), [](const NodeInfo* a, const NodeInfo* b) {
    return a->node.metadata.name < b->node.metadata.name;
  });
  std::vector<std::string> create_on;
  std::vector<PodInfo*> to_delete;
  for (const NodeInfo* node : nodes) {
    auto pods = by_node.find(node->node.metadata.name);
    if (pods_should_be_on_node(*node, pods == by_node.end() ? nullptr : &pods->second, state,
                               create_on, to_delete))
      it->second.matched_a_node = true;
  }
  // getUnscheduledPodsWithoutNode: the pod garbage collector leaves an unbound pod whose node is
  // gone, so the controller deletes it.
  for (const auto& [node, pods] : by_node) {
    if (cluster.find_node(node) != nullptr) continue;
    for (PodInfo* pod : pods) {
      if (pod->pod.spec.node_name.empty()) to_delete.push_back(pod);
    }
  }
  sync_nodes(key, state, create_on, to_delete);
  return !to_delete.empty();
}

bool DaemonSetController::pods_should_be_on_node(const NodeInfo& node,
                                                 const std::vector<PodInfo*>* daemon_pods,
                                                 const DaemonSetState& state,
                                                 std::vector<std::string>& create_on,
                                                 std::vector<PodInfo*>& to_delete) {
  const DaemonSet& ds = state.ds;
  const std::string& node_name = node.node.metadata.name;
  const Placement placement = node_should_run_daemon_pod(context_.api().cluster(), node, ds);
  // updateDaemonSetStatus counts a node in desiredNumberScheduled when its pod should run there;
  // a pod that may stay counts as well.
  const bool admits =
      placement.should_run || (placement.should_continue_running && daemon_pods != nullptr);
  if (placement.should_run && daemon_pods == nullptr) {
    create_on.push_back(node_name);
    return admits;
  }
  if (daemon_pods == nullptr) return admits;
  if (!placement.should_continue_running) {
    // The node no longer admits the pod (labels, nodeName, an untolerated NoExecute taint):
    // every pod for it goes, bound or not.
    for (PodInfo* pod : *daemon_pods) {
      if (!pod->pod.metadata.deletion_ms) to_delete.push_back(pod);
    }
    return admits;
  }
  const std::string key = ds.metadata.namespace_ + "/" + ds.metadata.name;
  std::vector<PodInfo*> running;
  for (PodInfo* pod : *daemon_pods) {
    if (pod->pod.metadata.deletion_ms) continue;
    const std::string pod_key = pod->pod.metadata.namespace_ + "/" + pod->pod.metadata.name;
    if (pod->pod.status.phase == PodPhase::Failed) {
      // The kubelet may keep rejecting the pod: deletions on the node back off (failedPodsBackoff,
      // keyed by DaemonSet, generation and node), and the DaemonSet is synced again after the
      // current delay (enqueueDaemonSetAfter).
      const std::string backoff_key =
          ds.metadata.uid + "/" + std::to_string(state.template_generation) + "/" + node_name;
      if (failed_pods_backoff_.in_backoff_since_update(backoff_key, context_.now())) {
        sync_at(key, context_.now() + failed_pods_backoff_.get(backoff_key));
        continue;
      }
      failed_pods_backoff_.next(backoff_key, context_.now());
      context_.record_event(
          kEventSource, "DaemonSet/" + key, "Warning", "FailedDaemonPod",
          "Found failed daemon pod " + pod_key + " on node " + node_name + ", will try to kill it");
      to_delete.push_back(pod);
    } else if (pod->pod.status.phase == PodPhase::Succeeded) {
      context_.record_event(kEventSource, "DaemonSet/" + key, "Normal", "SucceededDaemonPod",
                            "Found succeeded daemon pod " + pod_key + " on node " + node_name +
                                ", will try to delete it");
      to_delete.push_back(pod);
    } else {
      running.push_back(pod);
    }
  }
  // Without surge (gpusched models no updateStrategy, so maxSurge is 0) a node keeps one pod: the
  // oldest. A node left with none gets its new pod in the sync its deletions trigger.
  if (running.size() > 1) {
    std::sort(running.begin(), running.end(), runs_longer);
    to_delete.insert(to_delete.end(), running.begin() + 1, running.end());
  }
  return admits;
}

void DaemonSetController::sync_nodes(const std::string& key, const DaemonSetState& state,
                                     const std::vector<std::string>& create_on,
                                     const std::vector<PodInfo*>& to_delete) {
  const DaemonSet& ds = state.ds;
  // The ControllerRevision hash is controller.ComputeHash of the template, as a Deployment's
  // pod-template-hash is.
  const PodTemplateSpec tmpl =
      create_pod_template(ds.template_, state.template_generation, pod_template_hash(ds.template_));
  const auto owned_by = controller_reference(ds.metadata, "DaemonSet");
  for (const std::string& node : create_on) {
    Pod pod = controlled_pod(tmpl, ds.metadata, owned_by);
    // The scheduler may bind it to that node only; the node already matched the template's own
    // required affinity, which the pinning term replaces.
    replace_daemon_set_pod_node_name_node_affinity(pod.spec.affinity.mut(), node);
    const std::string name = pod.metadata.name;
    context_.create_pod(std::move(pod), ds.metadata.name + "-");
    context_.record_event(kEventSource, "DaemonSet/" + key, "Normal", "SuccessfulCreate",
                          "Created pod: " + name);
  }
  for (PodInfo* pod : to_delete) {
    const std::string name = pod->pod.metadata.name;
    context_.delete_pod(*pod, pod->pod.spec.termination_grace_period_seconds);
    context_.record_event(kEventSource, "DaemonSet/" + key, "Normal", "SuccessfulDelete",
                          "Deleted pod: " + name);
  }
}

}  // namespace gpusched::sim
