#include "plugins/dynamic_resources.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dra/allocator.hpp"
#include "dra/pod_claims.hpp"
#include "dra/pools.hpp"
#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/dra_state.hpp"
#include "gpusched/framework/rng.hpp"
#include "model/go_text.hpp"
#include "model/names.hpp"
#include "model/string_hash.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {

namespace {

/// klog.KObj: `<namespace>/<name>`.
std::string kobj(const dra::ResourceClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

/// resourceapi.FirstAvailableDeviceRequestMaxSize.
constexpr std::int64_t kFirstAvailableDeviceRequestMaxSize = 8;

/// specialClaimInMemName: the extended-resource claim's name until PreBind creates it
/// (intentionally not a valid name).
constexpr std::string_view kInMemoryClaimName = "<extended-resources>";

/// maxGeneratedNameLength: the API server keeps this much of a generateName base.
constexpr std::size_t kMaxGeneratedNameBase = 58;

using ContainerRequests = std::vector<ContainerExtendedResourceRequest>;

/// createResourceRequestAndMappings: the request of the container at `index` (of init
/// containers then containers) for `resource`, after what `reusable` (requests of long-lived
/// containers after it) already gives it; nullopt when it needs none more.
std::optional<dra::DeviceRequest> container_request(
    std::size_t index, const Container& container, const std::string& resource,
    const std::string& class_name, std::span<const std::optional<dra::DeviceRequest>> reusable,
    ContainerRequests& mappings) {
  const auto it = container.requests.find(resource);
  if (it == container.requests.end()) return std::nullopt;
  // resource.Quantity.AsInt64: whole numbers only.
  const std::int64_t milli = it->second.milli();
  if (milli <= 0 || milli % 1000 != 0) return std::nullopt;
  const std::int64_t wanted = milli / 1000;
  std::int64_t sum = 0;
  for (const std::optional<dra::DeviceRequest>& r : reusable) {
    if (!r) continue;
    sum += r->exactly->count;
    mappings.push_back({container.name, resource, r->name});
    if (sum >= wanted) return std::nullopt;
  }
  // The resource's index among the container's request names, sorted (as ResourceList is).
  const auto position = std::distance(container.requests.begin(), it);
  dra::DeviceRequest request;
  request.name = "container-" + std::to_string(index) + "-request-" + std::to_string(position);
  dra::ExactDeviceRequest& exactly = request.exactly.emplace();
  exactly.device_class_name = class_name;
  exactly.allocation_mode = dra::AllocationMode::ExactCount;
  exactly.count = wanted - sum;
  mappings.push_back({container.name, resource, request.name});
  return request;
}

}  // namespace

/// A node's variant of the extended-resource claim: its requests, and the container resource
/// each serves (createRequestsAndMappings).
struct DynamicResources::ExtendedVariant {
  dra::ResourceClaim claim;
  ContainerRequests mappings;
  /// shape_of the claims allocated with it, once asked.
  mutable std::shared_ptr<const Shape> shape;
};

/// stateData. Upstream's Clone returns the same pointer: preemption's copies of the cycle state
/// share it, Filter's writes included.
struct DynamicResources::CycleData final : StateData {
  struct Shared {
    /// The pod's claims in spec.resourceClaims order, as PreFilter saw them.
    std::vector<dra::ResourceClaim> claims;
    /// informationForClaim.availableOnNodes: an allocated claim's node selector.
    std::vector<std::optional<dra::NodeSelector>> available_on_nodes;
    /// The indices of the unallocated claims (claimStore.toAllocate).
    std::vector<std::size_t> to_allocate;
    std::unique_ptr<dra::Allocator> allocator;
    /// unavailableClaims, written by Filter, read by PostFilter.
    std::set<std::size_t> unavailable_claims;
    /// nodeAllocation: the results, one per claim of to_allocate allocated on the node (the
    /// extended-resource claim only where `extended` is set), and the node's variant of that
    /// claim.
    struct NodeAllocation {
      std::shared_ptr<const std::vector<dra::AllocationResult>> results;
      std::shared_ptr<const ExtendedVariant> extended;
    };
    /// By NodeInfo::slot.
    std::unordered_map<std::uint32_t, NodeAllocation> node_allocations;
    /// informationForClaim.allocation: what Reserve took, per claim index.
    std::vector<std::optional<dra::AllocationResult>> allocation;
    /// The index in `claims` of the claim for the pod's extended resources (the last one).
    std::optional<std::size_t> extended;
    /// draExtendedResource.podScalarResources: the pod's requests a DeviceClass may serve.
    std::vector<ResAmount> extended_requests;
    /// The nodes' variants of the extended-resource claim so far, by which of
    /// extended_requests the node leaves to DRA: nodes alike share one.
    std::map<std::vector<bool>, std::shared_ptr<const ExtendedVariant>> extended_variants;
    /// The variant Reserve took.
    std::shared_ptr<const ExtendedVariant> reserved_extended;
    /// shape_of the claims allocated without the extended-resource claim, once asked.
    std::shared_ptr<const Shape> shape;

    [[nodiscard]] bool is_extended(std::size_t index) const {
      return extended && *extended == index;
    }
  };
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<CycleData>(*this);
  }
};

DynamicResources::DynamicResources(Handle& handle) : handle_(handle) {
  const FeatureGates& gates = handle.config.feature_gates;
  const KubernetesVersion& v = handle.version;
  auto on = [&](FeatureGate gate) { return gates.enabled(gate, v); };
  // AllocatorFeatures (1.35; 1.34 passes the same gates field by field).
  features_.admin_access = on(FeatureGate::DRAAdminAccess);
  features_.prioritized_list = on(FeatureGate::DRAPrioritizedList);
  features_.partitionable_devices = on(FeatureGate::DRAPartitionableDevices);
  features_.device_taints = on(FeatureGate::DRADeviceTaints);
  features_.device_binding_and_status =
      on(FeatureGate::DRADeviceBindingConditions) && on(FeatureGate::DRAResourceClaimDeviceStatus);
  features_.consumable_capacity = on(FeatureGate::DRAConsumableCapacity);
  prioritized_list_ = features_.prioritized_list;
  extended_resource_ = on(FeatureGate::DRAExtendedResource);
  cel_cache_ = std::make_unique<dra::cel::Cache>(
      dra::cel::Features{.consumable_capacity = features_.consumable_capacity});
}

DynamicResources::~DynamicResources() = default;

