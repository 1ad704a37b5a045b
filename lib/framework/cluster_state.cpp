#include "gpusched/framework/cluster_state.hpp"

#include <algorithm>

#include "framework/pod_info_pool.hpp"
#include "framework/string_pool.hpp"
#include "gpusched/error.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched {
namespace {

// An empty list is the null value every empty Shared reads as: no allocation for it.
template <class T>
Shared<T> shared_unless_empty(T value) {
  return value.empty() ? Shared<T>() : Shared<T>(std::move(value));
}

bool has_pod_affinity(const Pod& pod) {
  return pod.spec.affinity->pod_affinity.has_value() ||
         pod.spec.affinity->pod_anti_affinity.has_value();
}

bool has_required_anti_affinity(const Pod& pod) {
  const auto& anti = pod.spec.affinity->pod_anti_affinity;
  return anti.has_value() && !anti->required.empty();
}

// pkg/scheduler/util/pod_resources.go: DefaultMilliCPURequest, DefaultMemoryRequest.
constexpr std::int64_t kDefaultMilliCpuRequest = 100;
constexpr std::int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;

std::string pod_key(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns).append("/").append(name);
  return key;
}

// utilnode.GetZoneKey (k8s.io/component-helpers/node/topology): the beta labels win.
std::string zone_key(const Node& node) {
  auto get = [&](std::string_view beta, std::string_view ga) -> std::string {
    if (auto it = node.metadata.labels.find(beta); it != node.metadata.labels.end())
      return it->second;
    if (auto it = node.metadata.labels.find(ga); it != node.metadata.labels.end())
      return it->second;
    return {};
  };
  const std::string zone =
      get("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone");
  const std::string region =
      get("failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region");
  if (region.empty() && zone.empty()) return {};
  return region + std::string(":\0:", 3) + zone;
}

// Requests with upstream's non-zero defaults for containers that leave cpu or memory unset
// (PodResourcesOptions.NonMissingContainerRequests), used by the Fit scorer.
ResourceList nonzero_requests(PodSpec spec) {
  auto apply = [](std::vector<Container>& containers) {
    for (auto& c : containers) {
      c.requests.try_emplace(std::string(resource::kCpu), Quantity(kDefaultMilliCpuRequest));
      c.requests.try_emplace(std::string(resource::kMemory),
                             Quantity::from_units(kDefaultMemoryRequest, QuantityFormat::BinarySI));
    }
  };
  apply(spec.containers.mut());
  apply(spec.init_containers.mut());
  return pod_requests(spec);
}

}  // namespace

ClusterState::ClusterState()
    : pool_(std::make_unique<StringPool>()),
      resources_(*pool_),
      pod_storage_(std::make_unique<PodInfoPool>()) {}

ClusterState::~ClusterState() = default;

StrId ClusterState::intern(std::string_view text) {
  return pool_->intern(text);
}

const std::string& ClusterState::text(StrId id) const {
  return pool_->str(id);
}

StrId ClusterState::find_interned(std::string_view text) const {
  return pool_->find(text);
}

NodeInfo& ClusterState::add_node(Node node) {
  auto info = std::make_unique<NodeInfo>();
  NodeInfo& ref = *info;
  ref.slot = node_slots_++;
  ref.node = std::move(node);
  node_names_.emplace_back(ref.node.metadata.name);
  compile_held_node(ref);
  const std::string zone = zone_key(ref.node);
  if (!zone_nodes_.contains(zone)) zones_.push_back(zone);
  zone_nodes_[zone].push_back(&ref);
  nodes_.emplace(ref.node.metadata.name, std::move(info));
  node_list_dirty_ = true;
  notify(ref, NodeChange::Added);
  // Pods bound to this name before the node existed start holding it now.
  for (PodInfo* pod : pods_) {
    if (pod->node == nullptr && pod->pod.spec.node_name == ref.node.metadata.name &&
        !pod->pod.terminated()) {
      hold(*pod, ref);
    }
  }
  ++generation_;
  ++node_generation_;
  return ref;
}

