// A port of structured/internal/incubating/allocator_incubating.go (k8s.io/dynamic-resource-
// allocation v0.36.2). The search keeps upstream's order of checks and its bookkeeping, including
// where upstream does not undo a step on a rejected candidate (noted below): the answers, and
// the number of allocateOne calls the upstream tests count, are the same.

#include "dra/allocator.hpp"

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "dra/constraint.hpp"
#include "dra/consumable_capacity.hpp"
#include "dra/pools.hpp"

namespace gpusched::dra {

namespace {

// klog.KObj(claim).String().
std::string kobj(const ObjectMeta& meta) {
  return meta.namespace_.empty() ? meta.name : meta.namespace_ + "/" + meta.name;
}

// requestAccessor: a request's `exactly` or one of its subrequests.
struct RequestAccessor {
  const DeviceRequest* request = nullptr;
  const DeviceSubRequest* sub = nullptr;

  [[nodiscard]] const std::string& name() const { return sub ? sub->name : request->name; }
  [[nodiscard]] const std::string& class_name() const {
    static const std::string kNone;
    if (sub) return sub->device_class_name;
    return request->exactly ? request->exactly->device_class_name : kNone;
  }
  [[nodiscard]] AllocationMode mode() const {
    return sub ? sub->allocation_mode : request->exactly->allocation_mode;
  }
  [[nodiscard]] std::int64_t count() const { return sub ? sub->count : request->exactly->count; }
  [[nodiscard]] bool admin_access() const {
    return !sub && request->exactly && request->exactly->admin_access.value_or(false);
  }
  [[nodiscard]] bool has_admin_access() const {
    return !sub && request->exactly && request->exactly->admin_access.has_value();
  }
  [[nodiscard]] const std::vector<DeviceSelector>& selectors() const {
    static const std::vector<DeviceSelector> kNone;
    if (sub) return sub->selectors;
    return request->exactly ? request->exactly->selectors : kNone;
  }
  [[nodiscard]] const std::vector<DeviceToleration>& tolerations() const {
    return sub ? sub->tolerations : request->exactly->tolerations;
  }
  [[nodiscard]] const std::optional<CapacityRequests>& capacities() const {
    return sub ? sub->capacity : request->exactly->capacity;
  }
};

struct DeviceWithId {
  const Device* device = nullptr;
  DeviceId id;
  const ResourceSlice* slice = nullptr;
  const Pool* pool = nullptr;
};

struct RequestData {
  RequestAccessor request;
  const DeviceRequest* parent = nullptr;  // set for a subrequest
  const DeviceClass* device_class = nullptr;
  int num_devices = 0;
  int selected_sub_request = 0;           // on entry 0 of a request with subrequests
  std::vector<DeviceWithId> all_devices;  // allocationMode All
  // The class's and the request's selectors as compiled, looked up in the cache when first
  // evaluated (as upstream compiles them: a broken one only fails once a device is tried).
  std::vector<const cel::CompileResult*> class_programs;
  std::vector<const cel::CompileResult*> request_programs;

  [[nodiscard]] std::string request_name() const {
    return parent ? parent->name + "/" + request.name() : request.name();
  }
};

struct DeviceResult {
  const Device* device = nullptr;
  std::string request;         // the request, or the subrequest
  std::string parent_request;  // the request holding the subrequest, else empty
  DeviceId id;
  std::optional<std::string> share_id;
  const ResourceSlice* slice = nullptr;
  ConsumedCapacity consumed_capacity;
  std::optional<bool> admin_access;

  [[nodiscard]] std::string request_name() const {
    return parent_request.empty() ? request : parent_request + "/" + request;
  }
};

// deviceIndices.
struct Position {
  int claim = 0;
  int request = 0;
  int sub_request = 0;
  int device = 0;
};

// deviceLocation.
struct Location {
  std::size_t pool = 0;
  std::size_t slice = 0;
  std::size_t device = 0;
};

// Upstream keys the consumed and available counters by the pool's name alone, not by driver
// and name; so does gpusched.
using CounterSets = CounterValues;

enum class Failure : std::uint8_t { None, MaxSizeExceeded, Error };

struct Step {
  bool done = false;
  Failure failure = Failure::None;
};

Quantity minus(const Quantity& a, const Quantity& b) {
  return Quantity(a.milli() - b.milli());
}

bool is_device_allocated(const DeviceId& id, const AllocatedState& state) {
  if (state.allocated_devices.contains(id)) return true;
  for (const SharedDeviceId& shared : state.allocated_shared_device_ids) {
    if (shared.device == id) return true;
  }
  return state.aggregated_capacity.contains(id);
}

// taintPreventsAllocation: NoSchedule and NoExecute taints must be tolerated; None and
// unknown effects are ignored.
bool taint_prevents_allocation(const Device& device, const RequestAccessor& request) {
  for (const DeviceTaint& taint : device.taints) {
    if (taint.effect == DeviceTaintEffect::None) continue;
    const std::vector<DeviceToleration>& tolerations = request.tolerations();
    if (std::none_of(tolerations.begin(), tolerations.end(),
                     [&](const DeviceToleration& t) { return t.tolerates(taint); })) {
      return true;
    }
  }
  return false;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void add_new_requirements(const std::vector<SelectorRequirement>& from,
                          std::vector<SelectorRequirement>& to) {
  for (const SelectorRequirement& r : from) {
    const bool present = std::any_of(to.begin(), to.end(), [&](const SelectorRequirement& e) {
      if (e.key != r.key || e.op != r.op) return false;
      std::vector<std::string> a = e.values;
      std::vector<std::string> b = r.values;
      std::sort(a.begin(), a.end());
      a.erase(std::unique(a.begin(), a.end()), a.end());
      std::sort(b.begin(), b.end());
      b.erase(std::unique(b.begin(), b.end()), b.end());
      return a == b;
    });
    if (!present) to.push_back(r);
  }
}

}  // namespace

// The state of one Allocate call (upstream's `allocator`).
class AllocationSearch {
 public:
  AllocationSearch(Allocator& owner, const Node& node, std::span<const ResourceClaim* const> claims)
      : a_(owner), node_(node), claims_(claims) {}

