#include "gpusched/framework/framework.hpp"

#include <algorithm>
#include <optional>

#include "config/default_plugins.hpp"
#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/registry.hpp"
#include "model/go_text.hpp"

namespace gpusched {
namespace {

bool disables(const PluginSet& set, std::string_view name) {
  return std::any_of(set.disabled.begin(), set.disabled.end(),
                     [&](const PluginRef& p) { return p.name == "*" || p.name == name; });
}

const PluginRef* enabled_in(const PluginSet& set, std::string_view name) {
  for (const PluginRef& p : set.enabled) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// The plugins of one extension point: explicitly enabled ones first, in their order, then the
// MultiPoint ones not disabled at this point (expandMultiPointPlugins' ordering).
template <class Point>
std::vector<Point*> expand(const std::vector<std::unique_ptr<Plugin>>& instances,
                           const std::vector<std::string>& multi_point, const PluginSet& point) {
  std::vector<Point*> out;
  auto add = [&](std::string_view name) {
    for (const auto& p : instances) {
      if (p->name() != name) continue;
      if (auto* typed = dynamic_cast<Point*>(p.get());
          typed != nullptr && std::find(out.begin(), out.end(), typed) == out.end()) {
        out.push_back(typed);
      }
    }
  };
  for (const PluginRef& p : point.enabled) add(p.name);
  for (const std::string& name : multi_point) {
    if (!disables(point, name)) add(name);
  }
  return out;
}

}  // namespace

ProfileError::ProfileError(std::size_t index, std::string reason)
    : InputError("SchedulerConfig::profiles", "/" + std::to_string(index), std::move(reason)),
      index_(index) {}

Framework::Framework(const Profile& profile, Handle handle, const Registry& registry)
    : profile_(profile), handle_(handle) {
  handle_.framework = this;
  const PluginsConfig& cfg = profile_.plugins;
  // MultiPoint: the defaults minus the disabled ones, plus the enabled ones (a weight given for
  // a default plugin overrides its default weight).
  std::vector<PluginRef> multi;
  for (const PluginRef& p : default_plugins(handle_.version, handle_.config.feature_gates)) {
    if (!disables(cfg.multi_point, p.name)) multi.push_back(p);
  }
  for (const PluginRef& p : cfg.multi_point.enabled) {
    auto it = std::find_if(multi.begin(), multi.end(),
                           [&](const PluginRef& m) { return m.name == p.name; });
    if (it == multi.end()) {
      multi.push_back(p);
    } else if (p.weight != 0) {
      it->weight = p.weight;
    }
  }
  std::vector<std::string> multi_names;
  for (const PluginRef& p : multi) multi_names.push_back(p.name);

  auto instantiate = [&](const std::string& name) {
    for (const auto& p : plugins_) {
      if (p->name() == name) return;
    }
    const PluginFactory* factory = registry.find(name);
    // The loader refuses unknown names, but a Scenario made in code or a registry other than
    // the loader's reaches here.
    if (factory == nullptr) throw ProfileError(0, "unknown plugin \"" + name + "\"");
    std::unique_ptr<Plugin> plugin = (*factory)(handle_, profile_);
    if (!plugin || plugin->name() != name)
      throw ProfileError(0, "the factory of plugin \"" + name + "\" made no plugin of that name");
    if (plugins_.size() == CycleState::kMaxPlugins)
      throw ProfileError(0, "more than 64 plugins in profile \"" + profile_.scheduler_name + "\"");
    plugin->set_slot(plugins_.size());
    plugins_.push_back(std::move(plugin));
  };
  for (const std::string& name : multi_names) instantiate(name);
  for (const PluginSet* set :
       {&cfg.queue_sort, &cfg.pre_filter, &cfg.filter, &cfg.post_filter, &cfg.pre_score, &cfg.score,
        &cfg.reserve, &cfg.permit, &cfg.pre_bind, &cfg.bind}) {
    for (const PluginRef& p : set->enabled) instantiate(p.name);
  }

  const PluginSet none;
  auto sorts = expand<QueueSortPlugin>(plugins_, multi_names, cfg.queue_sort);
  if (sorts.empty())
    throw ProfileError(0, "profile \"" + profile_.scheduler_name + "\" has no QueueSort plugin");
  queue_sort_ = sorts.front();
  pre_enqueue_ = expand<PreEnqueuePlugin>(plugins_, multi_names, none);
  pre_filter_ = expand<PreFilterPlugin>(plugins_, multi_names, cfg.pre_filter);
  filter_ = expand<FilterPlugin>(plugins_, multi_names, cfg.filter);
  post_filter_ = expand<PostFilterPlugin>(plugins_, multi_names, cfg.post_filter);
  pre_score_ = expand<PreScorePlugin>(plugins_, multi_names, cfg.pre_score);
  for (ScorePlugin* p : expand<ScorePlugin>(plugins_, multi_names, cfg.score)) {
    std::int64_t weight = 0;
    if (const PluginRef* ref = enabled_in(cfg.score, p->name())) weight = ref->weight;
    if (weight == 0) {
      for (const PluginRef& m : multi) {
        if (m.name == p->name()) weight = m.weight;
      }
    }
    score_.emplace_back(p, weight == 0 ? 1 : weight);  // a zero weight means 1, as upstream
  }
  reserve_ = expand<ReservePlugin>(plugins_, multi_names, cfg.reserve);
  permit_ = expand<PermitPlugin>(plugins_, multi_names, cfg.permit);
  pre_bind_ = expand<PreBindPlugin>(plugins_, multi_names, cfg.pre_bind);
  bind_ = expand<BindPlugin>(plugins_, multi_names, cfg.bind);
  if (bind_.empty())
    throw ProfileError(0, "profile \"" + profile_.scheduler_name + "\" has no Bind plugin");
  for (const auto& p : plugins_) {
    if (const auto* ext = dynamic_cast<const EnqueueExtensions*>(p.get())) {
      for (const ClusterEventWithHint& e : ext->events_to_register())
        registrations_.push_back({e, ext});
    }
  }
}

Framework::~Framework() = default;

Plugin* Framework::find(std::string_view name) const noexcept {
  for (const auto& p : plugins_) {
    if (p->name() == name) return p.get();
  }
  return nullptr;
}

Plugin* Framework::find_plugin(std::string_view name) const noexcept {
  for (const auto& plugin : plugins_) {
    if (plugin->name() == name) return plugin.get();
  }
  return nullptr;
}

Status Framework::run_pre_enqueue(const PodInfo& pod) const {
  for (const PreEnqueuePlugin* p : pre_enqueue_) {
    Status status = p->pre_enqueue(pod);
    if (!status.ok()) {
      status.plugin = p->name();
      return status;
    }
  }
  return {};
}

Status Framework::run_pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result,
                                 std::vector<std::string>& narrowing) {
  for (PreFilterPlugin* p : pre_filter_) {
    PreFilterResult r;
    Status status = p->pre_filter(state, pod, r);
    if (status.code == Code::Skip) {
      state.skip_filter(p->slot());
      continue;
    }
    if (!status.ok()) {
      status.plugin = p->name();
      return status;
    }
    if (!r.node_names) continue;
    narrowing.emplace_back(p->name());
    if (!result.node_names) {
      result.node_names = std::move(r.node_names);
    } else {
      std::vector<StrId> both;
      std::sort(r.node_names->begin(), r.node_names->end());
      std::sort(result.node_names->begin(), result.node_names->end());
      std::set_intersection(result.node_names->begin(), result.node_names->end(),
                            r.node_names->begin(), r.node_names->end(), std::back_inserter(both));
      result.node_names = std::move(both);
    }
    if (result.node_names->empty()) {
      // RunPreFilterPlugins: an empty intersection rejects the pod.
      std::sort(narrowing.begin(), narrowing.end());
      std::string message;
      if (narrowing.size() == 1) {
        message = "node(s) didn't satisfy plugin " + narrowing.front();
      } else {
        message = "node(s) didn't satisfy plugin(s) [";
        for (std::size_t i = 0; i < narrowing.size(); ++i) message += (i ? " " : "") + narrowing[i];
        message += "] simultaneously";
      }
      return Status{
          Code::UnschedulableAndUnresolvable, p->name(), {handle_.cluster.pool().intern(message)}};
    }
  }
  return {};
}

void Framework::update_active_plugins(const CycleState& state) const {
  active_.skip_flags = state.filter_skip_flags();
  active_.filters.clear();
  for (const FilterPlugin* p : filter_) {
    if (!state.filter_skipped(p->slot())) active_.filters.emplace_back(p, p->name());
  }
  active_.pre_filters.clear();
  for (const PreFilterPlugin* p : pre_filter_) {
    if (!state.filter_skipped(p->slot())) active_.pre_filters.push_back(p);
  }
}

namespace {

// RunFilterPlugins over the active Filter plugins [first, end): the first failure's status.
Code first_failure(std::span<const std::pair<const FilterPlugin*, std::string_view>> filters,
                   std::size_t first, std::size_t end, const CycleState& state, const PodInfo& pod,
                   const NodeInfo& node, Status& status) {
  for (std::size_t i = first; i < end; ++i) {
    const auto& [plugin, name] = filters[i];
    status.reasons.clear();
    const Code code = plugin->filter(state, pod, node, status.reasons);
    if (code != Code::Success) {
      status.code = code;
      status.plugin = name;
      return code;
    }
  }
  status.code = Code::Success;
  return Code::Success;
}

}  // namespace

Code Framework::run_filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                           Status& status, std::size_t first) const {
  const auto& filters = active_plugins(state).filters;
  return first_failure(filters, first, filters.size(), state, pod, node, status);
}