NodeInfo ClusterState::detached_node(Node node) {
  NodeInfo info;
  info.node = std::move(node);
  compile_node(info);
  return info;
}

void ClusterState::update_node(NodeInfo& info, Node node) {
  const std::string old_zone = zone_key(info.node);
  notify(info, NodeChange::Changing);
  info.node = std::move(node);
  compile_held_node(info);
  const std::string new_zone = zone_key(info.node);
  if (old_zone != new_zone) {
    // nodeTree.updateNode: remove from the old zone, append to the new one.
    auto& old_list = zone_nodes_[old_zone];
    std::erase(old_list, &info);
    if (old_list.empty()) {
      zone_nodes_.erase(old_zone);
      std::erase(zones_, old_zone);
    }
    if (!zone_nodes_.contains(new_zone)) zones_.push_back(new_zone);
    zone_nodes_[new_zone].push_back(&info);
    node_list_dirty_ = true;
  }
  ++generation_;
  ++node_generation_;
}

void ClusterState::remove_node(NodeInfo& info) {
  notify(info, NodeChange::Removing);
  for (PodInfo* pod : info.pods) {
    pod->node = nullptr;
    count_holding(*pod, false);
  }
  const std::string zone = zone_key(info.node);
  auto& list = zone_nodes_[zone];
  std::erase(list, &info);
  if (list.empty()) {
    zone_nodes_.erase(zone);
    std::erase(zones_, zone);
  }
  nodes_.erase(info.node.metadata.name);
  node_list_dirty_ = true;
  ++generation_;
  ++node_generation_;
}

NodeInfo* ClusterState::find_node(std::string_view name) noexcept {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : it->second.get();
}

// pkg/scheduler/backend/cache/node_tree.go list(): one node of each zone in turn.
void ClusterState::rebuild_node_list() const {
  node_list_dirty_ = false;
  node_list_.clear();
  for (std::size_t index = 0;; ++index) {
    bool any = false;
    for (const auto& zone : zones_) {
      const auto& nodes = zone_nodes_.find(zone)->second;
      if (index < nodes.size()) {
        node_list_.push_back(nodes[index]);
        any = true;
      }
    }
    if (!any) break;
  }
  node_versions_.resize(node_list_.size());
  slots_by_position_.resize(node_list_.size());
  for (std::size_t at = 0; at < node_list_.size(); ++at) {
    node_list_[at]->mirror.point_at(&node_versions_[at]);
    mirror_nominations(*node_list_[at]);
    slots_by_position_[at] = node_list_[at]->slot;
  }
}

void ClusterState::compile_held_node(NodeInfo& info) {
  compile_node(info);
  if (tainted_.size() <= info.slot) tainted_.resize(info.slot + 1, 0);
  tainted_[info.slot] = info.taints.empty() ? 0 : 1;
}