/// What allocated_state() keeps: the state, and what each claim (by its change key) put in it.
struct DynamicResources::AllocatedIndex {
  struct Share {
    dra::SharedDeviceId id;
    dra::ConsumedCapacity consumed;
  };
  struct Contribution {
    std::vector<dra::DeviceId> exclusive;
    std::vector<Share> shares;
  };
  std::shared_ptr<dra::AllocatedState> state = std::make_shared<dra::AllocatedState>();
  std::map<std::string, Contribution, std::less<>> by_key;
  /// Per driver and pool, the clock's value when an allocation in it last changed (0: never
  /// since the index was built): a node's cached allocation outcome stands while its pools'
  /// values do.
  std::unordered_map<std::string,
                     std::unordered_map<std::string, std::uint64_t, StringHash, std::equal_to<>>,
                     StringHash, std::equal_to<>>
      pool_versions;
  std::uint64_t clock = 0;
  [[nodiscard]] std::uint64_t pool_version(std::string_view driver, std::string_view pool) const {
    const auto d = pool_versions.find(driver);
    if (d == pool_versions.end()) return 0;
    const auto p = d->second.find(pool);
    return p == d->second.end() ? 0 : p->second;
  }
  void touch(const std::string& driver, const std::string& pool) {
    pool_versions[driver][pool] = ++clock;
  }
  std::map<dra::DeviceId, std::uint32_t> exclusive_count;
  std::map<dra::DeviceId, std::uint32_t> share_count;
  std::uint64_t seen = 0;
  bool built = false;

  /// The state to change: a copy first when an allocator still reads it.
  dra::AllocatedState& writable() {
    if (state.use_count() > 1) state = std::make_shared<dra::AllocatedState>(*state);
    return *state;
  }
  void remove(const std::string& key) {
    const auto it = by_key.find(key);
    if (it == by_key.end()) return;
    dra::AllocatedState& s = writable();
    for (const dra::DeviceId& id : it->second.exclusive) touch(id.driver, id.pool);
    for (const Share& share : it->second.shares)
      touch(share.id.device.driver, share.id.device.pool);
    for (const dra::DeviceId& id : it->second.exclusive) {
      if (--exclusive_count[id] == 0) {
        exclusive_count.erase(id);
        s.allocated_devices.erase(id);
        dra::mark_in_use(s, id, false);
      }
    }
    for (const Share& share : it->second.shares) {
      s.allocated_shared_device_ids.erase(share.id);
      if (--share_count[share.id.device] == 0) {
        share_count.erase(share.id.device);
        s.aggregated_capacity.erase(share.id.device);
        continue;
      }
      dra::ConsumedCapacity& total = s.aggregated_capacity[share.id.device];
      for (const auto& [name, amount] : share.consumed)
        total[name] = Quantity(total[name].milli() - amount.milli(), amount.format());
    }
    by_key.erase(it);
  }
  // foreachAllocatedDevice: admin access takes no device ("Is not considered as allocated.");
  // with consumable capacity a share counts by its share id and the capacity it consumes.
  void add(const std::string& key, const dra::ResourceClaim& claim, bool consumable_capacity) {
    if (!claim.status.allocation) return;
    Contribution c;
    dra::AllocatedState& s = writable();
    for (const dra::DeviceRequestAllocationResult& r : claim.status.allocation->devices) {
      if (r.admin_access.value_or(false)) continue;
      touch(r.driver, r.pool);
      dra::DeviceId id{r.driver, r.pool, r.device};
      if (consumable_capacity && r.share_id) {
        dra::ConsumedCapacity& total = s.aggregated_capacity[id];
        for (const auto& [name, amount] : r.consumed_capacity) {
          auto [it, added] = total.try_emplace(name, amount);
          if (!added) it->second = it->second.plus(amount);
        }
        ++share_count[id];
        dra::SharedDeviceId shared{id, *r.share_id};
        s.allocated_shared_device_ids.insert(shared);
        c.shares.push_back({std::move(shared), r.consumed_capacity});
      } else {
        if (exclusive_count[id]++ == 0) {
          s.allocated_devices.insert(id);
          dra::mark_in_use(s, id, true);
        }
        c.exclusive.push_back(std::move(id));
      }
    }
    by_key.insert_or_assign(key, std::move(c));
  }
};

std::shared_ptr<const dra::AllocatedState> DynamicResources::allocated_state(
    const std::shared_ptr<const dra::SliceIndex>& slices) {
  const DraState& dra = handle_.cluster.dra();
  if (!allocated_index_) allocated_index_ = std::make_unique<AllocatedIndex>();
  AllocatedIndex& index = *allocated_index_;
  const bool consumable = features_.consumable_capacity;
  auto claim_of = [&](std::string_view key) -> const dra::ResourceClaim* {
    const std::string_view pending = ":pending/";
    if (key.starts_with(pending)) {
      const auto it = dra.pending_allocations().find(key.substr(pending.size()));
      return it == dra.pending_allocations().end() ? nullptr : &it->second;
    }
    const auto it = dra.claims().find(key);
    return it == dra.claims().end() ? nullptr : &it->second;
  };
  const auto changes = dra.claim_changes_since(index.seen);
  if (!index.built || !changes) {
    // The clock goes on, so that no pool version read before comes back.
    const std::uint64_t clock = index.clock;
    index = AllocatedIndex{};
    index.clock = clock;
    dra::number_in_use(index.writable(), slices);
    for (const auto& [key, claim] : dra.claims()) index.add(key, claim, consumable);
    for (const auto& [uid, claim] : dra.pending_allocations())
      index.add(pending_change_key(uid), claim, consumable);
    index.built = true;
  } else {
    for (const std::string& key : *changes) {
      index.remove(key);
      if (const dra::ResourceClaim* claim = claim_of(key)) index.add(key, *claim, consumable);
    }
  }
  index.seen = dra.change_count();
  if (index.state->in_use_index != slices) dra::number_in_use(index.writable(), slices);
  return index.state;
}

const DynamicResources::CycleData* DynamicResources::data(const CycleState& state) const {
  return state.get<CycleData>(slot());
}

Status DynamicResources::unschedulable(const std::string& message) const {
  return Status{
      Code::UnschedulableAndUnresolvable, kName, {handle_.cluster.pool().intern(message)}};
}

template <class Each>
std::string DynamicResources::for_each_pod_claim(const Pod& pod, Each&& each) const {
  const DraState& dra = handle_.cluster.dra();
  for (const PodResourceClaim& pod_claim : pod.spec.resource_claims) {
    const dra::PodClaimName name = dra::pod_claim_name(pod, pod_claim);
    if (!name.error.empty()) return name.error;
    if (!name.name) continue;  // a template's claim that is not needed
    const dra::ResourceClaim* claim = dra.find_claim(pod.metadata.namespace_, *name.name);
    if (claim == nullptr) {
      // The assume cache's NotFound (assume_cache.go errNotFound).
      return "could not find ResourceClaim \"" + pod.metadata.namespace_ + "/" + *name.name + "\"";
    }
    if (claim->metadata.deletion_ms)
      return "resourceclaim \"" + claim->metadata.name + "\" is being deleted";
    if (name.must_check_owner) {
      if (std::string error = dra::is_for_pod(pod, *claim, handle_.version.minor); !error.empty())
        return error;
    }
    each(*claim);
  }
  return {};
}