// Each step reads only what an earlier one fetched: a node's first fields, then its list of
// nominated pods, then those pods. One step is a few nodes' work apart.
void Framework::prefetch_filter_inputs(std::span<NodeInfo* const> nodes, std::size_t at) const {
  auto ahead = [&](std::size_t steps) -> const NodeInfo& {
    const std::size_t next = at + steps;
    return *nodes[next < nodes.size() ? next : next % nodes.size()];
  };
  const NodeInfo& far = ahead(6);
  __builtin_prefetch(&far.name);
  __builtin_prefetch(&far.pods);
  __builtin_prefetch(&far.requested);
  __builtin_prefetch(&far.taints);
  __builtin_prefetch(handle_.cluster.nominated_pods(ahead(4).name).data());
  for (const PodInfo* other : handle_.cluster.nominated_pods(ahead(2).name)) {
    __builtin_prefetch(&other->priority);
    __builtin_prefetch(&other->nonzero_memory);
    __builtin_prefetch(&other->host_ports);
  }
}

template <typename Judge>
bool Framework::judge_with_nominated(const CycleState& state, const PodInfo& pod,
                                     const NodeInfo& node, Judge judge) const {
  const auto& nominated = handle_.cluster.nominated_pods(node.name);
  // addGENominatedPods: only pods the incoming one must yield to.
  auto yields_to = [&](const PodInfo* other) {
    return other != &pod && other->priority >= pod.priority;
  };
  if (std::none_of(nominated.begin(), nominated.end(), yields_to)) return false;
  ScopedNodeEdit edit(node);
  CycleState& state_with = nominated_state_;
  state_with = state;
  for (PodInfo* other : nominated) {
    if (!yields_to(other)) continue;
    edit.add_pod(*other);
    run_pre_filter_extension_add_pod(state_with, pod, *other, edit.node());
  }
  judge(state_with, edit.node());
  state_with.clear_data();
  return true;
}