void ClusterState::compile_node(NodeInfo& info) {
  Node& node = info.node;
  // A kubelet always advertises its pod capacity; a scenario that leaves it out gets the default.
  if (!node.capacity.contains(resource::kPods) && !node.allocatable.contains(resource::kPods)) {
    node.capacity.emplace(resource::kPods, Quantity::from_units(resource::kDefaultMaxPods));
    node.allocatable.emplace(resource::kPods, Quantity::from_units(resource::kDefaultMaxPods));
  }
  info.bump();
  info.name = pool_->intern(node.metadata.name);
  info.unschedulable = node.unschedulable;
  info.labels.clear();
  for (const auto& [k, v] : node.metadata.labels)
    info.labels.emplace_back(pool_->intern(k), pool_->intern(v));
  std::sort(info.labels.begin(), info.labels.end());
  info.taints.clear();
  for (const Taint& t : node.effective_taints()) {
    // taint_toleration.go: fmt.Sprintf("node(s) had untolerated taint {%s: %s}", key, value).
    info.taints.push_back(
        TaintInfo{pool_->intern(t.key), pool_->intern(t.value), t.effect,
                  pool_->intern("node(s) had untolerated taint {" + t.key + ": " + t.value + "}")});
  }
  info.allocatable.clear();
  info.allowed_pods = 0;
  for (const auto& [name, q] : node.allocatable) {
    if (name == resource::kPods) {
      info.allowed_pods = q.value();
    } else {
      info.allocatable.set(resources_.intern(name), q.milli());
    }
  }
  // GPU sharing: the GPUs allocatable alibabacloud.com/gpu-count names, less what the pods
  // holding them take (utils.GetNodeResourceViaNodeInfo).
  const auto gpus = node.allocatable.find(gpu_share_names::kGpuCountResource);
  info.gpu_free.assign(gpus == node.allocatable.end()
                           ? 0
                           : static_cast<std::size_t>(
                                 std::clamp<std::int64_t>(gpus->second.value(), 0, kMaxShareGpus)),
                       kMilliPerGpu);
  const auto model = node.metadata.labels.find(gpu_share_names::kGpuModelLabel);
  info.gpu_model = model == node.metadata.labels.end() ? std::string() : model->second;
  for (const GpuShareHold& hold : info.gpu_holds) {
    for (const std::int32_t gpu : hold.gpus) {
      if (gpu < std::ssize(info.gpu_free))
        info.gpu_free[static_cast<std::size_t>(gpu)] -= hold.milli;
    }
  }
}

PodInfo& ClusterState::add_pod(Pod pod) {
  PodInfo& ref = pod_storage_->create();
  try {
    ref.pod = std::move(pod);
    ref.sequence = ++pod_sequence_;
    compile_pod(ref);
    const GpuShareRequest& share = ref.gpu_share->request;
    ++pod_shapes_[{ref.nonzero_cpu, share.gpu_milli, share.gpu_count, share.gpu_type}];
    // The simulation refuses a create whose name is taken before it gets here.
    GPUSCHED_CHECK(find_pod(ref.pod.metadata.namespace_, ref.pod.metadata.name) == nullptr,
                   "a pod added to the cluster has a name no pod has");
    pod_index_.insert(NamedPod{&ref, PodName(ref).hash});
    pods_.insert(ref);
  } catch (...) {
    pod_storage_->destroy(ref);
    throw;
  }
  if (!ref.pod.spec.node_name.empty() && !ref.pod.terminated()) {
    if (NodeInfo* node = find_node(ref.pod.spec.node_name)) hold(ref, *node);
  }
  index_nomination(ref);
  ++generation_;
  return ref;
}

void ClusterState::update_pod(PodInfo& info, Pod pod) {
  // The indexes order and hash the pod by its namespace and name, which an update keeps.
  GPUSCHED_CHECK(pod.metadata.name == info.pod.metadata.name &&
                     pod.metadata.namespace_ == info.pod.metadata.namespace_,
                 "an updated pod keeps its namespace and name");
  NodeInfo* node = info.node;
  if (node != nullptr) unhold(info);
  unindex_nomination(info);
  info.pod = std::move(pod);
  compile_pod(info);
  if (!info.pod.spec.node_name.empty() && !info.pod.terminated()) {
    if (NodeInfo* target = find_node(info.pod.spec.node_name)) hold(info, *target);
  }
  index_nomination(info);
  ++generation_;
}

void ClusterState::bind(PodInfo& info, NodeInfo& node) {
  GPUSCHED_CHECK(info.node == nullptr && info.pod.spec.node_name.empty(),
                 "a pod bound to a node is not bound yet");
  name_node(info.pod, node);
  // A bound pod leaves the nominator; its status.nominatedNodeName stays unless the binding
  // clears it (the scheduler decides, by release).
  unindex_nomination(info);
  hold(info, node);
  ++generation_;
}

void ClusterState::name_node(Pod& pod, const NodeInfo& node) const {
  // A node of another state (a detached copy) has no shared name here: the pod gets its own.
  if (node.slot < node_names_.size() && node_names_[node.slot] == node.node.metadata.name) {
    pod.spec.node_name = node_names_[node.slot];
  } else {
    pod.spec.node_name = node.node.metadata.name;
  }
}