Status DynamicResources::pre_enqueue(const PodInfo& pod) const {
  const std::string error = for_each_pod_claim(pod.pod, [](const dra::ResourceClaim&) {});
  if (!error.empty()) return unschedulable(error);
  return {};
}

Status DynamicResources::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) {
  // The state is written before any failure, so that PostFilter always finds one; its claims
  // only once every check passed (PostFilter then says "no new claims to deallocate").
  auto owned = std::make_unique<CycleData>();
  CycleData::Shared& s = *owned->shared;
  state.set(slot(), std::move(owned));
  std::vector<dra::ResourceClaim> claims;
  const std::string error = for_each_pod_claim(
      pod.pod, [&](const dra::ResourceClaim& claim) { claims.push_back(claim); });
  if (!error.empty()) return unschedulable(error);
  std::optional<std::size_t> extended;
  if (extended_resource_) {
    if (std::optional<dra::ResourceClaim> claim = extended_claim(pod, s.extended_requests)) {
      extended = claims.size();
      claims.push_back(std::move(*claim));
    }
  }
  if (claims.empty()) return Code::Skip;

  const DraState& dra = handle_.cluster.dra();
  std::vector<std::optional<dra::NodeSelector>> available_on_nodes(claims.size());
  std::vector<std::size_t> to_allocate;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const dra::ResourceClaim& claim = claims[i];
    // CanBeReserved is always true upstream: an allocated claim is never "in use".
    if (claim.status.allocation) {
      available_on_nodes[i] = claim.status.allocation->node_selector;
      continue;
    }
    to_allocate.push_back(i);
    if (dra.has_pending_allocation(claim.metadata.uid)) {
      return unschedulable("resource claim " + kobj(claim) +
                           " is in the process of being allocated");
    }
    // The extended-resource claim's requests are made per node, for classes that exist.
    if (extended && i == *extended) continue;
    // validateDeviceClass: an empty name is an error, a missing class a rejection.
    auto validate = [&](const std::string& class_name, const std::string& request) -> Status {
      if (class_name.empty()) {
        return Status{
            Code::Error,
            kName,
            {handle_.cluster.pool().intern("request " + request + ": unsupported request type")}};
      }
      if (dra.find_class(class_name) == nullptr) {
        return unschedulable("request " + request + ": device class " + class_name +
                             " does not exist");
      }
      return {};
    };
    for (const dra::DeviceRequest& request : claim.spec.requests) {
      if (request.exactly) {
        if (Status st = validate(request.exactly->device_class_name, request.name); !st.ok())
          return st;
      } else if (!request.first_available.empty()) {
        if (!prioritized_list_) {
          return unschedulable("resource claim " + kobj(claim) + ", request " + request.name +
                               ": has subrequests, but the DRAPrioritizedList feature is disabled");
        }
        for (const dra::DeviceSubRequest& sub : request.first_available) {
          if (Status st = validate(sub.device_class_name, request.name + "/" + sub.name); !st.ok())
            return st;
        }
      } else {
        return unschedulable("resource claim " + kobj(claim) + ", request " + request.name +
                             ": unknown request type");
      }
    }
  }
  s.allocation.resize(claims.size());
  s.claims = std::move(claims);
  s.available_on_nodes = std::move(available_on_nodes);
  s.to_allocate = std::move(to_allocate);
  s.extended = extended;
  if (s.to_allocate.empty()) return {};

  if (!slice_index_ || slice_index_generation_ != dra.slices_generation()) {
    slice_index_ = std::make_shared<const dra::SliceIndex>(dra.slice_list());
    slice_index_generation_ = dra.slices_generation();
  }
  s.allocator = std::make_unique<dra::Allocator>(
      features_, allocated_state(slice_index_),
      [&dra](std::string_view name) { return dra.find_class(name); }, slice_index_, *cel_cache_,
      [this] {
        ++share_ids_drawn_;
        return random_uuid();
      });
  return {};
}

std::shared_ptr<const DynamicResources::Shape> DynamicResources::shape_of(
    std::span<const dra::ResourceClaim* const> claims) const {
  auto same = [&](const Shape& shape) {
    if (shape.size() != claims.size()) return false;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (!(shape[i] == claims[i]->spec)) return false;
    }
    return true;
  };
  // A few recent shapes, the latest first: pods of one template come in runs.
  constexpr std::size_t kShapesKept = 16;
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    if (!same(*shapes_[i])) continue;
    std::rotate(shapes_.begin(), shapes_.begin() + static_cast<std::ptrdiff_t>(i),
                shapes_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return shapes_.front();
  }
  auto shape = std::make_shared<Shape>();
  for (const dra::ResourceClaim* claim : claims) shape->push_back(claim->spec);
  shapes_.insert(shapes_.begin(), std::move(shape));
  if (shapes_.size() > kShapesKept) shapes_.pop_back();
  return shapes_.front();
}

std::string DynamicResources::random_uuid() const {
  const std::uint64_t hi = handle_.rng.next(), lo = handle_.rng.next();
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0x0fff),
                static_cast<unsigned>(0x8000 | ((lo >> 48) & 0x3fff)),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return text;
}

std::optional<dra::ResourceClaim> DynamicResources::extended_claim(
    const PodInfo& pod, std::vector<ResAmount>& requests) const {
  const DraState& dra = handle_.cluster.dra();
  if (dra.classes().empty()) return std::nullopt;
  // hasDeviceClassMappedExtendedResource over resourcehelper.PodRequests (pod.requests: the
  // effective requests, zeros left out).
  const ResourceRegistry& registry = handle_.cluster.resources();
  bool served = false;
  for (const ResAmount& r : pod.requests) {
    const std::string& name = registry.name(r.id);
    if (!dra::is_extended_resource_name(name)) continue;
    requests.push_back(r);
    if (dra.extended_resource_class(name) != nullptr) served = true;
  }
  if (!served) {
    requests.clear();
    return std::nullopt;
  }
  // findExtendedResourceClaim: one an earlier cycle created (annotated, controlled by the pod).
  const Pod& p = pod.pod;
  const std::string prefix = p.metadata.namespace_ + "/";
  for (auto it = dra.claims().lower_bound(prefix);
       it != dra.claims().end() && it->first.starts_with(prefix); ++it) {
    const dra::ResourceClaim& claim = it->second;
    const auto mark = claim.metadata.annotations.find(dra::kExtendedResourceClaimAnnotation);
    if (mark == claim.metadata.annotations.end() || mark->second != "true") continue;
    for (const OwnerReference& owner : claim.metadata.owner_references) {
      if (owner.name == p.metadata.name && owner.controller && owner.uid == p.metadata.uid)
        return claim;
    }
  }
  dra::ResourceClaim claim;
  claim.metadata.namespace_ = p.metadata.namespace_;
  claim.metadata.name = kInMemoryClaimName;
  claim.metadata.uid = random_uuid();  // a temporary uid for its in-flight allocation
  claim.metadata.owner_references = {{"Pod", p.metadata.name, p.metadata.uid, true}};
  claim.metadata.annotations.emplace(dra::kExtendedResourceClaimAnnotation, "true");
  return claim;
}

