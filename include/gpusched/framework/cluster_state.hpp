#pragma once
/// The cluster as the scheduler sees it (upstream's scheduler cache and snapshot in one, since a
/// replay is sequential): nodes in node-tree order, pods, and who holds which node.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/framework/dra_state.hpp"
#include "gpusched/framework/interned.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_index.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/framework/resources.hpp"
#include "gpusched/model/pod_group.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/scheduling_workload.hpp"
#include "gpusched/model/selector.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched {

class PodInfoPool;
class StringPool;

/// A PodDisruptionBudget as preemption reads it: where it applies and its current status.
struct BudgetInfo {
  std::string namespace_;
  LabelSelector selector;
  std::int32_t disruptions_allowed = 0;
};

/// What is about to happen to a node, as a NodeObserver hears it.
enum class NodeChange : std::uint8_t {
  Added,     ///< the node was just added, before pods bound to its name hold it
  Changing,  ///< its object (allocatable, labels, taints) or its pods' requests are about to change
  Removing,  ///< it is about to be removed
};
/// Hears every change of what a node offers or holds, before it takes effect: a usage ledger
/// integrates the old values over the time they held.
using NodeObserver = std::function<void(const NodeInfo&, NodeChange)>;

class ClusterState {
 public:
  ClusterState();
  ~ClusterState();
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  /// The table of interned strings (the library's own: lib/framework/string_pool.hpp).
  [[nodiscard]] StringPool& pool() noexcept { return *pool_; }
  [[nodiscard]] const StringPool& pool() const noexcept { return *pool_; }
  /// The id of `text` in the cluster's string table, adding it when new (a plugin interns its
  /// failure reasons once, at construction).
  [[nodiscard]] StrId intern(std::string_view text);
  /// The text of an interned id.
  [[nodiscard]] const std::string& text(StrId id) const;
  /// The id of `text` if it was interned, else kNotInterned (a label key no node has, say).
  [[nodiscard]] StrId find_interned(std::string_view text) const;
  [[nodiscard]] ResourceRegistry& resources() noexcept { return resources_; }
  [[nodiscard]] const ResourceRegistry& resources() const noexcept { return resources_; }

  /// Sets the one observer of node changes (none by default).
  void set_node_observer(NodeObserver observer) { node_observer_ = std::move(observer); }

  /// Adds a node; pods already bound to its name start holding it. A node that advertises no
  /// "pods" gets the kubelet's default of 110.
  NodeInfo& add_node(Node node);
  /// The node compiled as add_node would, but not in the cluster: what a node that does not
  /// exist yet would offer (the cluster autoscaler's template node).
  [[nodiscard]] NodeInfo detached_node(Node node);
  /// Replaces the node object, keeping its pods.
  void update_node(NodeInfo& info, Node node);
  /// Removes a node; pods bound to it stay bound to a missing node.
  void remove_node(NodeInfo& info);
  [[nodiscard]] NodeInfo* find_node(std::string_view name) noexcept;
  /// Nodes in upstream's node-tree order: zones interleaved, each zone in insertion order.
  [[nodiscard]] const std::vector<NodeInfo*>& node_list() const {
    if (node_list_dirty_) rebuild_node_list();
    return node_list_;
  }
  /// Per position of node_list(): the node's version, or VersionMirror::kJudgeAfresh while pods
  /// are nominated to it. Contiguous, so that the Filter loop checks its kept verdicts without
  /// reading each node.
  [[nodiscard]] std::span<const std::uint64_t> node_versions() const {
    if (node_list_dirty_) rebuild_node_list();
    return node_versions_;
  }
  /// Per position of node_list(): the node's NodeInfo::slot, so that the Score plugins find their
  /// per-node memos without reading each node.
  [[nodiscard]] std::span<const std::uint32_t> node_slots() const {
    if (node_list_dirty_) rebuild_node_list();
    return slots_by_position_;
  }
  /// Whether the node in `slot` has effective taints (its NodeInfo::taints are not empty).
  [[nodiscard]] bool node_tainted(std::uint32_t slot) const noexcept {
    return slot < tainted_.size() && tainted_[slot] != 0;
  }

  /// Adds a pod; a bound, non-terminated pod holds its node when that node exists. Its name is
  /// not taken and it passed validation (InternalError otherwise: the callers check first).
  PodInfo& add_pod(Pod pod);
  /// Replaces the pod object (labels, tolerations, phase...), keeping its binding accounting.
  void update_pod(PodInfo& info, Pod pod);
  /// Binds an unbound pod to a node (spec.nodeName) and makes it hold the node (InternalError
  /// when the pod is bound already).
  void bind(PodInfo& info, NodeInfo& node);
  /// The pod stops holding its node (it Succeeded or Failed); it stays bound.
  void release(PodInfo& info);
  /// The pod runs, started at `started` (phase Running, status.startTime): the node it holds gets
  /// a new version, since preemption weighs a node's pods by start time.
  void start_pod(PodInfo& info, TimeMs started);
  /// Removes the pod object altogether.
  void remove_pod(PodInfo& info);