  AllocateOutcome run();

 private:
  [[nodiscard]] AllocateOutcome error(std::string message) {
    AllocateOutcome out;
    out.kind = AllocateOutcome::Kind::Error;
    out.error = std::move(message);
    return out;
  }
  [[nodiscard]] std::optional<std::string> validate_request(RequestAccessor request,
                                                            const DeviceRequest* parent,
                                                            const Position& key, RequestData& out);
  [[nodiscard]] std::optional<bool> is_selectable(const Position& r, RequestData& data,
                                                  const ResourceSlice& slice, const Device& device);
  [[nodiscard]] std::optional<bool> selectors_match(
      int claim_index, const Device& device, std::string_view driver,
      const DeviceClass* device_class, const std::vector<DeviceSelector>& selectors,
      std::vector<const cel::CompileResult*>& programs);
  [[nodiscard]] std::optional<bool> fits_capacity(const RequestData& data,
                                                  const ResourceSlice& slice,
                                                  const Device& device) const;
  [[nodiscard]] Step allocate_one(Position r, bool allocate_sub_request, Location start);
  // allocateDevice: true when allocated; on an error, error_ is set and the result is false.
  [[nodiscard]] bool allocate_device(const Position& r, const DeviceWithId& device, bool must);
  void deallocate(const Position& r, const DeviceWithId& device, std::size_t previous_results,
                  bool allow_multiple);
  [[nodiscard]] bool check_available_counters(const DeviceWithId& device);
  void deallocate_counters(const DeviceWithId& device);
  // The number the index gave the slice's first device, when the allocated state's in-use
  // bits are numbered by this allocator's index; else the names are looked up.
  [[nodiscard]] std::optional<std::uint32_t> first_number(const ResourceSlice& slice) const;
  [[nodiscard]] bool device_in_use(const ResourceSlice& slice, std::size_t index,
                                   std::optional<std::uint32_t> first) const;
  [[nodiscard]] bool allocating_for_claim(const DeviceId& id, int claim) const;
  [[nodiscard]] std::optional<NodeSelector> node_selector(
      const std::vector<DeviceResult>& results) const;
  [[nodiscard]] RequestData& data(const Position& r) {
    return request_data_[r.claim][r.request][r.sub_request];
  }