Code DynamicResources::filter_extended(const CycleData& data, const PodInfo& pod,
                                       const NodeInfo& node, Reasons& reasons,
                                       std::shared_ptr<const ExtendedVariant>& variant) const {
  CycleData::Shared& s = *data.shared;
  StringPool& pool = handle_.cluster.pool();
  const dra::ResourceClaim& claim = s.claims[*s.extended];
  if (!claim.spec.requests.empty()) {
    // Made by an earlier cycle: PostFilter deletes it and the pod starts over.
    reasons.push_back(pool.intern("cannot schedule extended resource claim"));
    return Code::UnschedulableAndUnresolvable;
  }
  const DraState& dra = handle_.cluster.dra();
  const ResourceRegistry& registry = handle_.cluster.resources();
  std::vector<bool> via_dra(s.extended_requests.size());
  bool any = false;
  for (std::size_t k = 0; k < s.extended_requests.size(); ++k) {
    const ResId id = s.extended_requests[k].id;
    const std::string& name = registry.name(id);
    if (node.allocatable[id] == 0 && dra.extended_resource_class(name) != nullptr) {
      via_dra[k] = true;
      any = true;
    } else if (!node.node.allocatable.contains(name)) {
      // Neither the node's device plugin nor a DeviceClass serves it.
      reasons.push_back(pool.intern("cannot fit resource"));
      return Code::UnschedulableAndUnresolvable;
    }
  }
  if (!any || claim.status.allocation) return Code::Success;
  auto [it, added] = s.extended_variants.try_emplace(std::move(via_dra));
  if (added) {
    // createRequestsAndMappings: per resource in name order, one request per long-lived
    // container (regular containers, sidecars); a plain init container first reuses the
    // requests of long-lived containers after it, and of the init containers' requests only
    // the largest is kept. Requests end sorted by name.
    auto out = std::make_shared<ExtendedVariant>();
    out->claim = claim;
    const Pod& p = pod.pod;
    std::vector<const Container*> containers;
    for (const Container& c : p.spec.init_containers) containers.push_back(&c);
    for (const Container& c : p.spec.containers) containers.push_back(&c);
    std::vector<std::string> names;
    for (std::size_t k = 0; k < s.extended_requests.size(); ++k) {
      if (it->first[k]) names.push_back(registry.name(s.extended_requests[k].id));
    }
    std::sort(names.begin(), names.end());
    std::vector<dra::DeviceRequest>& requests = out->claim.spec.requests;
    for (const std::string& name : names) {
      const dra::DeviceClass* device_class = dra.extended_resource_class(name);
      if (device_class == nullptr) continue;
      const std::string& class_name = device_class->metadata.name;
      ContainerRequests long_lived_mappings, short_lived_mappings;
      std::vector<std::optional<dra::DeviceRequest>> long_lived(containers.size());
      auto short_lived = [&](std::size_t i) {
        return i < p.spec.init_containers.size() && containers[i]->restart_policy != "Always";
      };
      for (std::size_t i = 0; i < containers.size(); ++i) {
        if (short_lived(i)) continue;
        long_lived[i] =
            container_request(i, *containers[i], name, class_name, {}, long_lived_mappings);
      }
      std::optional<dra::DeviceRequest> largest;
      std::set<std::string, std::less<>> short_lived_names;
      for (std::size_t i = 0; i < containers.size(); ++i) {
        if (!short_lived(i)) continue;
        std::optional<dra::DeviceRequest> request =
            container_request(i, *containers[i], name, class_name, std::span(long_lived).subspan(i),
                              short_lived_mappings);
        if (!request) continue;
        short_lived_names.insert(request->name);
        if (!largest || largest->exactly->count < request->exactly->count) largest = request;
      }
      if (largest && short_lived_names.size() > 1) {
        short_lived_names.erase(largest->name);
        for (ContainerExtendedResourceRequest& m : short_lived_mappings) {
          if (short_lived_names.contains(m.request_name)) m.request_name = largest->name;
        }
      }
      if (largest) requests.push_back(std::move(*largest));
      for (std::optional<dra::DeviceRequest>& request : long_lived) {
        if (request) requests.push_back(std::move(*request));
      }
      out->mappings.insert(out->mappings.end(), long_lived_mappings.begin(),
                           long_lived_mappings.end());
      out->mappings.insert(out->mappings.end(), short_lived_mappings.begin(),
                           short_lived_mappings.end());
    }
    std::sort(
        requests.begin(), requests.end(),
        [](const dra::DeviceRequest& a, const dra::DeviceRequest& b) { return a.name < b.name; });
    it->second = std::move(out);
  }
  variant = it->second;
  return Code::Success;
}