void ClusterState::release(PodInfo& info) {
  if (info.node != nullptr) unhold(info);
  ++generation_;
}

void ClusterState::start_pod(PodInfo& info, TimeMs started) {
  info.pod.status.phase = PodPhase::Running;
  info.pod.status.start_ms = started;
  if (info.node != nullptr) info.node->bump();
}

void ClusterState::remove_pod(PodInfo& info) {
  if (info.node != nullptr) unhold(info);
  unindex_nomination(info);
  if (pod_index_.erase(NamedPod{&info, PodName(info).hash}) > 0) pods_.erase(info);
  pod_storage_->destroy(info);
  ++generation_;
}

PodInfo ClusterState::detached_pod(Pod pod) {
  PodInfo info;
  info.pod = std::move(pod);
  compile_pod(info);
  return info;
}

void ClusterState::assume(PodInfo& pod, NodeInfo& node) {
  GPUSCHED_CHECK(pod.node == nullptr, "a pod assumed on a node holds no node yet");
  name_node(pod.pod, node);
  attach(pod, node);
}

void ClusterState::forget(PodInfo& pod) {
  GPUSCHED_CHECK(pod.node != nullptr, "a pod forgotten was assumed on a node");
  detach(pod);
  pod.pod.spec.node_name.clear();
}

void ClusterState::hold_waiting(PodInfo& pod, NodeInfo& node) {
  hold_in_cycle(pod, node);
  ++generation_;
}

void ClusterState::release_waiting(PodInfo& pod) {
  release_in_cycle(pod);
  ++generation_;
}

void ClusterState::hold_in_cycle(PodInfo& pod, NodeInfo& node) {
  GPUSCHED_CHECK(pod.node == nullptr && pod.pod.spec.node_name.empty(),
                 "a pod assumed by the scheduler is not bound and holds no node");
  // It holds the node itself now: a nomination of it must not count it there a second time.
  unindex_nomination(pod);
  attach(pod, node);
}

void ClusterState::release_in_cycle(PodInfo& pod) {
  GPUSCHED_CHECK(pod.pod.spec.node_name.empty(), "a pod the scheduler forgets is unbound");
  if (pod.node != nullptr) detach(pod);  // else its node was removed meanwhile
  index_nomination(pod);
}

bool ClusterState::apply_workload(SchedulingWorkload workload) {
  std::string key = pod_key(workload.metadata.namespace_, workload.metadata.name);
  const bool added = !workloads_.contains(key);
  workloads_.insert_or_assign(std::move(key), std::move(workload));
  ++generation_;
  return added;
}

bool ClusterState::remove_workload(std::string_view namespace_, std::string_view name) {
  if (workloads_.erase(pod_key(namespace_, name)) == 0) return false;
  ++generation_;
  return true;
}

const SchedulingWorkload* ClusterState::find_workload(std::string_view namespace_,
                                                      std::string_view name) const {
  auto it = workloads_.find(pod_key(namespace_, name));
  return it == workloads_.end() ? nullptr : &it->second;
}

bool ClusterState::apply_pod_group(PodGroup pod_group) {
  std::string key = pod_key(pod_group.metadata.namespace_, pod_group.metadata.name);
  auto it = pod_groups_.find(key);
  const bool added = it == pod_groups_.end();
  // An apply writes the object's spec; its status (the scheduler's conditions) stays.
  if (!added) pod_group.conditions = std::move(it->second.conditions);
  pod_groups_.insert_or_assign(std::move(key), std::move(pod_group));
  ++generation_;
  return added;
}

bool ClusterState::remove_pod_group(std::string_view namespace_, std::string_view name) {
  if (pod_groups_.erase(pod_key(namespace_, name)) == 0) return false;
  ++generation_;
  return true;
}