Code Framework::run_filter_with_nominated(const CycleState& state, const PodInfo& pod,
                                          const NodeInfo& node, Status& status,
                                          std::size_t first) const {
  Code code = Code::Success;
  judge_with_nominated(state, pod, node, [&](const CycleState& with, const NodeInfo& edited) {
    code = run_filter(with, pod, edited, status, first);
  });
  if (code != Code::Success) return code;
  return run_filter(state, pod, node, status, first);
}

namespace {

// Enough for every flavor and toleration set of a fleet; a run where every pod differs starts
// over instead of growing without bound. Rejections are few (a node selector's, a taint's); nodes
// rejected otherwise are judged afresh each time.
constexpr std::size_t kMaxStaticKeys = 256;
constexpr std::size_t kMaxStaticRejections = 64;
// Dynamic keys are the pods' requests: a fleet's Jobs ask for a few shapes. Each key keeps an
// entry per node, so fewer of them.
constexpr std::size_t kMaxDynamicKeys = 64;
constexpr std::size_t kMaxDynamicRejections = 64;

}  // namespace

std::optional<std::size_t> Framework::KeptRejections::keep(const Status& status,
                                                           std::size_t capacity) {
  auto same = [&](const Status& s) {
    return s.code == status.code && s.plugin == status.plugin && s.reasons == status.reasons;
  };
  auto it = std::find_if(statuses.begin(), statuses.end(), same);
  if (it == statuses.end()) {
    if (statuses.size() >= capacity) return std::nullopt;
    it = statuses.insert(statuses.end(), status);
  }
  return static_cast<std::size_t>(it - statuses.begin());
}