Code DynamicResources::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                              Reasons& reasons) const {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->claims.empty()) return Code::Success;
  CycleData::Shared& s = *d->shared;
  StringPool& pool = handle_.cluster.pool();
  std::shared_ptr<const ExtendedVariant> variant;
  if (s.extended) {
    if (const Code code = filter_extended(*d, pod, node, reasons, variant); code != Code::Success)
      return code;
    // No claim of its own, and the node's device plugin serves the extended resources.
    if (!variant && *s.extended == 0) return Code::Success;
  }
  std::vector<std::size_t> unavailable;
  for (std::size_t i = 0; i < s.claims.size(); ++i) {
    const std::optional<dra::NodeSelector>& selector = s.available_on_nodes[i];
    if (selector && !dra::node_matches(node.node, std::nullopt, false, selector))
      unavailable.push_back(i);
  }
  std::shared_ptr<const std::vector<dra::AllocationResult>> results;
  if (s.allocator) {
    // The node's variant replaces the extended-resource claim; on a node that serves those
    // resources itself it is left out (upstream would allocate it empty there and fail at
    // Reserve: docs/fidelity.md).
    std::vector<const dra::ResourceClaim*> claims;
    for (std::size_t i : s.to_allocate) {
      if (!s.is_extended(i)) {
        claims.push_back(&s.claims[i]);
      } else if (variant) {
        claims.push_back(&variant->claim);
      }
    }
    std::shared_ptr<const Shape>& shape = variant ? variant->shape : s.shape;
    if (!shape) shape = shape_of(claims);
    // The outcome this node gave a pod of the same shape, if nothing it rests on changed.
    // The reference engine allocates afresh every time, for the optimized one to be checked
    // against.
    const std::vector<dra::Pool>* pools =
        handle_.config.reference_engine ? nullptr : slice_index_->pools_of(node.node, features_);
    const DraState& dra = handle_.cluster.dra();
    auto version_of = [&](const dra::Pool& p) {
      return allocated_index_->pool_version(p.driver, p.name);
    };
    CachedOutcome* cached = nullptr;
    if (pools != nullptr) {
      const auto it = outcomes_.find(node.slot);
      if (it != outcomes_.end() && it->second.shape == shape &&
          it->second.slices_generation == slice_index_generation_ &&
          it->second.classes_generation == dra.classes_generation() &&
          std::equal(it->second.pool_versions.begin(), it->second.pool_versions.end(),
                     pools->begin(), pools->end(),
                     [&](std::uint64_t v, const dra::Pool& p) { return v == version_of(p); })) {
        cached = &it->second;
      }
    }
    if (cached == nullptr) {
      const std::uint64_t drawn = share_ids_drawn_;
      dra::AllocateOutcome outcome = s.allocator->allocate(node.node, claims);
      const bool keep = pools != nullptr && share_ids_drawn_ == drawn;
      switch (outcome.kind) {
        case dra::AllocateOutcome::Kind::Allocated:
          results = std::make_shared<const std::vector<dra::AllocationResult>>(
              std::move(outcome.results));
          break;
        case dra::AllocateOutcome::Kind::NoFit:
          break;
        case dra::AllocateOutcome::Kind::NodeError:
          // ErrFailedAllocationOnNode (1.35+): this node only. 1.34's allocator returned a plain
          // error, which stops the cycle.
          reasons.push_back(pool.intern(outcome.error));
          return handle_.version.minor >= 35 ? Code::UnschedulableAndUnresolvable : Code::Error;
        case dra::AllocateOutcome::Kind::Error:
          reasons.push_back(pool.intern(outcome.error));
          return Code::Error;
      }
      if (keep) {
        std::vector<std::uint64_t> versions;
        versions.reserve(pools->size());
        for (const dra::Pool& p : *pools) versions.push_back(version_of(p));
        outcomes_.insert_or_assign(
            node.slot, CachedOutcome{shape, slice_index_generation_, dra.classes_generation(),
                                     std::move(versions), results});
      }
    } else {
      results = cached->results;
    }
    if (!results) {
      reasons.push_back(pool.intern("cannot allocate all claims"));
      return Code::UnschedulableAndUnresolvable;
    }
  }
  if (!unavailable.empty()) {
    s.unavailable_claims.insert(unavailable.begin(), unavailable.end());
    reasons.push_back(pool.intern("resourceclaim not available on the node"));
    return Code::UnschedulableAndUnresolvable;
  }
  if (s.allocator) {
    s.node_allocations.insert_or_assign(
        node.slot, CycleData::Shared::NodeAllocation{std::move(results), variant});
  }
  return Code::Success;
}