  Allocator& a_;
  const Node& node_;
  std::span<const ResourceClaim* const> claims_;
  // GatherPools' answer: the index's, or gathered here (own_pools_).
  const std::vector<Pool>* pools_ = nullptr;
  std::vector<Pool> own_pools_;
  // requestData: per claim, per request, one entry (or one per subrequest).
  std::vector<std::vector<std::vector<RequestData>>> request_data_;
  std::vector<std::vector<Constraint>> constraints_;
  std::map<std::tuple<const Device*, int, int, int>, bool> device_matches_request_;
  std::map<std::string, CounterSets, std::less<>> consumed_counters_;
  std::map<DeviceId, std::vector<int>> allocating_devices_;
  std::map<DeviceId, ConsumedCapacity> allocating_capacity_;
  std::vector<std::vector<DeviceResult>> results_;
  std::string error_;
};

SliceIndex::SliceIndex(std::vector<const ResourceSlice*> slices) : all(std::move(slices)) {
  for (const ResourceSlice* slice : all) {
    if (!slice->node_name || slice->node_name->empty() || !slice->shared_counters.empty()) {
      shared.push_back(slice);
    } else {
      on_node[*slice->node_name].push_back(slice);
    }
    first_device.emplace(slice, device_count);
    for (const Device& device : slice->devices) {
      named_[DeviceId{slice->driver, slice->pool.name, device.name}].push_back(device_count++);
    }
  }
}

std::span<const std::uint32_t> SliceIndex::devices_named(const DeviceId& id) const {
  const auto it = named_.find(id);
  if (it == named_.end()) return {};
  return it->second;
}

const std::vector<Pool>* SliceIndex::pools_of(const Node& node,
                                              const AllocatorFeatures& features) const {
  if (!shared.empty()) return nullptr;
  if (pools_features_ != features) {
    pools_by_node_.clear();
    pools_features_ = features;
  }
  auto it = pools_by_node_.find(node.metadata.name);
  if (it == pools_by_node_.end()) {
    std::span<const ResourceSlice* const> local;
    if (const auto slices = on_node.find(node.metadata.name); slices != on_node.end())
      local = slices->second;
    it = pools_by_node_.emplace(node.metadata.name, gather_pools(local, node, features, all)).first;
  }
  return &it->second;
}

void mark_in_use(AllocatedState& state, const DeviceId& id, bool in_use) {
  if (!state.in_use_index) return;
  for (const std::uint32_t n : state.in_use_index->devices_named(id)) state.in_use[n] = in_use;
}

void number_in_use(AllocatedState& state, std::shared_ptr<const SliceIndex> index) {
  state.in_use.assign(index->device_count, false);
  state.in_use_index = std::move(index);
  for (const DeviceId& id : state.allocated_devices) mark_in_use(state, id, true);
}

Allocator::Allocator(AllocatorFeatures features, AllocatedState allocated, ClassLookup classes,
                     std::vector<const ResourceSlice*> slices, cel::Cache& cel_cache,
                     std::function<std::string()> new_share_id)
    : Allocator(features, std::make_shared<const AllocatedState>(std::move(allocated)),
                std::move(classes), std::make_shared<const SliceIndex>(std::move(slices)),
                cel_cache, std::move(new_share_id)) {}

Allocator::Allocator(AllocatorFeatures features, std::shared_ptr<const AllocatedState> allocated,
                     ClassLookup classes, std::shared_ptr<const SliceIndex> slices,
                     cel::Cache& cel_cache, std::function<std::string()> new_share_id)
    : features_(features),
      allocated_state_(std::move(allocated)),
      allocated_(*allocated_state_),
      classes_(std::move(classes)),
      slices_(std::move(slices)),
      cel_cache_(cel_cache),
      new_share_id_(std::move(new_share_id)) {}

AllocateOutcome Allocator::allocate(const Node& node,
                                    std::span<const ResourceClaim* const> claims) {
  AllocationSearch search(*this, node, claims);
  return search.run();
}

AllocateOutcome AllocationSearch::run() {
  const SliceIndex& index = *a_.slices_;
  pools_ = index.pools_of(node_, a_.features_);
  if (pools_ == nullptr) {
    std::vector<const ResourceSlice*> slices_for_node;
    if (const auto it = index.on_node.find(node_.metadata.name); it != index.on_node.end()) {
      slices_for_node = it->second;
    }
    slices_for_node.insert(slices_for_node.end(), index.shared.begin(), index.shared.end());
    own_pools_ = gather_pools(slices_for_node, node_, a_.features_, index.all);
    pools_ = &own_pools_;
  }

  request_data_.resize(claims_.size());
  constraints_.resize(claims_.size());
  results_.resize(claims_.size());
  for (std::size_t ci = 0; ci < claims_.size(); ++ci) {
    const ResourceClaim& claim = *claims_[ci];
    const int claim_index = static_cast<int>(ci);
    std::int64_t min_devices_per_claim = 0;
    request_data_[ci].resize(claim.spec.requests.size());
    for (std::size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const DeviceRequest& request = claim.spec.requests[ri];
      const bool has_sub_requests = !request.first_available.empty();
      if (!a_.features_.prioritized_list && has_sub_requests) {
        return error("claim " + kobj(claim.metadata) + ", request " + request.name +
                     ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      if (!a_.features_.consumable_capacity) {
        if (request.exactly && request.exactly->capacity) {
          return error("claim " + kobj(claim.metadata) + ", request " + request.name +
                       ": has capacity requests, but the DRAConsumableCapacity feature is "
                       "disabled");
        }
        for (const DeviceSubRequest& sub : request.first_available) {
          if (sub.capacity) {
            return error("claim " + kobj(claim.metadata) + ", subrequest " + sub.name +
                         ": has capacity requests, but the DRAConsumableCapacity feature is "
                         "disabled");
          }
        }
      }
      std::vector<RequestData>& entries = request_data_[ci][ri];
      if (has_sub_requests) {
        std::int64_t min_devices = -1;
        for (const DeviceSubRequest& sub : request.first_available) {
          RequestData d;
          const Position key{claim_index, static_cast<int>(ri), static_cast<int>(entries.size()),
                             0};
          if (auto e = validate_request({&request, &sub}, &request, key, d)) {
            return error(*e);
          }
          if (min_devices < 0 || d.num_devices < min_devices) min_devices = d.num_devices;
          entries.push_back(std::move(d));
        }
        min_devices_per_claim += min_devices;
      } else {
        RequestData d;
        if (auto e = validate_request({&request, nullptr}, nullptr,
                                      Position{claim_index, static_cast<int>(ri), 0, 0}, d)) {
          return error(*e);
        }
        min_devices_per_claim += d.num_devices;
        entries.push_back(std::move(d));
      }
    }
    if (min_devices_per_claim > static_cast<std::int64_t>(kAllocationResultsMaxSize)) {
      return error("claim " + kobj(claim.metadata) + ": number of requested devices " +
                   std::to_string(min_devices_per_claim) + " exceeds the claim limit of " +
                   std::to_string(kAllocationResultsMaxSize));
    }
    for (std::size_t i = 0; i < claim.spec.constraints.size(); ++i) {
      const DeviceConstraint& c = claim.spec.constraints[i];
      if (!c.match_attribute && !c.distinct_attribute) {
        return error("claim " + kobj(claim.metadata) + ", constraint #" + std::to_string(i) +
                     ": empty constraint (unsupported constraint type?)");
      }
      constraints_[ci].emplace_back(c);
    }
  }

  const Step step = allocate_one(Position{}, false, Location{});
  if (step.failure == Failure::Error) return error(error_);
  AllocateOutcome out;
  if (!step.done) {
    // Invalid pools are only an error when nothing else could satisfy the claims, and then
    // only for this node (ErrFailedAllocationOnNode).
    if (std::any_of(pools_->begin(), pools_->end(), [](const Pool& p) { return p.invalid; })) {
      out.kind = AllocateOutcome::Kind::NodeError;
      out.error = "invalid resource pools were encountered";
    }
    return out;
  }

  out.kind = AllocateOutcome::Kind::Allocated;
  out.results.resize(claims_.size());
  for (std::size_t ci = 0; ci < claims_.size(); ++ci) {
    const ResourceClaim& claim = *claims_[ci];
    AllocationResult& result = out.results[ci];
    for (const DeviceResult& d : results_[ci]) {
      DeviceRequestAllocationResult r;
      r.request = d.request_name();
      r.driver = d.id.driver;
      r.pool = d.id.pool;
      r.device = d.id.device;
      r.admin_access = d.admin_access;
      // lookupRequest: the tolerations of the request (or subrequest) the device went to.
      const std::string& base = d.parent_request.empty() ? d.request : d.parent_request;
      for (const DeviceRequest& request : claim.spec.requests) {
        if (request.name != base) continue;
        if (d.parent_request.empty()) {
          if (request.exactly) r.tolerations = request.exactly->tolerations;
        } else {
          for (const DeviceSubRequest& sub : request.first_available) {
            if (sub.name == d.request) r.tolerations = sub.tolerations;
          }
        }
        break;
      }
      r.share_id = d.share_id;
      r.consumed_capacity =
          CapacityRequests(d.consumed_capacity.begin(), d.consumed_capacity.end());
      if (a_.features_.device_binding_and_status) {
        r.binding_conditions = d.device->binding_conditions;
        r.binding_failure_conditions = d.device->binding_failure_conditions;
      }
      result.devices.push_back(std::move(r));
    }

    // Configs: each class's configs once (later requests of the class are added to them),
    // then the claim's configs that apply.
    std::map<std::string, std::pair<std::size_t, std::size_t>, std::less<>> class_configs;
    for (std::size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const std::vector<RequestData>& entries = request_data_[ci][ri];
      const RequestData& d =
          entries[0].parent ? entries[static_cast<std::size_t>(entries[0].selected_sub_request)]
                            : entries[0];
      if (d.device_class == nullptr) continue;
      const std::string name = d.request_name();
      if (const auto it = class_configs.find(d.device_class->metadata.name);
          it != class_configs.end()) {
        for (std::size_t i = it->second.first; i < it->second.second; ++i) {
          result.config[i].requests.push_back(name);
        }
        continue;
      }
      const std::size_t start = result.config.size();
      for (const DeviceConfiguration& config : d.device_class->config) {
        result.config.push_back({ConfigSource::FromClass, {name}, config});
      }
      class_configs.emplace(d.device_class->metadata.name, std::pair{start, result.config.size()});
    }
    for (const DeviceClaimConfiguration& config : claim.spec.config) {
      if (config.requests.empty()) {
        result.config.push_back({ConfigSource::FromClaim, config.requests, config.config});
        continue;
      }
      for (std::size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
        const DeviceRequest& request = claim.spec.requests[ri];
        // Upstream adds a config once per request it names.
        if (contains(config.requests, request.name)) {
          result.config.push_back({ConfigSource::FromClaim, config.requests, config.config});
          continue;
        }
        const RequestData& d = request_data_[ci][ri][0];
        if (d.parent == nullptr) continue;
        const DeviceSubRequest& sub =
            request.first_available[static_cast<std::size_t>(d.selected_sub_request)];
        if (contains(config.requests, request.name + "/" + sub.name)) {
          result.config.push_back({ConfigSource::FromClaim, config.requests, config.config});
        }
      }
    }
    result.node_selector = node_selector(results_[ci]);
  }
  return out;
}

std::optional<std::string> AllocationSearch::validate_request(RequestAccessor request,
                                                              const DeviceRequest* parent,
                                                              const Position& key,
                                                              RequestData& out) {
  const ResourceClaim& claim = *claims_[static_cast<std::size_t>(key.claim)];
  const std::string prefix = "claim " + kobj(claim.metadata) + ", request " + request.name();
  out.request = request;
  out.parent = parent;
  const std::vector<DeviceSelector>& selectors = request.selectors();
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    if (!selectors[i].cel) {
      return prefix + ", selector #" + std::to_string(i) +
             ": CEL expression empty (unsupported selector type?)";
    }
  }
  if (!a_.features_.admin_access && request.has_admin_access()) {
    return prefix + ": admin access is requested, but the feature is disabled";
  }
  if (request.class_name().empty()) {
    return prefix + ": missing device class name (unsupported request type?)";
  }
  out.device_class = a_.classes_(request.class_name());
  if (out.device_class == nullptr) {
    // The scheduler's lister answers with the API's NotFound error.
    return prefix + ": could not retrieve device class " + request.class_name() +
           ": deviceclass.resource.k8s.io \"" + request.class_name() + "\" not found";
  }
  if (request.mode() == AllocationMode::ExactCount) {
    out.num_devices = static_cast<int>(std::min<std::int64_t>(request.count(), 1 << 30));
    return std::nullopt;
  }
  // All: the devices are fixed up front, from complete and valid pools only.
  for (const Pool& pool : *pools_) {
    if (pool.incomplete) {
      return prefix + ": asks for all devices, but resource pool " + pool.id() +
             " is currently being updated";
    }
    if (pool.invalid) {
      return prefix + ": asks for all devices, but resource pool " + pool.id() +
             " is currently invalid";
    }
    for (const ResourceSlice* slice : pool.device_slices_targeting_node) {
      for (const Device& device : slice->devices) {
        const std::optional<bool> selectable = is_selectable(key, out, *slice, device);
        if (!selectable) return error_;
        if (!*selectable) continue;
        if (a_.features_.consumable_capacity) {
          const std::optional<bool> fits = fits_capacity(out, *slice, device);
          if (!fits || !*fits) continue;
        }
        out.all_devices.push_back(
            {&device, DeviceId{slice->driver, slice->pool.name, device.name}, slice, &pool});
      }
    }
  }
  out.num_devices = static_cast<int>(out.all_devices.size());
  return std::nullopt;
}

std::optional<bool> AllocationSearch::selectors_match(
    int claim_index, const Device& device, std::string_view driver, const DeviceClass* device_class,
    const std::vector<DeviceSelector>& selectors,
    std::vector<const cel::CompileResult*>& programs) {
  auto owner = [&] {
    return device_class != nullptr
               ? "class " + device_class->metadata.name
               : "claim " + kobj(claims_[static_cast<std::size_t>(claim_index)]->metadata);
  };
  programs.resize(selectors.size());
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    if (programs[i] == nullptr) programs[i] = &a_.cel_cache_.get_or_compile(*selectors[i].cel);
    const cel::CompileResult& compiled = *programs[i];
    if (!compiled.program) {
      error_ =
          owner() + ": selector #" + std::to_string(i) + ": CEL compile error: " + compiled.error;
      return std::nullopt;
    }
    const cel::EvalResult result = compiled.matches(cel::DeviceView{
        driver, &device.attributes, &device.capacity, device.allow_multiple_allocations});
    if (result.error) {
      error_ =
          owner() + ": selector #" + std::to_string(i) + ": CEL runtime error: " + *result.error;
      return std::nullopt;
    }
    if (!result.matches) return false;
  }
  return true;
}

std::optional<bool> AllocationSearch::is_selectable(const Position& r, RequestData& data,
                                                    const ResourceSlice& slice,
                                                    const Device& device) {
  if (!a_.features_.device_binding_and_status && !device.binding_conditions.empty()) return false;
  const auto key = std::tuple{&device, r.claim, r.request, r.sub_request};
  if (const auto it = device_matches_request_.find(key); it != device_matches_request_.end()) {
    return it->second;
  }
  bool matches = true;
  if (data.device_class != nullptr) {
    const std::optional<bool> m = selectors_match(r.claim, device, slice.driver, data.device_class,
                                                  data.device_class->selectors, data.class_programs);
    if (!m) return std::nullopt;
    matches = *m;
  }
  if (matches) {
    const std::optional<bool> m =
        selectors_match(r.claim, device, slice.driver, nullptr, data.request.selectors(),
                        data.request_programs);
    if (!m) return std::nullopt;
    matches = *m;
  }
  if (matches && slice.per_device_node_selection) {
    matches = node_matches(node_, device.node_name, device.all_nodes, device.node_selector);
  }
  device_matches_request_.emplace(key, matches);
  return matches;
}

std::optional<bool> AllocationSearch::fits_capacity(const RequestData& data,
                                                    const ResourceSlice& slice,
                                                    const Device& device) const {
  const DeviceId id{slice.driver, slice.pool.name, device.name};
  const auto allocating = allocating_capacity_.find(id);
  const auto allocated = a_.allocated_.aggregated_capacity.find(id);
  static const ConsumedCapacity kNone;
  return request_fits_capacity(
      allocated == a_.allocated_.aggregated_capacity.end() ? kNone : allocated->second,
      data.request.capacities(), device.capacity,
      allocating == allocating_capacity_.end() ? nullptr : &allocating->second);
}

std::optional<std::uint32_t> AllocationSearch::first_number(const ResourceSlice& slice) const {
  const AllocatedState& state = a_.allocated_;
  if (state.in_use_index != a_.slices_) return std::nullopt;
  // Every slice the search sees is one of the index's, so its devices are numbered.
  return state.in_use_index->first_device.find(&slice)->second;
}

bool AllocationSearch::device_in_use(const ResourceSlice& slice, std::size_t index,
                                     std::optional<std::uint32_t> first) const {
  const DeviceIdView id{slice.driver, slice.pool.name, slice.devices[index].name};
  const AllocatedState& state = a_.allocated_;
  if (first) {
    if (state.in_use[*first + static_cast<std::uint32_t>(index)]) return true;
  } else if (state.allocated_devices.contains(id)) {
    return true;
  }
  if (allocating_devices_.empty()) return false;
  const auto it = allocating_devices_.find(
      DeviceId{std::string(id.driver), std::string(id.pool), std::string(id.device)});
  return it != allocating_devices_.end() && !it->second.empty();
}

bool AllocationSearch::allocating_for_claim(const DeviceId& id, int claim) const {
  const auto it = allocating_devices_.find(id);
  return it != allocating_devices_.end() &&
         std::find(it->second.begin(), it->second.end(), claim) != it->second.end();
}

Step AllocationSearch::allocate_one(Position r, bool allocate_sub_request, Location start) {
  ++a_.num_allocate_one_invocations_;
  if (static_cast<std::size_t>(r.claim) >= claims_.size()) return {true, Failure::None};

  const ResourceClaim& claim = *claims_[static_cast<std::size_t>(r.claim)];
  if (static_cast<std::size_t>(r.request) >= claim.spec.requests.size()) {
    // Done with this claim. Running out of room in a later claim is no reason to give up on
    // this one's other choices: a different subrequest earlier may need fewer devices.
    Step next = allocate_one(Position{r.claim + 1, 0, 0, 0}, false, Location{});
    if (next.failure == Failure::MaxSizeExceeded) return {false, Failure::None};
    return next;
  }

  std::vector<RequestData>& entries =
      request_data_[static_cast<std::size_t>(r.claim)][static_cast<std::size_t>(r.request)];
  if (!allocate_sub_request && entries[static_cast<std::size_t>(r.sub_request)].parent) {
    // firstAvailable: the first subrequest with which the whole remaining search succeeds.
    bool all_exceeded = true;
    for (std::size_t sub = 0; sub < entries.size(); ++sub) {
      r.sub_request = static_cast<int>(sub);
      const Step step = allocate_one(r, true, Location{});
      if (step.failure == Failure::MaxSizeExceeded) continue;
      all_exceeded = false;
      if (step.failure == Failure::Error) return step;
      if (step.done) {
        entries[0].selected_sub_request = static_cast<int>(sub);
        return step;
      }
    }
    return {false, all_exceeded ? Failure::MaxSizeExceeded : Failure::None};
  }

  RequestData& d = data(r);
  const bool all_devices = d.request.mode() == AllocationMode::All;
  if (all_devices && d.all_devices.empty()) return {false, Failure::None};
  if (r.device >= d.num_devices) {
    return allocate_one(Position{r.claim, r.request + 1, 0, 0}, false, Location{});
  }
  const std::size_t after = results_[static_cast<std::size_t>(r.claim)].size() +
                            static_cast<std::size_t>(d.num_devices - r.device);
  if (after > kAllocationResultsMaxSize) return {false, Failure::MaxSizeExceeded};

  if (all_devices) {
    // The order does not matter for "all": if the next one cannot be had, nothing can.
    const DeviceWithId& device = d.all_devices[static_cast<std::size_t>(r.device)];
    const std::size_t previous = results_[static_cast<std::size_t>(r.claim)].size();
    if (!allocate_device(r, device, true)) {
      return {false, error_.empty() ? Failure::None : Failure::Error};
    }
    const bool allow_multiple = a_.features_.consumable_capacity &&
                                device.device->allow_multiple_allocations.value_or(false);
    Position next = r;
    ++next.device;
    const Step step = allocate_one(next, allocate_sub_request, Location{});
    if (step.failure != Failure::None || !step.done) {
      deallocate(r, device, previous, allow_multiple);
    }
    return step;
  }

  for (std::size_t pi = start.pool; pi < pools_->size(); ++pi) {
    const Pool& pool = (*pools_)[pi];
    if (pool.incomplete || pool.invalid) continue;
    const std::size_t slice_start = pi == start.pool ? start.slice : 0;
    for (std::size_t si = slice_start; si < pool.device_slices_targeting_node.size(); ++si) {
      const ResourceSlice& slice = *pool.device_slices_targeting_node[si];
      const std::size_t device_start = (pi == start.pool && si == start.slice) ? start.device : 0;
      const std::optional<std::uint32_t> first = first_number(slice);
      for (std::size_t di = device_start; di < slice.devices.size(); ++di) {
        const Device& device = slice.devices[di];
        // "In use" is cheap: first (a bit, or a lookup without copying the names).
        if (!d.request.admin_access() && device_in_use(slice, di, first)) continue;
        if (d.request.admin_access() &&
            allocating_for_claim(DeviceId{pool.driver, pool.name, device.name}, r.claim)) {
          continue;
        }
        const std::optional<bool> selectable = is_selectable(r, d, slice, device);
        if (!selectable) return {false, Failure::Error};
        if (!*selectable) continue;
        if (a_.features_.consumable_capacity) {
          const std::optional<bool> fits = fits_capacity(d, slice, device);
          if (!fits || !*fits) continue;
        }
        const DeviceWithId candidate{&device, DeviceId{pool.driver, pool.name, device.name},
                                     &slice, &pool};
        const std::size_t previous = results_[static_cast<std::size_t>(r.claim)].size();
        if (!allocate_device(r, candidate, false)) {
          if (!error_.empty()) return {false, Failure::Error};
          continue;
        }
        const bool allow_multiple =
            a_.features_.consumable_capacity && device.allow_multiple_allocations.value_or(false);
        Position next = r;
        ++next.device;
        // The next device of the same request starts after this one: combinations, not
        // permutations.
        const Step step = allocate_one(next, allocate_sub_request, Location{pi, si, di + 1});
        if (step.failure == Failure::None && step.done) return step;
        deallocate(r, candidate, previous, allow_multiple);
        if (step.failure != Failure::None) return step;
      }
    }
  }
  return {false, Failure::None};
}

bool AllocationSearch::allocate_device(const Position& r, const DeviceWithId& device, bool must) {
  const ResourceClaim& claim = *claims_[static_cast<std::size_t>(r.claim)];
  RequestData& d = data(r);
  const RequestAccessor& request = d.request;
  const bool allow_multiple =
      a_.features_.consumable_capacity && device.device->allow_multiple_allocations.value_or(false);
  if (!allow_multiple && request.admin_access() && allocating_for_claim(device.id, r.claim)) {
    return false;
  }
  if (!request.admin_access() &&
      device_in_use(*device.slice,
                    static_cast<std::size_t>(device.device - device.slice->devices.data()),
                    first_number(*device.slice))) {
    return false;
  }
  if (!a_.features_.partitionable_devices && !device.device->consumes_counters.empty()) {
    return false;
  }
  // A shared device already in use has had its counters taken by its first allocation.
  const bool skip_counter_check =
      allow_multiple && (a_.allocated_.aggregated_capacity.contains(device.id) ||
                         allocating_capacity_.contains(device.id));
  if (!skip_counter_check && !device.device->consumes_counters.empty() &&
      !check_available_counters(device)) {
    return false;
  }
  const std::string base = d.parent ? d.parent->name : request.name();
  const std::string sub = d.parent ? request.name() : std::string();

  // Upstream returns here, and on a broken constraint below, without giving back the counters
  // check_available_counters just took for this device; so does gpusched.
  if (a_.features_.device_taints && taint_prevents_allocation(*device.device, request)) {
    return false;
  }
  std::vector<Constraint>& constraints = constraints_[static_cast<std::size_t>(r.claim)];
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].add(base, sub, *device.device, device.id.driver)) continue;
    if (must) {
      error_ = "claim " + kobj(claim.metadata) + ", request " + request.name() +
               ": cannot add device " + device.id.to_string() +
               " because a claim constraint would not be satisfied";
      return false;
    }
    for (std::size_t e = 0; e < i; ++e) constraints[e].remove(base, sub);
    return false;
  }

  std::vector<int>& claims_allocating = allocating_devices_[device.id];
  if (!allow_multiple) claims_allocating.push_back(r.claim);

  DeviceResult result;
  if (a_.features_.consumable_capacity) {
    // Upstream leaves the constraints and the in-use mark in place when this check fails.
    const std::optional<bool> fits = fits_capacity(d, *device.slice, *device.device);
    if (!fits || !*fits) return false;
    if (allow_multiple) {
      result.consumed_capacity =
          consumed_capacity_from_request(request.capacities(), device.device->capacity);
      result.share_id = a_.new_share_id_();
      ConsumedCapacity& allocating = allocating_capacity_[device.id];
      for (const auto& [name, value] : result.consumed_capacity) {
        const auto [it, inserted] = allocating.emplace(name, value);
        if (!inserted) it->second = it->second.plus(value);
      }
    }
  }
  result.device = device.device;
  result.request = request.name();
  result.parent_request = d.parent ? d.parent->name : std::string();
  result.id = device.id;
  result.slice = device.slice;
  if (request.admin_access()) result.admin_access = true;
  results_[static_cast<std::size_t>(r.claim)].push_back(std::move(result));
  return true;
}