const PodGroup* ClusterState::find_pod_group(std::string_view namespace_,
                                             std::string_view name) const {
  auto it = pod_groups_.find(pod_key(namespace_, name));
  return it == pod_groups_.end() ? nullptr : &it->second;
}

PodGroup* ClusterState::find_pod_group(std::string_view namespace_, std::string_view name) {
  auto it = pod_groups_.find(pod_key(namespace_, name));
  return it == pod_groups_.end() ? nullptr : &it->second;
}

void ClusterState::drop_pod_indexes() {
  // Replaced by empty ones: clear(), or assigning {} (an empty initializer list), would keep a
  // hash set's buckets and a vector's capacity.
  pod_index_ = PodsByName();
  pods_.clear();
  nominated_ = std::vector<std::vector<PodInfo*>>();
  node_list_dirty_ = true;  // no node has nominated pods now
  ++generation_;
}

void ClusterState::drain_pods(const std::function<void(PodInfo&)>& take) {
  drop_pod_indexes();
  pod_storage_->drain(take);
}

void ClusterState::set_budgets(std::vector<BudgetInfo> budgets) {
  if (budgets.size() == budgets_.size() &&
      std::equal(budgets.begin(), budgets.end(), budgets_.begin(),
                 [](const auto& a, const auto& b) {
                   return a.namespace_ == b.namespace_ && a.selector == b.selector &&
                          a.disruptions_allowed == b.disruptions_allowed;
                 })) {
    return;
  }
  budgets_ = std::move(budgets);
  ++generation_;
}

void ClusterState::nominate(PodInfo& info, const std::string& node_name) {
  if (info.pod.status.nominated_node_name == node_name) return;
  unindex_nomination(info);
  info.pod.status.nominated_node_name = node_name;
  index_nomination(info);
  ++generation_;
}

void ClusterState::index_nomination(PodInfo& pod) {
  // Bound pods and pods waiting at Permit (holding a node while unbound) hold their node.
  if (pod.pod.status.nominated_node_name.empty() || !pod.pod.spec.node_name.empty() ||
      pod.node != nullptr)
    return;
  const StrId node_name = pool_->intern(pod.pod.status.nominated_node_name);
  if (node_name >= nominated_.size()) nominated_.resize(node_name + 1);
  auto& list = nominated_[node_name];
  if (std::find(list.begin(), list.end(), &pod) != list.end()) return;
  list.push_back(&pod);
  // A nomination may name a node that does not exist.
  if (NodeInfo* node = find_node(pod.pod.status.nominated_node_name)) nominations_changed(*node);
}

void ClusterState::unindex_nomination(const PodInfo& pod) {
  if (pod.pod.status.nominated_node_name.empty()) return;
  const StrId node_name = pool_->find(pod.pod.status.nominated_node_name);
  if (node_name < nominated_.size() && std::erase(nominated_[node_name], &pod) > 0) {
    if (NodeInfo* node = find_node(pod.pod.status.nominated_node_name)) nominations_changed(*node);
  }
}

void ClusterState::nominations_changed(NodeInfo& node) const {
  node.bump();
  mirror_nominations(node);
}

void ClusterState::mirror_nominations(NodeInfo& node) const {
  node.mirror.nominated(!nominated_pods(node.name).empty(), node.version);
}

PodInfo* ClusterState::find_pod(std::string_view namespace_, std::string_view name) const noexcept {
  auto it = pod_index_.find(PodName(namespace_, name));
  return it == pod_index_.end() ? nullptr : it->pod;
}

void ClusterState::apply_namespace(ObjectMeta meta) {
  std::string name = meta.name;
  namespaces_.insert_or_assign(std::move(name), std::move(meta));
  ++generation_;
}

bool ClusterState::remove_namespace(std::string_view name) {
  auto it = namespaces_.find(name);
  if (it == namespaces_.end()) return false;
  namespaces_.erase(it);
  ++generation_;
  return true;
}