  /// The pod compiled as add_pod would, but not in the cluster: what a pod that does not exist
  /// would ask for (a one-shot scheduling question).
  [[nodiscard]] PodInfo detached_pod(Pod pod);
  /// A what-if, like the scheduler cache's AssumePod (pkg/scheduler/backend/cache/cache.go): the
  /// detached pod holds `node` (its spec.nodeName set) without joining the cluster's pod list.
  /// Its address must stay valid until forget(). Neither the generation nor the node observer
  /// hears of it: the caller forgets every pod it assumed before anything but its own Filter and
  /// Score calls reads the cluster, which is then exactly as it was.
  void assume(PodInfo& pod, NodeInfo& node);
  /// Undoes assume(): the pod stops holding its node (ForgetPod).
  void forget(PodInfo& pod);
  [[nodiscard]] PodInfo* find_pod(std::string_view namespace_,
                                  std::string_view name) const noexcept;
  /// Every pod, ordered by "namespace/name".
  [[nodiscard]] const PodsByKey& pods() const noexcept { return pods_; }

  /// The end of a run's first step: frees the indexes of the pods (by key, by name, by
  /// nominated node) so that what is built next reuses their memory; pods() and find_pod() find
  /// nothing from then on, while the pods stay where they are (nodes still list them) until
  /// drain_pods().
  void drop_pod_indexes();
  /// Hands every pod to `take`, in no particular order, freeing their storage as it goes, and
  /// leaves none: for the end of a run, when nothing reads the cluster any more (nodes still
  /// point at the pods they held). Drops the indexes first if drop_pod_indexes() did not.
  void drain_pods(const std::function<void(PodInfo&)>& take);

  /// Sets (or, with "", clears) a pod's status.nominatedNodeName. Unbound pods with a nomination
  /// are what the scheduling queue's nominator tracks (pkg/scheduler/backend/queue/nominator.go).
  void nominate(PodInfo& info, const std::string& node_name);
  /// Unbound pods nominated to a node (its interned name), in nomination order.
  [[nodiscard]] std::span<PodInfo* const> nominated_pods(StrId node_name) const noexcept {
    if (node_name >= nominated_.size()) return {};
    return nominated_[node_name];
  }

  /// The PodDisruptionBudgets with their current disruptionsAllowed, kept by the simulation.
  void set_budgets(std::vector<BudgetInfo> budgets);
  [[nodiscard]] const std::vector<BudgetInfo>& budgets() const noexcept { return budgets_; }

  /// ReplicaSet selectors by "namespace/name", kept by the simulation: what upstream's
  /// ReplicaSet lister gives helper.DefaultSelector (PodTopologySpread's default constraints).
  using SelectorMap = std::map<std::string, LabelSelector, std::less<>>;
  void set_replica_set_selectors(SelectorMap selectors) {
    replica_set_selectors_ = std::move(selectors);
  }
  [[nodiscard]] const SelectorMap& replica_set_selectors() const noexcept {
    return replica_set_selectors_;
  }
  /// The same for StatefulSets (the StatefulSet lister).
  void set_stateful_set_selectors(SelectorMap selectors) {
    stateful_set_selectors_ = std::move(selectors);
  }
  [[nodiscard]] const SelectorMap& stateful_set_selectors() const noexcept {
    return stateful_set_selectors_;
  }
  /// Services' non-empty spec.selector by namespace (the Service lister, for
  /// helper.GetPodServices).
  using ServiceSelectors = std::map<std::string, std::vector<Labels>, std::less<>>;
  void set_service_selectors(ServiceSelectors selectors) {
    service_selectors_ = std::move(selectors);
  }
  [[nodiscard]] const ServiceSelectors& service_selectors() const noexcept {
    return service_selectors_;
  }

  /// Adds or replaces a scheduling.k8s.io Workload (the scheduler's Workload lister); false when
  /// it replaced one.
  bool apply_workload(SchedulingWorkload workload);
  /// Removes a Workload; false when there was none.
  bool remove_workload(std::string_view namespace_, std::string_view name);
  /// A Workload, or nullptr.
  [[nodiscard]] const SchedulingWorkload* find_workload(std::string_view namespace_,
                                                        std::string_view name) const;
  /// Adds or replaces a scheduling.k8s.io PodGroup (1.36, the scheduler's PodGroup lister);
  /// false when it replaced one.
  bool apply_pod_group(PodGroup pod_group);
  /// Removes a PodGroup; false when there was none.
  bool remove_pod_group(std::string_view namespace_, std::string_view name);
  /// A PodGroup, or nullptr.
  [[nodiscard]] const PodGroup* find_pod_group(std::string_view namespace_,
                                               std::string_view name) const;
  /// The same, to write its status.
  [[nodiscard]] PodGroup* find_pod_group(std::string_view namespace_, std::string_view name);
  /// Every PodGroup, keyed "namespace/name".
  [[nodiscard]] const std::map<std::string, PodGroup, std::less<>>& pod_groups() const noexcept {
    return pod_groups_;
  }