void AllocationSearch::deallocate(const Position& r, const DeviceWithId& device,
                                  std::size_t previous_results, bool allow_multiple) {
  const RequestData& d = data(r);
  const std::string base = d.parent ? d.parent->name : d.request.name();
  const std::string sub = d.parent ? d.request.name() : std::string();
  for (Constraint& c : constraints_[static_cast<std::size_t>(r.claim)]) c.remove(base, sub);
  std::vector<int>& claims_allocating = allocating_devices_[device.id];
  std::erase(claims_allocating, r.claim);
  std::vector<DeviceResult>& results = results_[static_cast<std::size_t>(r.claim)];
  if (allow_multiple) {
    // ConsumedCapacityCollection.Remove: subtract, and forget the device once all is zero.
    const ConsumedCapacity& consumed = results[previous_results].consumed_capacity;
    if (!consumed.empty()) {
      if (auto it = allocating_capacity_.find(device.id); it != allocating_capacity_.end()) {
        for (const auto& [name, value] : consumed) {
          if (auto c = it->second.find(name); c != it->second.end()) {
            c->second = minus(c->second, value);
          }
        }
        if (std::all_of(it->second.begin(), it->second.end(),
                        [](const auto& entry) { return entry.second.is_zero(); })) {
          allocating_capacity_.erase(it);
        }
      }
    }
  } else if (a_.features_.partitionable_devices && !device.device->consumes_counters.empty()) {
    deallocate_counters(device);
  }
  results.resize(previous_results);
}

