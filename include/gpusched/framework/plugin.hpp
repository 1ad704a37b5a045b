#pragma once
/// Scheduling framework extension points (pkg/scheduler/framework/interface.go). One plugin
/// implements several points, exactly as upstream; the Framework calls them in profile order.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/framework/cluster_event.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/framework/status.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched {

struct Diagnosis;

class Plugin {
 public:
  virtual ~Plugin() = default;
  /// The upstream plugin name, verbatim ("NodeResourcesFit").
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  /// This plugin's CycleState slot, assigned by the Framework.
  [[nodiscard]] std::size_t slot() const noexcept { return slot_; }
  void set_slot(std::size_t slot) noexcept { slot_ = slot; }

 private:
  std::size_t slot_ = 0;
};

/// Gates a pod before it enters the active queue (SchedulingGates, queues, gangs).
class PreEnqueuePlugin : public virtual Plugin {
 public:
  /// Success lets the pod in; a rejection keeps it in the unschedulable pool, its reasons saying
  /// why.
  [[nodiscard]] virtual Status pre_enqueue(const PodInfo& pod) const = 0;
};

/// Orders the active queue.
class QueueSortPlugin : public virtual Plugin {
 public:
  /// Whether `a` goes before `b`; `*_timestamp` is when each was last added to the queue.
  [[nodiscard]] virtual bool less(const PodInfo& a, std::int64_t a_timestamp, const PodInfo& b,
                                  std::int64_t b_timestamp) const = 0;
};

/// Node names a PreFilter narrows the search to; nullopt: all nodes.
struct PreFilterResult {
  std::optional<std::vector<StrId>> node_names;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  /// Success, Skip (its Filter is skipped), or a rejection with its reasons. May narrow
  /// `result`.
  [[nodiscard]] virtual Status pre_filter(CycleState& state, const PodInfo& pod,
                                          PreFilterResult& result) = 0;
  /// PreFilterExtensions for preemption dry-runs; plugins without per-cycle pod data need none.
  virtual void add_pod(CycleState& /*state*/, const PodInfo& /*pod*/, const PodInfo& /*added*/,
                       const NodeInfo& /*node*/) const {}
  virtual void remove_pod(CycleState& /*state*/, const PodInfo& /*pod*/, const PodInfo& /*removed*/,
                          const NodeInfo& /*node*/) const {}
};

class FilterPlugin : public virtual Plugin {
 public:
  /// Success, or a failure code with its reasons appended to `reasons`.
  [[nodiscard]] virtual Code filter(const CycleState& state, const PodInfo& pod,
                                    const NodeInfo& node, Reasons& reasons) const = 0;
  /// A Filter whose verdict reads only the pod's own fields and the node's object (name,
  /// labels, taints, unschedulable), never the pods on the node nor anything else of the cycle,
  /// may say so: it appends to `key` every pod field its verdict reads and returns true. The
  /// framework then judges a node once for all pods with the same key, until a node changes.
  /// The default, false, has the Filter run for every pod and node.
  [[nodiscard]] virtual bool append_node_static_key(const PodInfo& /*pod*/,
                                                    std::string& /*key*/) const {
    return false;
  }
  /// A Filter whose verdict reads only some of the pod's own fields and what NodeInfo::version
  /// tracks of the node (its object, pods, requests and ports), never the cycle's state nor
  /// other nodes, may say so the same way: it appends those pod fields to `key` and returns
  /// true. The framework then keeps a node's verdict for all pods with the same key and
  /// priority (which decides the nominated pods that count) until the node's version changes,
  /// the pods nominated to it included; DefaultPreemption keeps its victim searches so too. A
  /// verdict must therefore hold on the node as a dry-run edits it (pods removed or added).
  [[nodiscard]] virtual bool append_node_dynamic_key(const PodInfo& /*pod*/,
                                                     std::string& /*key*/) const {
    return false;
  }
  /// For explain: what this plugin's rejection of `node` rests on, in plain words (the devices
  /// DynamicResources weighed); "" when the reasons say it all. Called only after the plugin
  /// rejected the node in this cycle.
  [[nodiscard]] virtual std::string explain_rejection(const CycleState& /*state*/,
                                                      const PodInfo& /*pod*/,
                                                      const NodeInfo& /*node*/) const {
    return {};
  }
};