std::string DynamicResources::explain_rejection(const CycleState& state, const PodInfo& pod,
                                                const NodeInfo& node) const {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->to_allocate.empty()) return {};
  const CycleData::Shared& s = *d->shared;
  // The extended-resource claim as this node would have it.
  std::shared_ptr<const ExtendedVariant> variant;
  if (s.extended) {
    Reasons ignored;
    (void)filter_extended(*d, pod, node, ignored, variant);
  }
  const DraState& dra = handle_.cluster.dra();
  // Which claim holds each device (in flight ones too).
  std::map<dra::DeviceId, std::string> holders;
  // The devices whose counters are taken: held ones and shared ones (a device allocated several
  // times takes its counters once; is_device_allocated).
  std::set<dra::DeviceId> taking_counters;
  auto hold = [&](const dra::ResourceClaim& claim, std::string_view how) {
    if (!claim.status.allocation) return;
    std::vector<std::string> consumers;
    for (const dra::ConsumerReference& ref : claim.status.reserved_for)
      consumers.push_back("Pod/" + claim.metadata.namespace_ + "/" + ref.name);
    std::string who = "held by claim " + kobj(claim) + std::string(how);
    if (!consumers.empty()) who += " (for " + joined(consumers, ", ") + ")";
    for (const dra::DeviceRequestAllocationResult& r : claim.status.allocation->devices) {
      if (r.admin_access.value_or(false)) continue;
      taking_counters.insert(dra::DeviceId{r.driver, r.pool, r.device});
      if (!(features_.consumable_capacity && r.share_id))
        holders.emplace(dra::DeviceId{r.driver, r.pool, r.device}, who);
    }
  };
  for (const auto& [key, claim] : dra.claims()) hold(claim, "");
  for (const auto& [uid, claim] : dra.pending_allocations()) hold(claim, ", being allocated");

  // A selector's verdict on a device: "" when it matches.
  auto failed_selectors = [&](const std::vector<dra::DeviceSelector>& selectors,
                              const dra::ResourceSlice& slice, const dra::Device& device,
                              const std::string& whose) -> std::string {
    for (std::size_t i = 0; i < selectors.size(); ++i) {
      if (!selectors[i].cel) continue;
      const dra::cel::CompileResult& compiled = cel_cache_->get_or_compile(*selectors[i].cel);
      if (!compiled.program) return whose + " selector #" + std::to_string(i) + " does not compile";
      const dra::cel::EvalResult result = compiled.matches(
          {slice.driver, &device.attributes, &device.capacity, device.allow_multiple_allocations});
      if (result.error)
        return whose + " selector #" + std::to_string(i) + ": CEL runtime error: " + *result.error;
      if (!result.matches) return "fails " + whose + " selector #" + std::to_string(i);
    }
    return {};
  };
  struct Candidate {
    std::string name;  ///< "<request>" or "<request>/<subrequest>"
    const std::string* class_name;
    const std::vector<dra::DeviceSelector>* selectors;
    const std::vector<dra::DeviceToleration>* tolerations;
    std::string claim;
  };
  std::vector<Candidate> candidates;
  for (std::size_t index : s.to_allocate) {
    const dra::ResourceClaim& claim =
        s.is_extended(index) && variant ? variant->claim : s.claims[index];
    for (const dra::DeviceRequest& request : claim.spec.requests) {
      if (request.exactly) {
        candidates.push_back({request.name, &request.exactly->device_class_name,
                              &request.exactly->selectors, &request.exactly->tolerations,
                              kobj(claim)});
      }
      for (const dra::DeviceSubRequest& sub : request.first_available) {
        candidates.push_back({request.name + "/" + sub.name, &sub.device_class_name, &sub.selectors,
                              &sub.tolerations, kobj(claim)});
      }
    }
  }
  // Partitionable devices: what each pool's counter sets hold minus what its allocated devices
  // consume (the allocator's availableCounters), keyed by driver, pool, set and counter.
  using CounterKey = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<CounterKey, Quantity> left;
  if (features_.partitionable_devices) {
    for (const dra::ResourceSlice* slice : dra.slice_list()) {
      for (const dra::CounterSet& set : slice->shared_counters) {
        for (const auto& [name, amount] : set.counters)
          left.insert_or_assign(CounterKey{slice->driver, slice->pool.name, set.name, name},
                                amount);
      }
    }
    for (const dra::ResourceSlice* slice : dra.slice_list()) {
      for (const dra::Device& device : slice->devices) {
        if (!taking_counters.contains(dra::DeviceId{slice->driver, slice->pool.name, device.name}))
          continue;
        for (const dra::DeviceCounterConsumption& c : device.consumes_counters) {
          for (const auto& [name, amount] : c.counters) {
            const auto it =
                left.find(CounterKey{slice->driver, slice->pool.name, c.counter_set, name});
            if (it != left.end()) it->second = Quantity(it->second.milli() - amount.milli());
          }
        }
      }
    }
  }
  // The first counter the device needs more of than its allocated neighbours left.
  auto counters_short = [&](const dra::ResourceSlice& slice, const dra::Device& device) {
    for (const dra::DeviceCounterConsumption& c : device.consumes_counters) {
      for (const auto& [name, amount] : c.counters) {
        const auto it = left.find(CounterKey{slice.driver, slice.pool.name, c.counter_set, name});
        if (it == left.end() || amount.milli() <= it->second.milli()) continue;
        return "needs " + amount.to_string() + " of counter " + c.counter_set + "/" + name + ", " +
               it->second.to_string() + " left by the allocated devices";
      }
    }
    return std::string();
  };
  std::vector<std::string> lines;
  for (const dra::ResourceSlice* slice : dra.slice_list()) {
    if (!dra::node_matches(node.node, slice->node_name, slice->all_nodes, slice->node_selector))
      continue;
    for (const dra::Device& device : slice->devices) {
      const dra::DeviceId id{slice->driver, slice->pool.name, device.name};
      std::string line = device.name + " (" + slice->driver + ", pool " + slice->pool.name + "): ";
      if (const auto held = holders.find(id); held != holders.end()) {
        lines.push_back(line + held->second);
        continue;
      }
      if (!features_.partitionable_devices && !device.consumes_counters.empty()) {
        lines.push_back(line + "consumes shared counters, and partitionable devices are off");
        continue;
      }
      if (std::string short_of = counters_short(*slice, device); !short_of.empty()) {
        lines.push_back(line + short_of);
        continue;
      }
      std::vector<std::string> why;
      std::string matched;
      for (const Candidate& c : candidates) {
        std::string verdict;
        const dra::DeviceClass* device_class = dra.find_class(*c.class_name);
        if (device_class == nullptr) {
          verdict = "class " + *c.class_name + " does not exist";
        } else {
          verdict =
              failed_selectors(device_class->selectors, *slice, device, "class " + *c.class_name);
        }
        if (verdict.empty())
          verdict = failed_selectors(*c.selectors, *slice, device,
                                     "claim " + c.claim + " request " + c.name);
        if (verdict.empty() && features_.device_taints) {
          for (const dra::DeviceTaint& taint : device.taints) {
            if (taint.effect == dra::DeviceTaintEffect::None) continue;
            const bool tolerated =
                std::any_of(c.tolerations->begin(), c.tolerations->end(),
                            [&](const dra::DeviceToleration& t) { return t.tolerates(taint); });
            if (!tolerated) {
              verdict = "tainted " + taint.key + (taint.value.empty() ? "" : "=" + taint.value) +
                        ":" + std::string(dra::to_string(taint.effect)) +
                        ", not tolerated by request " + c.name;
              break;
            }
          }
        }
        if (verdict.empty()) {
          matched = "free, matches claim " + c.claim + " request " + c.name;
          break;
        }
        why.push_back(std::move(verdict));
      }
      lines.push_back(line + (matched.empty() ? joined(why, "; ") : matched));
    }
  }
  if (lines.empty()) return "no ResourceSlice publishes devices for this node";
  return joined(lines, " | ");
}

PostFilterResult DynamicResources::post_filter(CycleState& state, const PodInfo& pod,
                                               const Diagnosis&) {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->claims.empty())
    return PostFilterResult{Code::Unschedulable, "no new claims to deallocate", std::nullopt};
  CycleData::Shared& s = *d->shared;
  // Upstream picks one claim in Go's map order, at random ("there is no better heuristic");
  // gpusched takes the lowest index, for the same answer on every run.
  const bool stale_extended =
      s.extended && s.claims[*s.extended].metadata.name != kInMemoryClaimName;
  for (std::size_t index : s.unavailable_claims) {
    if (s.is_extended(index)) {
      if (stale_extended) break;
      continue;
    }
    const dra::ResourceClaim& seen = s.claims[index];
    const auto& reserved = seen.status.reserved_for;
    if (!reserved.empty() && !(reserved.size() == 1 && reserved[0].uid == pod.pod.metadata.uid))
      continue;
    dra::ResourceClaim* claim =
        handle_.cluster.edit_dra().edit_claim(seen.metadata.namespace_, seen.metadata.name);
    if (claim == nullptr) break;
    const dra::ResourceClaim old = *claim;
    claim->status.reserved_for.clear();
    claim->status.allocation.reset();
    claim_updated(old, *claim);
    return PostFilterResult{Code::Unschedulable, "deallocation of ResourceClaim completed",
                            std::nullopt};
  }
  if (stale_extended) {
    // The extended-resource claim an earlier cycle created goes (deleteClaim); the next cycle
    // makes a new one.
    const dra::ResourceClaim& claim = s.claims[*s.extended];
    handle_.cluster.edit_dra().remove_claim(claim.metadata.namespace_, claim.metadata.name);
    return PostFilterResult{Code::Unschedulable, "deletion of ResourceClaim completed",
                            std::nullopt};
  }
  return PostFilterResult{Code::Unschedulable, "still not schedulable", std::nullopt};
}