bool AllocationSearch::check_available_counters(const DeviceWithId& device) {
  const Pool& pool = *device.pool;
  auto cached = a_.available_counters_.find(pool.name);
  if (cached == a_.available_counters_.end()) {
    // What the pool's counter sets hold minus what allocated devices consume (which cannot
    // change during the search); computed once per pool name and kept by the Allocator.
    CounterSets available;
    for (const auto& [name, set] : pool.counter_sets) {
      available[name] =
          std::map<std::string, Quantity, std::less<>>(set->counters.begin(), set->counters.end());
    }
    for (const auto* slices :
         {&pool.device_slices_targeting_node, &pool.device_slices_not_targeting_node}) {
      for (const ResourceSlice* slice : *slices) {
        for (const Device& other : slice->devices) {
          if (!is_device_allocated(DeviceId{slice->driver, slice->pool.name, other.name},
                                   a_.allocated_)) {
            continue;
          }
          for (const DeviceCounterConsumption& c : other.consumes_counters) {
            auto set = available.find(c.counter_set);
            if (set == available.end()) continue;
            for (const auto& [name, value] : c.counters) {
              auto counter = set->second.find(name);
              if (counter != set->second.end()) counter->second = minus(counter->second, value);
            }
          }
        }
      }
    }
    cached = a_.available_counters_.emplace(pool.name, std::move(available)).first;
  }

  CounterSets& consumed = consumed_counters_[pool.name];
  for (const DeviceCounterConsumption& c : device.device->consumes_counters) {
    auto& set = consumed[c.counter_set];
    for (const auto& [name, value] : c.counters) {
      const auto [it, inserted] = set.emplace(name, value);
      if (!inserted) it->second = it->second.plus(value);
    }
  }
  for (const auto& [set_name, counters] : cached->second) {
    const auto consumed_set = consumed.find(set_name);
    for (const auto& [name, value] : counters) {
      Quantity used;
      if (consumed_set != consumed.end()) {
        if (const auto it = consumed_set->second.find(name); it != consumed_set->second.end()) {
          used = it->second;
        }
      }
      if (value < used) {
        deallocate_counters(device);
        return false;
      }
    }
  }
  return true;
}