/// What a PostFilter concluded: its code, message, and a node to nominate ("" clears it).
struct PostFilterResult {
  Code code = Code::Unschedulable;
  std::string message;
  std::optional<std::string> nominated_node;
};

class PostFilterPlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                                     const Diagnosis& diagnosis) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  /// Success, or Skip to leave this plugin's Score out for the cycle.
  [[nodiscard]] virtual Code pre_score(CycleState& state, const PodInfo& pod,
                                       std::span<const NodeInfo* const> nodes) = 0;
};

class ScorePlugin : public virtual Plugin {
 public:
  /// 0..100 (MaxNodeScore) after normalization.
  [[nodiscard]] virtual std::int64_t score(const CycleState& state, const PodInfo& pod,
                                           const NodeInfo& node) const = 0;
  /// score() for each node, into `scores`. Plugins with per-pod work override it to do that
  /// work once per cycle instead of once per node; the result must be the same.
  virtual void score_nodes(const CycleState& state, const PodInfo& pod,
                           std::span<const NodeInfo* const> nodes,
                           std::span<std::int64_t> scores) const {
    for (std::size_t i = 0; i < nodes.size(); ++i) scores[i] = score(state, pod, *nodes[i]);
  }
  /// NormalizeScore over the feasible nodes' scores; the default leaves them as they are.
  virtual void normalize(const CycleState& /*state*/, const PodInfo& /*pod*/,
                         std::span<std::int64_t> /*scores*/) const {}
  /// Whether this cycle's normalized scores are the same on every one of `nodes` (the pod gives
  /// the plugin nothing to weigh there), known without scoring them: a ranking of the nodes then
  /// needs none of them (Framework::rank_nodes). Called after PreScore.
  [[nodiscard]] virtual bool scores_alike(const CycleState& /*state*/, const PodInfo& /*pod*/,
                                          std::span<const NodeInfo* const> /*nodes*/) const {
    return false;
  }
};

/// Reserve / Unreserve: claim node-level state (devices, volumes) before binding.
class ReservePlugin : public virtual Plugin {
 public:
  [[nodiscard]] virtual Code reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) = 0;
  virtual void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) = 0;
};

/// Permit: approve, deny or hold a reserved pod (gang scheduling waits here).
class PermitPlugin : public virtual Plugin {
 public:
  /// Success, a rejection, or Wait with how long the pod may wait in `timeout` (virtual ms).
  [[nodiscard]] virtual Status permit(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                      TimeMs& timeout) = 0;
};

/// PreBind: API writes before the binding (DynamicResources writes its claims' allocations).
class PreBindPlugin : public virtual Plugin {
 public:
  /// Success, Skip, or an Error whose reasons say what failed.
  [[nodiscard]] virtual Status pre_bind(CycleState& state, const PodInfo& pod,
                                        const NodeInfo& node) = 0;
};

class BindPlugin : public virtual Plugin {
 public:
  /// Success once the pod is bound; Skip passes to the next bind plugin.
  [[nodiscard]] virtual Code bind(CycleState& state, PodInfo& pod, NodeInfo& node) = 0;
};

/// An event a plugin cares about, and whether it has a queueing hint for it (without one, the
/// event always requeues, as upstream's default hint).
struct ClusterEventWithHint {
  ClusterEvent event;
  bool has_hint = false;
};

/// EnqueueExtensions: which events can make a pod this plugin rejected schedulable.
class EnqueueExtensions : public virtual Plugin {
 public:
  [[nodiscard]] virtual std::vector<ClusterEventWithHint> events_to_register() const = 0;
  /// The hint for an event registered with has_hint.
  [[nodiscard]] virtual QueueingHint queueing_hint(const ClusterEvent& /*event*/,
                                                   const PodInfo& /*pod*/,
                                                   const EventObjects& /*objects*/) const {
    return QueueingHint::Queue;
  }
};

}  // namespace gpusched