Code DynamicResources::reserve(CycleState& state, const PodInfo&, NodeInfo& node) {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->to_allocate.empty()) return Code::Success;
  CycleData::Shared& s = *d->shared;
  const auto it = s.node_allocations.find(node.slot);
  if (it == s.node_allocations.end() || it->second.results->empty()) {
    // Only the extended-resource claim, which the node's device plugin made needless.
    const bool user_claims = std::any_of(s.to_allocate.begin(), s.to_allocate.end(),
                                         [&](std::size_t i) { return !s.is_extended(i); });
    // "claim allocation not found for node": the framework fails the pod at Reserve.
    return user_claims ? Code::Error : Code::Success;
  }
  const CycleData::Shared::NodeAllocation& allocated = it->second;
  // "internal error, have %d allocations...".
  std::size_t count = 0;
  for (std::size_t index : s.to_allocate) count += !s.is_extended(index) || allocated.extended;
  const std::vector<dra::AllocationResult>& results = *allocated.results;
  if (count != results.size()) return Code::Error;
  DraState& dra = handle_.cluster.edit_dra();
  std::size_t k = 0;
  for (std::size_t index : s.to_allocate) {
    const bool extended = s.is_extended(index);
    if (extended && !allocated.extended) continue;
    s.allocation[index] = results[k];
    // The extended-resource claim goes as the node's variant of it.
    dra::ResourceClaim claim = extended ? allocated.extended->claim : s.claims[index];
    claim.status.allocation = results[k++];
    dra.signal_pending_allocation(std::move(claim));
  }
  s.reserved_extended = allocated.extended;
  return Code::Success;
}

void DynamicResources::unreserve(CycleState& state, const PodInfo& pod, NodeInfo&) {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->claims.empty()) return;
  const CycleData::Shared& s = *d->shared;
  for (std::size_t index = 0; index < s.claims.size(); ++index) {
    const dra::ResourceClaim& seen = s.claims[index];
    if (handle_.cluster.dra().has_pending_allocation(seen.metadata.uid))
      handle_.cluster.edit_dra().remove_pending_allocation(seen.metadata.uid);
    if (s.is_extended(index)) {
      // unreserveExtendedResourceClaim: a claim PreBind created (or an earlier cycle did) goes.
      if (seen.metadata.name != kInMemoryClaimName)
        handle_.cluster.edit_dra().remove_claim(seen.metadata.namespace_, seen.metadata.name);
      continue;
    }
    // The pod leaves reservedFor (a strategic-merge patch of the status).
    const dra::ResourceClaim* current =
        handle_.cluster.dra().find_claim(seen.metadata.namespace_, seen.metadata.name);
    if (current == nullptr || !current->status.allocation ||
        !dra::is_reserved_for_pod(pod.pod, *current))
      continue;
    dra::ResourceClaim* claim =
        handle_.cluster.edit_dra().edit_claim(seen.metadata.namespace_, seen.metadata.name);
    const dra::ResourceClaim old = *claim;
    std::erase_if(claim->status.reserved_for, [&](const dra::ConsumerReference& ref) {
      return ref.uid == pod.pod.metadata.uid;
    });
    claim_updated(old, *claim);
  }
}

Status DynamicResources::pre_bind(CycleState& state, const PodInfo& pod, const NodeInfo& node) {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->claims.empty()) return Code::Success;
  CycleData::Shared& s = *d->shared;
  StringPool& pool = handle_.cluster.pool();
  auto error = [&](const std::string& message) {
    return Status{Code::Error, kName, {pool.intern(message)}};
  };
  for (std::size_t index = 0; index < s.claims.size(); ++index) {
    const dra::ResourceClaim& seen = s.claims[index];
    if (s.is_extended(index) && seen.metadata.name == kInMemoryClaimName) {
      // The node's device plugin serves the extended resources: nothing to create.
      if (!s.allocation[index]) continue;
      if (Status st = create_extended_claim(*d, index, pod, node); !st.ok()) return st;
      continue;
    }
    // bindClaim: the claim as the API server has it now; only a claim written is edited.
    const dra::ResourceClaim* claim =
        handle_.cluster.dra().find_claim(seen.metadata.namespace_, seen.metadata.name);
    if (claim != nullptr && dra::is_reserved_for_pod(pod.pod, *claim)) continue;
    DraState& dra = handle_.cluster.edit_dra();
    const std::optional<dra::AllocationResult>& allocation = s.allocation[index];
    const std::string what =
        allocation ? "add allocation and reservation to claim " : "add reservation to claim ";
    if (claim == nullptr) {
      if (allocation) dra.remove_pending_allocation(seen.metadata.uid);
      return error(what + kobj(seen) + ": resourceclaims.resource.k8s.io \"" + seen.metadata.name +
                   "\" not found");
    }
    if (claim->metadata.deletion_ms) {
      if (allocation) dra.remove_pending_allocation(seen.metadata.uid);
      return error("claim " + kobj(*claim) + " got deleted in the meantime");
    }
    if (allocation && claim->status.allocation) {
      dra.remove_pending_allocation(seen.metadata.uid);
      return error("claim " + kobj(*claim) + " got allocated elsewhere in the meantime");
    }
    if (claim->status.reserved_for.size() >= dra::kReservedForMaxSize) {
      // The API server's validation of the status update.
      if (allocation) dra.remove_pending_allocation(seen.metadata.uid);
      return error(what + kobj(*claim) + ": ResourceClaim.resource.k8s.io \"" +
                   claim->metadata.name + "\" is invalid: status.reservedFor: Too many: " +
                   std::to_string(claim->status.reserved_for.size() + 1) + ": must have at most " +
                   std::to_string(dra::kReservedForMaxSize) + " items");
    }
    const dra::ResourceClaim old = *claim;
    dra::ResourceClaim* written = dra.edit_claim(seen.metadata.namespace_, seen.metadata.name);
    if (allocation) written->status.allocation = *allocation;
    written->status.reserved_for.push_back({"pods", pod.pod.metadata.name, pod.pod.metadata.uid});
    if (allocation) dra.remove_pending_allocation(seen.metadata.uid);
    s.claims[index] = *written;
    claim_updated(old, *written);
  }
  return Code::Success;
}