void AllocationSearch::deallocate_counters(const DeviceWithId& device) {
  CounterSets& consumed = consumed_counters_[device.pool->name];
  for (const DeviceCounterConsumption& c : device.device->consumes_counters) {
    auto& set = consumed[c.counter_set];
    for (const auto& [name, value] : c.counters) set[name] = minus(set[name], value);
  }
}

std::optional<NodeSelector> AllocationSearch::node_selector(
    const std::vector<DeviceResult>& results) const {
  NodeSelectorTerm term;
  for (const DeviceResult& r : results) {
    const bool per_device = r.slice->per_device_node_selection;
    const std::optional<std::string>& node_name =
        per_device ? r.device->node_name : r.slice->node_name;
    const std::optional<NodeSelector>& selector =
        per_device ? r.device->node_selector : r.slice->node_selector;
    if (node_name || r.device->binds_to_node) {
      // A device local to one node (or bound to it) pins the claim to this node.
      NodeSelectorTerm local;
      local.match_fields.push_back(
          SelectorRequirement{"metadata.name", SelectorOperator::In, {node_.metadata.name}});
      return NodeSelector{{std::move(local)}};
    }
    if (selector && selector->terms.size() == 1) {
      add_new_requirements(selector->terms[0].match_fields, term.match_fields);
      add_new_requirements(selector->terms[0].match_expressions, term.match_expressions);
    }
  }
  if (term.match_fields.empty() && term.match_expressions.empty()) return std::nullopt;
  return NodeSelector{{std::move(term)}};
}

}  // namespace gpusched::dra
