#pragma once
/// The scheduler's view of a node (upstream framework.NodeInfo): the Node object plus what the
/// Filter and Score loops read, precomputed with interned strings and dense resource vectors.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/framework/interned.hpp"
#include "gpusched/framework/resources.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched {

struct PodInfo;

/// A taint with interned key and value, and its precomputed untolerated-taint reason.
struct TaintInfo {
  StrId key = 0;
  StrId value = 0;
  TaintEffect effect = TaintEffect::NoSchedule;
  StrId reason = 0;  ///< "node(s) had untolerated taint {key: value}"
};

/// A host port in use or requested (upstream framework.HostPortInfo entries).
struct HostPort {
  StrId ip = 0;        ///< interned host IP; "0.0.0.0" for a wildcard
  StrId protocol = 0;  ///< interned "TCP", "UDP", "SCTP"
  std::int32_t port = 0;
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

/// Where a node's owner keeps a copy of its version: ClusterState's array of them in node-list
/// order, which the Filter loop reads without touching each node. A copied NodeInfo is detached
/// and keeps none.
class VersionMirror {
 public:
  /// The copy while the node must be judged afresh (pods are nominated to it): no version.
  static constexpr std::uint64_t kJudgeAfresh = ~std::uint64_t{0};

  VersionMirror() = default;
  VersionMirror(const VersionMirror&) noexcept {}
  VersionMirror& operator=(const VersionMirror&) noexcept { return *this; }

  void point_at(std::uint64_t* cell) noexcept { cell_ = cell; }
  /// The node's version changed: the copy follows, unless it is kJudgeAfresh.
  void follow(std::uint64_t version) const noexcept {
    if (cell_ != nullptr && *cell_ != kJudgeAfresh) *cell_ = version;
  }
  /// Pods nominated to the node came or went: while there are any, the copy is kJudgeAfresh.
  void nominated(bool any, std::uint64_t version) const noexcept {
    if (cell_ != nullptr) *cell_ = any ? kJudgeAfresh : version;
  }

 private:
  std::uint64_t* cell_ = nullptr;
};

/// A pod's hold on GPUs of a sharing node (Open-Gpu-Share's per-device pod maps).
struct GpuShareHold {
  const PodInfo* pod = nullptr;
  std::vector<std::int32_t> gpus;  ///< indices, in the order taken
  std::int32_t milli = 0;          ///< on each
};

// What the Filter and Score loops read for every node comes first, in a few cache lines, from a
// line's start: the Score plugins walk a cycle's nodes one plugin after the other, and those
// that read only the node's slot, version or taints (the scorers' memo, TaintToleration) then
// touch one line of each node, not two (a miss on `taints` was 6 % of SchedulingBasic).
struct alignas(64) NodeInfo {
  StrId name = 0;
  std::uint32_t slot = 0;  ///< index in ClusterState's node storage, never reused
  /// A number no other state of the node had (bump()) on every change of its object, pods,
  /// requests or nominated pods; restored with the state a ScopedNodeEdit restores: with `slot`
  /// it names one state of the node, so per-node results can be kept until it changes.
  std::uint64_t version = 0;
  std::vector<TaintInfo> taints;    ///< effective taints (spec + condition taints), in order
  bool unschedulable = false;       ///< spec.unschedulable
  std::int64_t allowed_pods = 0;    ///< allocatable "pods"
  std::int64_t nonzero_cpu = 0;     ///< NonZeroRequested: missing cpu requests count 100m
  std::int64_t nonzero_memory = 0;  ///< missing memory requests count 200Mi
  std::vector<PodInfo*> pods;       ///< pods holding the node: bound, not Succeeded/Failed
  ResVec allocatable;
  ResVec requested;  ///< sum of requests of the pods holding the node
  VersionMirror mirror;
  /// Labels sorted by key id; `metadata.name` is looked up through `name`.
  std::vector<std::pair<StrId, StrId>> labels;
  std::vector<HostPort> used_ports;
  /// GPU sharing (fgd-artifact.md §2.2), on a node with allocatable
  /// `alibabacloud.com/gpu-count`: per GPU the milli its pods leave free (below 0 only when the
  /// input overcommits one), the `alibabacloud.com/gpu-card-model` label, and which pods hold
  /// which GPUs. Empty elsewhere.
  std::vector<std::int32_t> gpu_free;
  std::string gpu_model;
  std::vector<GpuShareHold> gpu_holds;
  Node node;  ///< the object as the API server holds it
  /// The highest version the node has had: a state a dry-run edited is never named again.
  std::uint64_t last_version = 0;

  void bump() noexcept {
    version = ++last_version;
    mirror.follow(version);
  }

  /// The interned value of a label, or kNotInterned.
  [[nodiscard]] StrId label(StrId key) const noexcept;

  /// NodeInfo.AddPod: the pod's requests, ports and count now hold this node, and its GPU share
  /// the GPUs its gpu_share index names for this node (else those Open-Gpu-Share's best fit
  /// takes).
  void add_pod(PodInfo& pod);
  /// NodeInfo.RemovePod: the reverse of add_pod.
  void remove_pod(const PodInfo& pod);
};

/// What a ScopedNodeEdit saves of a node before its first removal. A caller doing many dry-runs
/// lends one to each edit in turn (never to two live edits), so that its storage is allocated
/// once.
struct NodeEditStorage {
  std::vector<PodInfo*> pods;
  std::vector<HostPort> used_ports;
  std::vector<GpuShareHold> gpu_holds;
};

/// Edits a node through add_pod / remove_pod and restores it when it goes out of scope, so that
/// a dry-run (preemption's victim search, nominated pods in Filter) can edit the live node
/// instead of copying it whole as upstream's NodeInfo.Snapshot() does. Scopes nest. Additions
/// only append, so undoing them truncates; the pod and port lists are saved only before the
/// first removal.
class ScopedNodeEdit {
 public:
  /// The node is not const: nodes are owned by ClusterState and only lent out as const.
  explicit ScopedNodeEdit(const NodeInfo& node) : ScopedNodeEdit(node, own_storage_) {}
  ScopedNodeEdit(const NodeInfo& node, NodeEditStorage& storage);
  ~ScopedNodeEdit();
  ScopedNodeEdit(const ScopedNodeEdit&) = delete;
  ScopedNodeEdit& operator=(const ScopedNodeEdit&) = delete;

  [[nodiscard]] const NodeInfo& node() const noexcept { return node_; }
  /// NodeInfo::add_pod on the edited node.
  void add_pod(PodInfo& pod) { node_.add_pod(pod); }
  /// NodeInfo::remove_pod on the edited node.
  void remove_pod(const PodInfo& pod);

 private:
  NodeEditStorage own_storage_;
  NodeEditStorage& saved_;
  bool saved_lists_ = false;
  NodeInfo& node_;
  std::size_t num_pods_;
  std::size_t num_ports_;
  std::size_t num_holds_;
  ResVec requested_;
  std::vector<std::int32_t> gpu_free_;
  std::int64_t nonzero_cpu_;
  std::int64_t nonzero_memory_;
  std::uint64_t version_;
};

}  // namespace gpusched