Status DynamicResources::create_extended_claim(const CycleData& data, std::size_t index,
                                               const PodInfo& pod, const NodeInfo& node) {
  CycleData::Shared& s = *data.shared;
  StringPool& pool = handle_.cluster.pool();
  auto error = [&](const std::string& message) {
    return Status{Code::Error, kName, {pool.intern(message)}};
  };
  const Pod& p = pod.pod;
  if (!s.reserved_extended) {
    return error("extended resource claim not found for node " + node.node.metadata.name);
  }
  // createExtendedResourceClaimInAPI, then bindClaim's status update: the node's variant
  // created under its generateName `<pod>-extended-resources-`, allocated and reserved for the
  // pod.
  dra::ResourceClaim claim = s.reserved_extended->claim;
  DraState& dra = handle_.cluster.edit_dra();
  dra.remove_pending_allocation(claim.metadata.uid);
  std::string base = p.metadata.name + "-extended-resources-";
  if (base.size() > kMaxGeneratedNameBase) base.resize(kMaxGeneratedNameBase);
  for (std::uint64_t attempt = 0;; ++attempt) {
    claim.metadata.name = base + generated_suffix(base, attempt);
    if (dra.find_claim(claim.metadata.namespace_, claim.metadata.name) == nullptr) break;
  }
  claim.metadata.uid = random_uuid();
  if (handle_.scheduler != nullptr) claim.metadata.creation_ms = handle_.scheduler->now();
  claim.status.allocation = s.allocation[index];
  claim.status.reserved_for.push_back({"pods", p.metadata.name, p.metadata.uid});
  const std::string name = claim.metadata.name;
  dra.apply_claim(std::move(claim));
  const dra::ResourceClaim* created = dra.find_claim(p.metadata.namespace_, name);
  s.claims[index] = *created;
  if (handle_.scheduler != nullptr) {
    handle_.scheduler->cluster_event(
        {EventResource::ResourceClaim, action::kAdd, "ResourceClaimAdd"},
        EventObjects{.claim = created});
  }
  // patchPodExtendedResourceClaimStatus.
  const ContainerRequests& mappings = s.reserved_extended->mappings;
  if (mappings.empty()) {
    return error("nil or empty request mappings, no update of pod " + p.metadata.namespace_ + "/" +
                 p.metadata.name + " ExtendedResourceClaimStatus");
  }
  if (PodInfo* info = handle_.cluster.find_pod(p.metadata.namespace_, p.metadata.name)) {
    info->pod.status.extended_resource_claim_status =
        PodExtendedResourceClaimStatus{mappings, name};
  }
  return Code::Success;
}

void DynamicResources::claim_updated(const dra::ResourceClaim& old_claim,
                                     const dra::ResourceClaim& claim) const {
  if (handle_.scheduler == nullptr) return;
  handle_.scheduler->cluster_event(
      {EventResource::ResourceClaim, action::kUpdate, "ResourceClaimUpdate"},
      EventObjects{.old_claim = &old_claim, .claim = &claim});
}

std::vector<ClusterEventWithHint> DynamicResources::events_to_register() const {
  // With queueing hints (on in every release gpusched mirrors) a node's taint change is left to
  // TaintToleration.
  return {
      {{EventResource::Node,
        action::kAdd | action::kUpdateNodeLabel | action::kUpdateNodeAllocatable, "Node"},
       false},
      {{EventResource::ResourceClaim, action::kAdd | action::kUpdate, "ResourceClaim"}, true},
      {{EventResource::Pod, action::kUpdatePodGeneratedResourceClaim, "Pod"}, true},
      {{EventResource::DeviceClass, action::kAdd | action::kUpdate, "DeviceClass"}, false},
      {{EventResource::ResourceSlice, action::kAdd | action::kUpdate, "ResourceSlice"}, false},
  };
}

QueueingHint DynamicResources::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                             const EventObjects& objects) const {
  if (event.resource == EventResource::Pod) {
    // isSchedulableAfterPodChange: the pod's own claims were created.
    if (objects.pod == nullptr || objects.pod->pod.metadata.uid != pod.pod.metadata.uid)
      return QueueingHint::QueueSkip;
    const std::string error = for_each_pod_claim(objects.pod->pod, [](const auto&) {});
    return error.empty() ? QueueingHint::Queue : QueueingHint::QueueSkip;
  }
  if (event.resource != EventResource::ResourceClaim || objects.claim == nullptr)
    return QueueingHint::Queue;
  // isSchedulableAfterClaimChange.
  const dra::ResourceClaim& modified = *objects.claim;
  bool uses_claim = false;
  const std::string error = for_each_pod_claim(pod.pod, [&](const dra::ResourceClaim& claim) {
    if (claim.metadata.uid == modified.metadata.uid) uses_claim = true;
  });
  if (!error.empty()) return QueueingHint::QueueSkip;
  const dra::ResourceClaim* old = objects.old_claim;
  // A deallocation frees devices for anyone.
  if (old != nullptr && old->status.allocation && !modified.status.allocation)
    return QueueingHint::Queue;
  if (!uses_claim) return QueueingHint::QueueSkip;
  if (old == nullptr) return QueueingHint::Queue;
  return old->status == modified.status ? QueueingHint::QueueSkip : QueueingHint::Queue;
}

std::int64_t DynamicResourcesScoring::score(const CycleState& state, const PodInfo&,
                                            const NodeInfo& node) const {
  const CycleData* d = data(state);
  if (d == nullptr || d->shared->to_allocate.empty()) return 0;
  const CycleData::Shared& s = *d->shared;
  const auto it = s.node_allocations.find(node.slot);
  if (it == s.node_allocations.end()) return 0;
  const std::vector<dra::AllocationResult>& results = *it->second.results;
  const bool with_extended = it->second.extended != nullptr;
  // computeScore, over the claims this node's allocation is for (see docs/fidelity.md).
  std::int64_t score = 0;
  std::size_t k = 0;
  for (std::size_t index : s.to_allocate) {
    if (k >= results.size()) break;
    // The extended-resource claim has only exact requests, and no result where left out.
    if (s.is_extended(index)) {
      k += with_extended;
      continue;
    }
    std::set<std::string, std::less<>> allocated_sub_requests;
    for (const dra::DeviceRequestAllocationResult& r : results[k++].devices) {
      if (r.request.find('/') != std::string::npos) allocated_sub_requests.insert(r.request);
    }
    for (const dra::DeviceRequest& request : s.claims[index].spec.requests) {
      if (request.exactly) continue;
      for (std::size_t i = 0; i < request.first_available.size(); ++i) {
        if (allocated_sub_requests.contains(request.name + "/" + request.first_available[i].name))
          score += kFirstAvailableDeviceRequestMaxSize - static_cast<std::int64_t>(i);
      }
    }
  }
  return score;
}

void DynamicResourcesScoring::score_nodes(const CycleState& state, const PodInfo& pod,
                                          std::span<const NodeInfo* const> nodes,
                                          std::span<std::int64_t> scores) const {
  if (scores_alike(state, pod, nodes)) {
    std::fill(scores.begin(), scores.end(), 0);
    return;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) scores[i] = score(state, pod, *nodes[i]);
}

bool DynamicResourcesScoring::scores_alike(const CycleState& state, const PodInfo&,
                                           std::span<const NodeInfo* const>) const {
  const CycleData* d = data(state);
  return d == nullptr || d->shared->to_allocate.empty();
}

void DynamicResourcesScoring::normalize(const CycleState&, const PodInfo&,
                                        std::span<std::int64_t> scores) const {
  default_normalize_score(kMaxNodeScore, false, scores);
}

}  // namespace gpusched::plugins