  /// The pod waits at Permit on `node` (upstream's assumed pod in the scheduler cache): it holds
  /// the node for every later cycle while its spec.nodeName stays empty, as the API server's pod
  /// does. The node observer does not hear of it (the pod does not run).
  void hold_waiting(PodInfo& pod, NodeInfo& node);
  /// Undoes hold_waiting() (ForgetPod, or before the pod is bound).
  void release_waiting(PodInfo& pod);
  /// hold_waiting() within one scheduling cycle (the snapshot's AssumePod of a PodGroup cycle,
  /// schedule_one_podgroup.go): the generation does not move, since the cycle forgets the pod
  /// (release_in_cycle) before it ends and the cluster is then exactly as it was.
  void hold_in_cycle(PodInfo& pod, NodeInfo& node);
  /// Undoes hold_in_cycle().
  void release_in_cycle(PodInfo& pod);

  /// The Dynamic Resource Allocation objects.
  [[nodiscard]] const DraState& dra() const noexcept { return dra_; }
  /// The same, to change them: a change can alter a scheduling decision.
  [[nodiscard]] DraState& edit_dra() noexcept {
    ++generation_;
    return dra_;
  }

  /// Adds or replaces a Namespace object (its metadata; labels feed namespaceSelectors).
  void apply_namespace(ObjectMeta meta);
  /// Removes a declared namespace; false when it was not declared.
  bool remove_namespace(std::string_view name);
  /// A declared namespace, or nullptr.
  [[nodiscard]] const ObjectMeta* find_namespace(std::string_view name) const noexcept;
  /// The labels of a namespace. gpusched treats an undeclared namespace as existing with only
  /// the label kubernetes.io/metadata.name=<name> that the API server sets on every namespace.
  [[nodiscard]] const Labels& namespace_labels(std::string_view name) const;
  /// Every namespace that exists: the declared ones and those of pods, in name order.
  [[nodiscard]] std::vector<std::string_view> namespace_names() const;

  /// How many pods holding a node have pod affinity or anti-affinity of any kind
  /// (upstream's PodsWithAffinity), and how many have required anti-affinity terms
  /// (PodsWithRequiredAntiAffinity): InterPodAffinity skips its work when there are none.
  [[nodiscard]] std::uint32_t pods_with_affinity() const noexcept { return with_affinity_; }
  [[nodiscard]] std::uint32_t pods_with_required_anti_affinity() const noexcept {
    return with_required_anti_affinity_;
  }
  /// The lowest priority of the pods holding a node (nullopt: none holds one). No pod at or
  /// below it can find a preemption victim on any node: DefaultPreemption knows without looking
  /// at each node's pods.
  [[nodiscard]] std::optional<std::int32_t> lowest_holding_priority() const noexcept {
    if (holding_priorities_.empty()) return std::nullopt;
    return holding_priorities_.begin()->first;
  }

  /// Every pod added so far, counted by its shape (non-zero CPU request, GPU-sharing milli, count
  /// and model): the workload seen so far, FGDScore's target workload. Never decremented.
  [[nodiscard]] const GpuShareShapeCounts& pod_shapes() const noexcept { return pod_shapes_; }
  /// How many pods were ever added: pod_shapes' total.
  [[nodiscard]] std::uint64_t pods_seen() const noexcept { return pod_sequence_; }

  /// Bumped on every change that can alter a scheduling decision.
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  /// Bumped when a node comes, goes or changes its object (labels, taints, spec): what the
  /// node-static Filter verdicts depend on (FilterPlugin::append_node_static_key), and the
  /// node list's order.
  [[nodiscard]] std::uint64_t node_generation() const noexcept { return node_generation_; }

  /// Compiles a pod's scheduling view (exposed for tests and dry-runs).
  void compile_pod(PodInfo& info);