const ObjectMeta* ClusterState::find_namespace(std::string_view name) const noexcept {
  auto it = namespaces_.find(name);
  return it == namespaces_.end() ? nullptr : &it->second;
}

const Labels& ClusterState::namespace_labels(std::string_view name) const {
  if (auto it = namespaces_.find(name); it != namespaces_.end()) return it->second.labels;
  auto it = implicit_namespaces_.find(name);
  if (it == implicit_namespaces_.end()) {
    it = implicit_namespaces_
             .emplace(std::string(name),
                      Labels{{std::string("kubernetes.io/metadata.name"), std::string(name)}})
             .first;
  }
  return it->second;
}

std::vector<std::string_view> ClusterState::namespace_names() const {
  std::vector<std::string_view> out;
  for (const auto& [name, meta] : namespaces_) out.push_back(name);
  for (const PodInfo* pod : pods_) out.push_back(pod->pod.metadata.namespace_);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void ClusterState::hold(PodInfo& pod, NodeInfo& node) {
  notify(node, NodeChange::Changing);
  attach(pod, node);
}

void ClusterState::unhold(PodInfo& pod) {
  notify(*pod.node, NodeChange::Changing);
  detach(pod);
}

void ClusterState::attach(PodInfo& pod, NodeInfo& node) {
  node.add_pod(pod);
  pod.node = &node;
  count_holding(pod, true);
}

void ClusterState::detach(PodInfo& pod) {
  pod.node->remove_pod(pod);
  pod.node = nullptr;
  count_holding(pod, false);
}

void ClusterState::count_holding(const PodInfo& pod, bool held) {
  const std::uint32_t affinity = has_pod_affinity(pod.pod) ? 1 : 0;
  const std::uint32_t anti_affinity = has_required_anti_affinity(pod.pod) ? 1 : 0;
  if (held) {
    with_affinity_ += affinity;
    with_required_anti_affinity_ += anti_affinity;
    ++holding_priorities_[pod.priority];
    return;
  }
  with_affinity_ -= affinity;
  with_required_anti_affinity_ -= anti_affinity;
  if (auto it = holding_priorities_.find(pod.priority); --it->second == 0)
    holding_priorities_.erase(it);
}

void ClusterState::compile_pod(PodInfo& info) {
  const Pod& pod = info.pod;
  info.priority = pod.priority();
  const ResourceList& requests = requests_memo_.of(pod.spec);
  info.request_list = requests_memo_.shared();
  if (compiled_from_ != requests_memo_.computed()) {
    compiled_from_ = requests_memo_.computed();
    std::vector<ResAmount> compiled;
    for (const auto& [name, q] : requests) {
      if (name == resource::kPods || q.milli() == 0) continue;
      compiled.push_back(ResAmount{resources_.intern(name), q.milli()});
    }
    // fitsRequest checks cpu, memory, ephemeral-storage, then scalars: keep the fixed ids first.
    std::sort(compiled.begin(), compiled.end(),
              [](const ResAmount& a, const ResAmount& b) { return a.id < b.id; });
    compiled_requests_ = std::move(compiled);  // a new list: pods compiled before keep theirs
    const ResourceList nonzero = nonzero_requests(request_parts(pod.spec));
    auto milli_of = [&](std::string_view name) {
      auto it = nonzero.find(name);
      return it == nonzero.end() ? 0 : it->second.milli();
    };
    compiled_nonzero_cpu_ = milli_of(resource::kCpu);
    compiled_nonzero_memory_ = milli_of(resource::kMemory);
  }
  info.requests = compiled_requests_;
  info.nonzero_cpu = compiled_nonzero_cpu_;
  info.nonzero_memory = compiled_nonzero_memory_;

  CompiledPlacement& memo = placement_;
  if (!pod.spec.tolerations.shares(memo.tolerations_from)) {
    std::vector<TolerationInfo> tolerations;
    for (const Toleration& t : pod.spec.tolerations) {
      tolerations.push_back(
          TolerationInfo{pool_->intern(t.key), t.op, pool_->intern(t.value), t.effect});
    }
    memo.tolerations_from = pod.spec.tolerations;
    memo.tolerations = shared_unless_empty(std::move(tolerations));
  }
  info.tolerations = memo.tolerations;
  if (!pod.spec.node_selector.shares(memo.node_selector_from)) {
    std::vector<std::pair<StrId, StrId>> selector;
    for (const auto& [k, v] : pod.spec.node_selector) {
      selector.emplace_back(pool_->intern(k), pool_->intern(v));
    }
    memo.node_selector_from = pod.spec.node_selector;
    memo.node_selector = shared_unless_empty(std::move(selector));
  }
  info.node_selector = memo.node_selector;
  if (!pod.spec.affinity.shares(memo.affinity_from)) {
    auto compile_requirement = [&](const SelectorRequirement& r) {
      RequirementInfo out;
      out.key = pool_->intern(r.key);
      out.op = r.op;
      for (const auto& v : r.values) out.values.push_back(pool_->intern(v));
      std::sort(out.values.begin(), out.values.end());
      if (r.op == SelectorOperator::Gt || r.op == SelectorOperator::Lt) {
        // The loader and validate_pod_spec refuse anything else, as the API server does: a value
        // that is no integer here would silently never match.
        GPUSCHED_CHECK(r.values.size() == 1, "a Gt/Lt requirement has one value");
        out.bound = parse_selector_integer(r.values[0]);
        GPUSCHED_CHECK(out.bound.has_value(), "a Gt/Lt requirement's value is an int64");
      }
      return out;
    };
    auto compile_term = [&](const NodeSelectorTerm& term) {
      TermInfo out;
      for (const auto& r : term.match_expressions)
        out.match_expressions.push_back(compile_requirement(r));
      for (const auto& r : term.match_fields) out.match_fields.push_back(compile_requirement(r));
      return out;
    };
    memo.affinity_from = pod.spec.affinity;
    memo.required_terms.reset();
    std::vector<std::pair<std::int32_t, TermInfo>> preferred;
    if (const auto& na = pod.spec.affinity->node_affinity) {
      if (na->required) {
        std::vector<TermInfo>& required = memo.required_terms.emplace();
        for (const auto& term : *na->required) required.push_back(compile_term(term));
      }
      for (const auto& pref : na->preferred) {
        preferred.emplace_back(pref.weight, compile_term(pref.preference));
      }
    }
    memo.preferred_terms = shared_unless_empty(std::move(preferred));
  }
  info.required_terms = memo.required_terms;
  info.preferred_terms = memo.preferred_terms;
  info.gpu_share = {};
  GpuShareRequest share = gpu_share_request(pod.metadata.annotations, nullptr);
  if (share.gpu_milli > 0) {
    PodGpuShare& gpu_share = info.gpu_share.mut();
    gpu_share.request = std::move(share);
    if (const auto index = pod.metadata.annotations->find(gpu_share_names::kGpuIndexAnnotation);
        index != pod.metadata.annotations->end() && !pod.spec.node_name.empty()) {
      if (auto gpus = parse_gpu_index(index->second)) {
        gpu_share.index = std::move(*gpus);
        gpu_share.index_node = pool_->intern(pod.spec.node_name);
      }
    }
  }
  if (!pod.spec.containers.shares(memo.containers_from)) {
    // nodeports.getContainerPorts: every container's ports with a host port.
    std::vector<HostPort> ports;
    for (const Container& c : pod.spec.containers) {
      for (const ContainerPort& p : c.ports) {
        if (p.host_port <= 0) continue;
        ports.push_back(HostPort{pool_->intern(p.host_ip.empty() ? "0.0.0.0" : p.host_ip),
                                 pool_->intern(p.protocol.empty() ? "TCP" : p.protocol),
                                 p.host_port});
      }
    }
    memo.containers_from = pod.spec.containers;
    memo.host_ports = shared_unless_empty(std::move(ports));
  }
  info.host_ports = memo.host_ports;
}

}  // namespace gpusched
