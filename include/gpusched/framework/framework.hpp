#pragma once
/// Runs one profile's plugins at each extension point
/// (pkg/scheduler/framework/runtime/framework.go).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/error.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched {

class ClusterState;
class Framework;
class Registry;
class Rng;
class Scheduler;
struct Status;

/// Effects a plugin asks of the rest of the simulation.
class PreemptionSink {
 public:
  virtual ~PreemptionSink() = default;
  /// prepareCandidate: evicts `victims` from `node` for `preemptor` (DisruptionTarget, Preempted
  /// event, graceful deletion) and clears the nominations to `node` of lower-priority pods.
  virtual void preempt(const PodInfo& preemptor, const NodeInfo& node,
                       const std::vector<PodInfo*>& victims) = 0;
};

/// What the scheduler lends its plugins beyond the cluster (framework.Handle's GetWaitingPod and
/// Activate, and the scheduler's clock).
class SchedulerServices {
 public:
  virtual ~SchedulerServices() = default;
  /// WaitingPod.Allow(plugin) of the pod (by uid) waiting at Permit; nothing when none waits.
  virtual void allow_waiting_pod(std::string_view uid, std::string_view plugin) = 0;
  /// PodActivator.Activate: each pod waiting in the unschedulable pool or the backoff queue moves
  /// to the active queue.
  virtual void activate(std::span<PodInfo* const> pods) = 0;
  /// The scheduler's current (virtual) time.
  [[nodiscard]] virtual TimeMs now() const = 0;
  /// An object the scheduler itself wrote through the API server (a claim's status at PreBind)
  /// comes back from its informer: the event moves the pods waiting for it.
  virtual void cluster_event(const ClusterEvent& event, const EventObjects& objects) = 0;
};

/// A Permit plugin's request to hold the pod (RunPermitPlugins' pluginsWaitTime).
struct PermitWait {
  std::string_view plugin;
  TimeMs timeout = 0;  ///< capped at 15 minutes (maxTimeout)
};

/// What plugins may use: the cluster, the random source, the mirrored release, and the sink for
/// preemption's effects.
struct Handle {
  ClusterState& cluster;
  Rng& rng;
  KubernetesVersion version;
  const SchedulerConfig& config;
  PreemptionSink& preemption;
  Framework* framework = nullptr;          ///< the framework the plugin belongs to (dry-runs)
  SchedulerServices* scheduler = nullptr;  ///< the scheduler running the framework, if any
};

/// A profile the framework cannot run: a plugin the registry lacks, a factory that makes no
/// plugin of its name, more than 64 plugins, no QueueSort or no Bind plugin. An InputError placed
/// at `SchedulerConfig::profiles` `/<index>`; a simulation places it in its scenario instead
/// (`/scheduler/profiles/<index>`).
class ProfileError : public InputError {
 public:
  ProfileError(std::size_t index, std::string reason);
  /// The profile's index in SchedulerConfig::profiles.
  [[nodiscard]] std::size_t index() const noexcept { return index_; }

 private:
  std::size_t index_;
};

class Framework {
 public:
  /// Builds the profile's plugin lists from the default plugins and the profile's overrides,
  /// each plugin made by its factory in `registry`. Throws ProfileError (index 0: the Scheduler
  /// gives the profile's own) when the profile cannot run.
  Framework(const Profile& profile, Handle handle, const Registry& registry);
  ~Framework();
  Framework(const Framework&) = delete;
  Framework& operator=(const Framework&) = delete;

  [[nodiscard]] const Profile& profile() const noexcept { return profile_; }
  [[nodiscard]] Handle& handle() noexcept { return handle_; }
  [[nodiscard]] std::size_t num_plugins() const noexcept { return plugins_.size(); }
  /// The profile's plugin named `name`, or nullptr.
  [[nodiscard]] Plugin* find_plugin(std::string_view name) const noexcept;

  [[nodiscard]] const QueueSortPlugin& queue_sort() const { return *queue_sort_; }
  [[nodiscard]] bool has_filter_plugins() const noexcept { return !filter_.empty(); }
  [[nodiscard]] bool has_post_filter_plugins() const noexcept { return !post_filter_.empty(); }
  [[nodiscard]] bool has_score_plugins() const noexcept { return !score_.empty(); }
  /// The Score plugins and their weights, in profile order.
  [[nodiscard]] std::span<const std::pair<ScorePlugin*, std::int64_t>> score_plugins()
      const noexcept {
    return score_;
  }