bool Framework::append_node_filter_key(const CycleState& state, const PodInfo& pod,
                                       std::string& key) const {
  const ActivePlugins& active = active_plugins(state);
  const std::uint64_t flags = active.skip_flags.value_or(0);
  key.append(reinterpret_cast<const char*>(&flags), sizeof flags);
  // Which of the pods nominated to a node count (addGENominatedPods).
  key.append(reinterpret_cast<const char*>(&pod.priority), sizeof pod.priority);
  for (const auto& [plugin, name] : active.filters) {
    const std::size_t size = key.size();
    if (plugin->append_node_static_key(pod, key)) continue;
    key.resize(size);
    if (!plugin->append_node_dynamic_key(pod, key)) return false;
  }
  return true;
}

Framework::StaticVerdicts* Framework::static_verdicts(const CycleState& state,
                                                      const PodInfo& pod) const {
  const ActivePlugins& active = active_plugins(state);
  std::string& key = static_key_;
  key.clear();
  // The skip flags fix which plugins are active, so the keys of one set of flags line up.
  const std::uint64_t flags = active.skip_flags.value_or(0);
  key.append(reinterpret_cast<const char*>(&flags), sizeof flags);
  std::size_t plugins = 0;
  for (const auto& [plugin, name] : active.filters) {
    const std::size_t size = key.size();
    if (!plugin->append_node_static_key(pod, key)) {
      key.resize(size);
      break;
    }
    ++plugins;
  }
  if (plugins == 0) return nullptr;
  if (static_generation_ != handle_.cluster.node_generation() ||
      static_verdicts_.size() >= kMaxStaticKeys) {
    static_verdicts_.clear();
    static_generation_ = handle_.cluster.node_generation();
  }
  auto [it, added] = static_verdicts_.try_emplace(key);
  StaticVerdicts& verdicts = it->second;
  if (added) {
    verdicts.plugins = plugins;
    // Rejections keep their addresses (a Filter loop compares them).
    verdicts.statuses.reserve(kMaxStaticRejections);
  }
  return &verdicts;
}

const Status* Framework::judge_static(StaticVerdicts& verdicts, const CycleState& state,
                                      const PodInfo& pod, const NodeInfo& node,
                                      std::size_t position) const {
  if (position >= verdicts.by_position.size())
    verdicts.by_position.resize(position + 1, StaticVerdicts::kUnjudged);
  std::uint16_t& verdict = verdicts.by_position[position];
  if (verdict == StaticVerdicts::kUnjudged) {
    Status& status = static_status_;
    if (first_failure(active_plugins(state).filters, 0, verdicts.plugins, state, pod, node,
                      status) == Code::Success) {
      verdict = StaticVerdicts::kPassed;
      return nullptr;
    }
    const std::optional<std::size_t> kept = verdicts.keep(status, kMaxStaticRejections);
    if (!kept) return &status;
    verdict = static_cast<std::uint16_t>(StaticVerdicts::kRejected + *kept);
  }
  if (verdict == StaticVerdicts::kPassed) return nullptr;
  return &verdicts.statuses[verdict - StaticVerdicts::kRejected];
}

Framework::DynamicVerdicts* Framework::dynamic_verdicts(const CycleState& state, const PodInfo& pod,
                                                        std::size_t first) const {
  const ActivePlugins& active = active_plugins(state);
  std::string& key = dynamic_key_;
  key.clear();
  const std::uint64_t flags = active.skip_flags.value_or(0);
  key.append(reinterpret_cast<const char*>(&flags), sizeof flags);
  key.append(reinterpret_cast<const char*>(&first), sizeof first);
  // Which of the pods nominated to a node count (addGENominatedPods).
  key.append(reinterpret_cast<const char*>(&pod.priority), sizeof pod.priority);
  for (std::size_t i = first; i < active.filters.size(); ++i) {
    if (!active.filters[i].first->append_node_dynamic_key(pod, key)) return nullptr;
  }
  // Positions in the node list change with the nodes.
  if (dynamic_generation_ != handle_.cluster.node_generation() ||
      dynamic_verdicts_.size() >= kMaxDynamicKeys) {
    dynamic_verdicts_.clear();
    dynamic_generation_ = handle_.cluster.node_generation();
  }
  auto [it, added] = dynamic_verdicts_.try_emplace(key);
  if (added) it->second.statuses.reserve(kMaxDynamicRejections);
  return &it->second;
}