 private:
  void compile_node(NodeInfo& info);
  /// compile_node for a node the state holds: also its entry in the per-slot arrays.
  void compile_held_node(NodeInfo& info);
  void notify(const NodeInfo& node, NodeChange change) const {
    if (node_observer_) node_observer_(node, change);
  }
  /// The pod starts (stops) holding its node, the observer told first.
  void hold(PodInfo& pod, NodeInfo& node);
  void unhold(PodInfo& pod);
  /// The same without the observer: the node's pods and the affinity counts only.
  void attach(PodInfo& pod, NodeInfo& node);
  void detach(PodInfo& pod);
  /// The affinity and priority counts of the pods holding a node, as `pod` starts (`held`) or
  /// stops holding one.
  void count_holding(const PodInfo& pod, bool held);
  void rebuild_node_list() const;
  void index_nomination(PodInfo& pod);
  void unindex_nomination(const PodInfo& pod);
  /// Sets a node's node_versions() entry from its nominated pods: kJudgeAfresh while it has
  /// any, else its version.
  void mirror_nominations(NodeInfo& node) const;
  /// The pods nominated to `node` changed: they are part of what its version names (a dry-run
  /// counts them), and its mirror follows.
  void nominations_changed(NodeInfo& node) const;

  std::unique_ptr<StringPool> pool_;
  ResourceRegistry resources_;
  std::map<std::string, std::unique_ptr<NodeInfo>, std::less<>> nodes_;
  // Rebuilt on first use after nodes come or go (updateNodeInfoSnapshotList), not per node added.
  mutable std::vector<NodeInfo*> node_list_;
  mutable std::vector<std::uint64_t> node_versions_;  // the nodes' VersionMirror cells
  mutable std::vector<std::uint32_t> slots_by_position_;
  std::vector<std::uint8_t> tainted_;  // by slot
  mutable bool node_list_dirty_ = false;
  std::vector<std::string> zones_;  // node tree: zone keys in order of first appearance
  std::map<std::string, std::vector<NodeInfo*>, std::less<>> zone_nodes_;
  PodsByKey pods_;  // in pod_storage_
  // pods_ hashed: controllers, Kueue and the event loop look pods up by name hundreds of
  // thousands of times in a large replay, where the ordered index's comparisons showed in
  // profiles.
  PodsByName pod_index_;
  std::unique_ptr<PodInfoPool> pod_storage_;  // slabs of PodInfo with stable addresses
  // Indexed by interned node name (a nomination may name a node that does not exist): looked up
  // for every node in the Filter loop, where a hash lookup per node showed in profiles.
  std::vector<std::vector<PodInfo*>> nominated_;
  std::vector<BudgetInfo> budgets_;
  SelectorMap replica_set_selectors_;
  SelectorMap stateful_set_selectors_;
  ServiceSelectors service_selectors_;
  std::map<std::string, ObjectMeta, std::less<>> namespaces_;
  std::map<std::string, SchedulingWorkload, std::less<>> workloads_;  // by "namespace/name"
  std::map<std::string, PodGroup, std::less<>> pod_groups_;           // by "namespace/name"
  DraState dra_;
  mutable std::map<std::string, Labels, std::less<>> implicit_namespaces_;  // labels by name
  std::uint32_t with_affinity_ = 0;
  std::uint32_t with_required_anti_affinity_ = 0;
  std::map<std::int32_t, std::uint32_t> holding_priorities_;  // pods holding a node, by priority
  std::uint64_t generation_ = 1;
  std::uint64_t node_generation_ = 1;
  NodeObserver node_observer_;
  std::uint64_t pod_sequence_ = 0;
  // compile_pod's request and what it derives from it, once per run of pods asking alike.
  PodRequestsMemo requests_memo_;
  std::uint64_t compiled_from_ = 0;  // requests_memo_.computed() when derived
  Shared<std::vector<ResAmount>> compiled_requests_;
  std::int64_t compiled_nonzero_cpu_ = 0;
  std::int64_t compiled_nonzero_memory_ = 0;
  // compile_pod's tolerations, node selector, node affinity and host ports, with the spec parts
  // they were compiled from: a pod whose spec shares a part (a template's pods do) shares its
  // compiled form. Holding the parts keeps their identity from being reused.
  struct CompiledPlacement {
    Shared<std::vector<Toleration>> tolerations_from;
    Shared<std::vector<TolerationInfo>> tolerations;
    Labels node_selector_from;
    Shared<std::vector<std::pair<StrId, StrId>>> node_selector;
    Shared<Affinity> affinity_from;
    SharedOptional<std::vector<TermInfo>> required_terms;
    Shared<std::vector<std::pair<std::int32_t, TermInfo>>> preferred_terms;
    Shared<std::vector<Container>> containers_from;
    Shared<std::vector<HostPort>> host_ports;
  };
  CompiledPlacement placement_;
  // Each node's name by slot, the text its pods' spec.nodeName share (a million pods bound to
  // ten thousand nodes hold ten thousand names).
  std::vector<SharedText> node_names_;
  /// Sets the pod's spec.nodeName to the node's name, shared.
  void name_node(Pod& pod, const NodeInfo& node) const;
  GpuShareShapeCounts pod_shapes_;
  std::uint32_t node_slots_ = 0;
};

}  // namespace gpusched