  /// RunPreEnqueuePlugins: Success, or the first rejection.
  [[nodiscard]] Status run_pre_enqueue(const PodInfo& pod) const;

  /// RunPreFilterPlugins: Success, or the first rejection. `result` is the intersection of the
  /// PreFilterResults; `narrowing` lists the plugins that narrowed it. Sets skip flags in
  /// `state`.
  [[nodiscard]] Status run_pre_filter(CycleState& state, const PodInfo& pod,
                                      PreFilterResult& result, std::vector<std::string>& narrowing);

  /// RunFilterPlugins: the first failing plugin's status, in profile order, from the active
  /// (not skipped) Filter plugin `first` on.
  [[nodiscard]] Code run_filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                Status& status, std::size_t first = 0) const;

  /// RunFilterPluginsWithNominatedPods: when pods of equal or higher priority are nominated to
  /// the node, the filters run first with them added (the pod must not take room freed for
  /// them), then, if that passes, without them.
  [[nodiscard]] Code run_filter_with_nominated(const CycleState& state, const PodInfo& pod,
                                               const NodeInfo& node, Status& status,
                                               std::size_t first = 0) const;

  /// Every Filter plugin's verdict on `node`, in profile order (explain's per-node table, where
  /// RunFilterPlugins stops at the first failure): a plugin PreFilter skipped reads Skip. With
  /// pods nominated to the node that the pod must yield to, each plugin is judged as
  /// RunFilterPluginsWithNominatedPods would: with those pods added, and when that passes,
  /// without them; `with_nominated` tells whether they were counted.
  void filter_verdicts(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                       std::vector<Status>& verdicts, bool& with_nominated) const;

  /// Appends to `key` what the active Filter plugins' verdicts on a node depend on besides the
  /// node: the pod's priority (which decides the pods nominated to it that count) and each
  /// plugin's FilterPlugin::append_node_static_key, else append_node_dynamic_key; false when
  /// some plugin keys neither. Pods with equal keys get the same verdicts on a node at one
  /// version (which covers the pods nominated to it), however a dry-run edits it, unless the pod
  /// is itself nominated there.
  [[nodiscard]] bool append_node_filter_key(const CycleState& state, const PodInfo& pod,
                                            std::string& key) const;

  /// RunPreFilterExtensionAddPod / RemovePod: `added` / `removed` joins or leaves `node` in a
  /// dry-run; each PreFilter plugin whose Filter is not skipped updates its data in `state`.
  void run_pre_filter_extension_add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                                        const NodeInfo& node) const;
  void run_pre_filter_extension_remove_pod(CycleState& state, const PodInfo& pod,
                                           const PodInfo& removed, const NodeInfo& node) const;

  /// RunPostFilterPlugins: Success from the first plugin that succeeds; an
  /// UnschedulableAndUnresolvable or Error status stops; Unschedulable messages are collected.
  [[nodiscard]] PostFilterResult run_post_filter(CycleState& state, const PodInfo& pod,
                                                 const Diagnosis& diagnosis);

  /// One Score plugin's normalized scores for the nodes of a run_score call, and its weight.
  struct PluginScores {
    std::string_view plugin;
    std::int64_t weight = 0;
    std::vector<std::int64_t> scores;
  };
  /// RunPreScorePlugins then RunScorePlugins: weighted totals per node, in `totals`; when
  /// `per_plugin` is given, each plugin that scored adds its normalized scores there.
  void run_score(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                 std::span<std::int64_t> totals, std::vector<PluginScores>* per_plugin = nullptr);
  /// run_score's totals up to an amount every node shares, for a caller that reads only their
  /// order and ties (selectHost): a plugin whose scores are alike on all the nodes
  /// (ScorePlugin::scores_alike) is left out, except by the reference engine.
  void rank_nodes(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                  std::span<std::int64_t> totals);

  [[nodiscard]] Code run_reserve(CycleState& state, const PodInfo& pod, NodeInfo& node);
  void run_unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node);
  /// RunPermitPlugins: the first rejection or error; else Wait when some plugins asked to
  /// wait (each in `waits`, its timeout capped at 15 minutes); else Success.
  [[nodiscard]] Status run_permit(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                  std::vector<PermitWait>& waits);
  /// RunPreBindPlugins: Success, or the first failure as `running PreBind plugin "<name>":
  /// <message>` in `message`.
  [[nodiscard]] Code run_pre_bind(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                  std::string& message);
  [[nodiscard]] Code run_bind(CycleState& state, PodInfo& pod, NodeInfo& node);

  /// Every event some plugin registered, with the plugin.
  struct Registration {
    ClusterEventWithHint event;
    const EnqueueExtensions* plugin;
  };
  [[nodiscard]] const std::vector<Registration>& registrations() const noexcept {
    return registrations_;
  }

  /// A plugin by name, if the profile has it.
  [[nodiscard]] Plugin* find(std::string_view name) const noexcept;

 private:
  friend class Scheduler;  // the cycle's Filter loop prefetches
  /// For a Filter loop at `nodes[at]`, going on round the list: starts loading what
  /// run_filter_with_nominated will read for the next nodes. Nodes lie scattered in memory and
  /// their nominated pods further on, so the loop would otherwise wait for each in turn.
  void prefetch_filter_inputs(std::span<NodeInfo* const> nodes, std::size_t at) const;

  /// The distinct rejections a table of kept Filter verdicts points at. `statuses` is reserved
  /// to its capacity up front, so a kept rejection keeps its address while the table lasts.
  struct KeptRejections {
    std::vector<Status> statuses;
    /// Whether `status` is one of `statuses`.
    [[nodiscard]] bool keeps(const Status* status) const noexcept {
      return status >= statuses.data() && status < statuses.data() + statuses.size();
    }
    /// The index of `status` in `statuses`, added when new; nullopt when it is new and
    /// `capacity` are kept already.
    [[nodiscard]] std::optional<std::size_t> keep(const Status& status, std::size_t capacity);
  };
  /// The verdicts of the node-static Filter plugins (FilterPlugin::append_node_static_key) that
  /// lead the active ones, for every pod with the same key, per position in the cluster's node
  /// list: a Filter loop judges most nodes by a look-up (most fail there, on a flavor's node
  /// selector or a taint) and runs only the later plugins on the others.
  struct StaticVerdicts : KeptRejections {
    static constexpr std::uint16_t kUnjudged = 0;
    static constexpr std::uint16_t kPassed = 1;
    static constexpr std::uint16_t kRejected = 2;  ///< + index in `statuses`
    std::size_t plugins = 0;                       ///< how many active Filter plugins they cover
    std::vector<std::uint16_t> by_position;
    /// Per position rejected by a kept status: where the run of nodes it rejects alike ends
    /// (one past the last); 0 while not yet known.
    std::vector<std::uint32_t> run_end;
  };
  /// The pod's verdicts, or null when the first active Filter plugin is not node-static.
  [[nodiscard]] StaticVerdicts* static_verdicts(const CycleState& state, const PodInfo& pod) const;
  /// The static plugins' rejection of the node at `position` of the node list, judged on first
  /// use; null when they pass it. A rejection in `statuses` stays put while the verdicts last;
  /// one the table had no room for is valid until the next call.
  /// Inline while the node is judged: the Filter loop asks for each node it visits.
  [[nodiscard]] const Status* static_rejection(StaticVerdicts& verdicts, const CycleState& state,
                                               const PodInfo& pod, const NodeInfo& node,
                                               std::size_t position) const {
    if (position < verdicts.by_position.size()) {
      const std::uint16_t verdict = verdicts.by_position[position];
      if (verdict == StaticVerdicts::kPassed) return nullptr;
      if (verdict >= StaticVerdicts::kRejected)
        return &verdicts.statuses[verdict - StaticVerdicts::kRejected];
    }
    return judge_static(verdicts, state, pod, node, position);
  }
  /// static_rejection for a node not judged yet.
  [[nodiscard]] const Status* judge_static(StaticVerdicts& verdicts, const CycleState& state,
                                           const PodInfo& pod, const NodeInfo& node,
                                           std::size_t position) const;

  /// The verdicts of the active Filter plugins from `first` on when each of them keys its
  /// verdict (FilterPlugin::append_node_dynamic_key), for every pod with the same key, per
  /// position in the cluster's node list and kept while the node's version stands: pods of a
  /// Job ask alike, and a full fleet rejects them on the same nodes cycle after cycle.
  struct DynamicVerdicts : KeptRejections {
    static constexpr std::uint32_t kUnjudged = 0;
    static constexpr std::uint32_t kPassed = 1;
    static constexpr std::uint32_t kRejected = 2;  ///< + index in `statuses`
    struct Entry {
      std::uint64_t version = 0;  ///< NodeInfo::version when judged
      std::uint32_t verdict = kUnjudged;
    };
    std::vector<Entry> by_position;
  };
  /// The verdicts of the pods with the pod's priority and key, or null when some active Filter
  /// plugin from `first` on keys none.
  [[nodiscard]] DynamicVerdicts* dynamic_verdicts(const CycleState& state, const PodInfo& pod,
                                                  std::size_t first) const;
  /// run_filter_with_nominated from the active Filter plugin `first` on, for the node at
  /// `position` of the node list, whose ClusterState::node_versions() entry is `version`: null
  /// when it passes, else its rejection. A node with nominated pods (kJudgeAfresh) has its verdict
  /// kept by the node's own version, which they are part of (the key holds the pod's priority,
  /// which decides the ones that count), unless the pod is one of them. A rejection in `statuses`
  /// stays put while the verdicts last; another is valid until the next call.
  /// The node is read only when its verdict is not kept.
  [[nodiscard]] const Status* dynamic_rejection(DynamicVerdicts& verdicts, const CycleState& state,
                                                const PodInfo& pod, const NodeInfo& node,
                                                std::size_t position, std::size_t first,
                                                std::uint64_t version) const {
    if (position < verdicts.by_position.size()) {
      const DynamicVerdicts::Entry& entry = verdicts.by_position[position];
      // An entry's version is a node's, never kJudgeAfresh.
      if (entry.verdict != DynamicVerdicts::kUnjudged && entry.version == version) {
        return entry.verdict == DynamicVerdicts::kPassed
                   ? nullptr
                   : &verdicts.statuses[entry.verdict - DynamicVerdicts::kRejected];
      }
    }
    return judge_dynamic(verdicts, state, pod, node, position, first,
                         version == VersionMirror::kJudgeAfresh);
  }
  /// dynamic_rejection for a node without a verdict at its version.
  [[nodiscard]] const Status* judge_dynamic(DynamicVerdicts& verdicts, const CycleState& state,
                                            const PodInfo& pod, const NodeInfo& node,
                                            std::size_t position, std::size_t first,
                                            bool nominated) const;

  Profile profile_;
  Handle handle_;
  std::vector<std::unique_ptr<Plugin>> plugins_;
  const QueueSortPlugin* queue_sort_ = nullptr;
  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<std::pair<ScorePlugin*, std::int64_t>> score_;  // plugin, weight
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<Registration> registrations_;
  std::vector<std::int64_t> scratch_;  // per-plugin scores of one cycle
  /// The Filter plugins (with their names) and the PreFilter plugins whose extensions run, for
  /// one set of skip flags: run for every node, they are worked out when the flags change.
  struct ActivePlugins {
    std::optional<std::uint64_t> skip_flags;
    std::vector<std::pair<const FilterPlugin*, std::string_view>> filters;
    std::vector<const PreFilterPlugin*> pre_filters;
  };
  [[nodiscard]] const ActivePlugins& active_plugins(const CycleState& state) const {
    if (active_.skip_flags != state.filter_skip_flags()) update_active_plugins(state);
    return active_;
  }
  void update_active_plugins(const CycleState& state) const;
  /// run_score, or rank_nodes when `ranking`.
  void score(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
             std::span<std::int64_t> totals, std::vector<PluginScores>* per_plugin, bool ranking);
  /// Runs `judge(state, node)` with the pods nominated to `node` that `pod` must yield to added
  /// (addGENominatedPods), on the node edited in place; false, without running it, when there
  /// are none.
  template <typename Judge>
  bool judge_with_nominated(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Judge judge) const;
  mutable ActivePlugins active_;
  // run_filter_with_nominated's state with the nominated pods, kept to reuse its slot storage.
  mutable CycleState nominated_state_;
  // By pod key; dropped when a node changes (ClusterState::node_generation) or too many keys
  // pile up.
  mutable std::unordered_map<std::string, StaticVerdicts> static_verdicts_;
  mutable std::uint64_t static_generation_ = 0;
  mutable std::string static_key_;
  mutable Status static_status_;
  // By key, as the static verdicts.
  mutable std::unordered_map<std::string, DynamicVerdicts> dynamic_verdicts_;
  mutable std::uint64_t dynamic_generation_ = 0;
  mutable std::string dynamic_key_;
  mutable Status dynamic_status_;
};

}  // namespace gpusched