const Status* Framework::judge_dynamic(DynamicVerdicts& verdicts, const CycleState& state,
                                       const PodInfo& pod, const NodeInfo& node,
                                       std::size_t position, std::size_t first,
                                       bool nominated) const {
  if (position >= verdicts.by_position.size())
    verdicts.by_position.resize(handle_.cluster.node_list().size());
  DynamicVerdicts::Entry& entry = verdicts.by_position[position];
  if (nominated) {
    // The node's version covers the pods nominated to it, and the key the pod's priority, which
    // decides the ones that count; but a pod nominated there does not count itself.
    const auto others = handle_.cluster.nominated_pods(node.name);
    if (std::find(others.begin(), others.end(), &pod) != others.end()) {
      Status& status = dynamic_status_;
      const bool passed =
          run_filter_with_nominated(state, pod, node, status, first) == Code::Success;
      return passed ? nullptr : &status;
    }
    if (entry.verdict != DynamicVerdicts::kUnjudged && entry.version == node.version) {
      return entry.verdict == DynamicVerdicts::kPassed
                 ? nullptr
                 : &verdicts.statuses[entry.verdict - DynamicVerdicts::kRejected];
    }
  }
  Status& status = dynamic_status_;
  const bool passed = run_filter_with_nominated(state, pod, node, status, first) == Code::Success;
  entry.version = node.version;
  if (passed) {
    entry.verdict = DynamicVerdicts::kPassed;
    return nullptr;
  }
  const std::optional<std::size_t> kept = verdicts.keep(status, kMaxDynamicRejections);
  if (!kept) {
    entry.verdict = DynamicVerdicts::kUnjudged;
    return &status;
  }
  entry.verdict = static_cast<std::uint32_t>(DynamicVerdicts::kRejected + *kept);
  return &verdicts.statuses[*kept];
}

void Framework::filter_verdicts(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                std::vector<Status>& verdicts, bool& with_nominated) const {
  verdicts.clear();
  auto judge = [&](const CycleState& s, const NodeInfo& n) {
    for (const FilterPlugin* p : filter_) {
      Status verdict{Code::Skip, p->name(), {}};
      if (!s.filter_skipped(p->slot())) verdict.code = p->filter(s, pod, n, verdict.reasons);
      verdicts.push_back(std::move(verdict));
    }
  };
  with_nominated = judge_with_nominated(state, pod, node, judge);
  // The second pass, without the nominated pods, only runs when the first one passed.
  if (std::any_of(verdicts.begin(), verdicts.end(),
                  [](const Status& v) { return is_rejected(v.code) || v.code == Code::Error; }))
    return;
  verdicts.clear();
  judge(state, node);
}

// Plugins whose Filter is skipped are left out, as upstream does.
void Framework::run_pre_filter_extension_add_pod(CycleState& state, const PodInfo& pod,
                                                 const PodInfo& added, const NodeInfo& node) const {
  for (const PreFilterPlugin* p : active_plugins(state).pre_filters)
    p->add_pod(state, pod, added, node);
}

void Framework::run_pre_filter_extension_remove_pod(CycleState& state, const PodInfo& pod,
                                                    const PodInfo& removed,
                                                    const NodeInfo& node) const {
  for (const PreFilterPlugin* p : active_plugins(state).pre_filters)
    p->remove_pod(state, pod, removed, node);
}

PostFilterResult Framework::run_post_filter(CycleState& state, const PodInfo& pod,
                                            const Diagnosis& diagnosis) {
  std::string messages;
  std::optional<std::string> nominated;
  for (PostFilterPlugin* p : post_filter_) {
    PostFilterResult r = p->post_filter(state, pod, diagnosis);
    if (r.code == Code::Success) return r;
    if (r.code == Code::UnschedulableAndUnresolvable) return r;
    // Any status other than Success, Unschedulable, UnschedulableAndUnresolvable or Pending is an
    // error: it is returned at once, without a nomination.
    if (!is_rejected(r.code)) return PostFilterResult{Code::Error, std::move(r.message), {}};
    if (r.nominated_node) nominated = r.nominated_node;
    if (!r.message.empty()) messages += (messages.empty() ? "" : ", ") + r.message;
  }
  return PostFilterResult{Code::Unschedulable, std::move(messages), std::move(nominated)};
}

void Framework::run_score(CycleState& state, const PodInfo& pod,
                          std::span<const NodeInfo* const> nodes, std::span<std::int64_t> totals,
                          std::vector<PluginScores>* per_plugin) {
  score(state, pod, nodes, totals, per_plugin, false);
}

void Framework::rank_nodes(CycleState& state, const PodInfo& pod,
                           std::span<const NodeInfo* const> nodes, std::span<std::int64_t> totals) {
  score(state, pod, nodes, totals, nullptr, !handle_.config.reference_engine);
}

void Framework::score(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                      std::span<std::int64_t> totals, std::vector<PluginScores>* per_plugin,
                      bool ranking) {
  std::fill(totals.begin(), totals.end(), 0);
  for (PreScorePlugin* p : pre_score_) {
    if (p->pre_score(state, pod, nodes) == Code::Skip) state.skip_score(p->slot());
  }
  scratch_.resize(nodes.size());
  for (const auto& [plugin, weight] : score_) {
    if (state.score_skipped(plugin->slot())) continue;
    // Scores alike on every node move no node's rank.
    if (ranking && plugin->scores_alike(state, pod, nodes)) continue;
    if (handle_.config.reference_engine) {
      for (std::size_t i = 0; i < nodes.size(); ++i)
        scratch_[i] = plugin->score(state, pod, *nodes[i]);
    } else {
      plugin->score_nodes(state, pod, nodes, scratch_);
    }
    plugin->normalize(state, pod, scratch_);
    for (std::size_t i = 0; i < nodes.size(); ++i) totals[i] += scratch_[i] * weight;
    if (per_plugin != nullptr) per_plugin->push_back({plugin->name(), weight, scratch_});
  }
}

Code Framework::run_reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) {
  for (std::size_t i = 0; i < reserve_.size(); ++i) {
    if (reserve_[i]->reserve(state, pod, node) != Code::Success) {
      // Unreserve in reverse order, the failed plugin included.
      for (std::size_t j = i + 1; j-- > 0;) reserve_[j]->unreserve(state, pod, node);
      return Code::Unschedulable;
    }
  }
  return Code::Success;
}

void Framework::run_unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) {
  for (auto it = reserve_.rbegin(); it != reserve_.rend(); ++it) (*it)->unreserve(state, pod, node);
}

Status Framework::run_permit(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                             std::vector<PermitWait>& waits) {
  constexpr TimeMs kMaxTimeout = 15 * 60 * 1000;  // maxTimeout (runtime/framework.go)
  StringPool& pool = handle_.cluster.pool();
  waits.clear();
  Status wait;
  for (PermitPlugin* p : permit_) {
    TimeMs timeout = 0;
    Status status = p->permit(state, pod, node, timeout);
    if (status.ok()) continue;
    status.plugin = p->name();
    if (status.code == Code::Wait) {
      waits.push_back({p->name(), std::min(timeout, kMaxTimeout)});
      wait = std::move(status);
      continue;
    }
    if (status.code == Code::Error) {
      return Status{Code::Error,
                    p->name(),
                    {pool.intern("running Permit plugin " + go_quote(p->name()) + ": " +
                                 status.message(pool))}};
    }
    return status;
  }
  if (waits.empty()) return {};
  // RunPermitPlugins (1.36): the last waiting plugin's status, the framework's reason appended.
  wait.reasons.push_back(
      pool.intern("one or more plugins asked to wait and no plugin rejected pod"));
  return wait;
}

Code Framework::run_pre_bind(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                             std::string& message) {
  for (PreBindPlugin* p : pre_bind_) {
    const Status status = p->pre_bind(state, pod, node);
    if (status.ok() || status.code == Code::Skip) continue;
    // RunPreBindPlugins: `running PreBind plugin %q: %w`.
    message = "running PreBind plugin \"" + std::string(p->name()) +
              "\": " + status.message(handle_.cluster.pool());
    return status.code;
  }
  return Code::Success;
}

Code Framework::run_bind(CycleState& state, PodInfo& pod, NodeInfo& node) {
  for (BindPlugin* p : bind_) {
    const Code code = p->bind(state, pod, node);
    if (code != Code::Skip) return code;
  }
  return Code::Skip;
}

}  // namespace gpusched
