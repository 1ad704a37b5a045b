#pragma once
// The vocabulary of upstream's allocator test table
// (k8s.io/dynamic-resource-allocation structured/internal/allocatortesting/allocator_testing.go,
// v0.36.2), one C++ function per Go helper with the same name in snake_case, so that each
// transcribed case reads line for line like its Go original. run_allocator_test mirrors
// RunTestAllocator: results compared as gomega's ConsistOf (order of claims' results and of each
// result's devices irrelevant, share IDs replaced by a fixed one), errors by substring.

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dra/allocator.hpp"
#include "gpusched/model/dra.hpp"
#include "gpusched/model/node.hpp"

namespace dra_testing {

using namespace gpusched;
using namespace gpusched::dra;

inline const std::string region1 = "region-1";
inline const std::string region2 = "region-2";
inline const std::string node1 = "node-1";
inline const std::string node2 = "node-2";
inline const std::string classA = "class-a";
inline const std::string classB = "class-b";
inline const std::string driverA = "driver-a";
inline const std::string driverB = "driver-b";
inline const std::string pool1 = "pool-1";
inline const std::string pool2 = "pool-2";
inline const std::string pool3 = "pool-3";
inline const std::string pool4 = "pool-4";
inline const std::string req0 = "req-0";
inline const std::string req1 = "req-1";
inline const std::string req2 = "req-2";
inline const std::string req3 = "req-3";
inline const std::string subReq0 = "subReq-0";
inline const std::string subReq1 = "subReq-1";
inline const std::string req0SubReq0 = "req-0/subReq-0";
inline const std::string req0SubReq1 = "req-0/subReq-1";
inline const std::string req1SubReq0 = "req-1/subReq-0";
inline const std::string req1SubReq1 = "req-1/subReq-1";
inline const std::string req2SubReq0 = "req-2/subReq-0";
inline const std::string req2SubReq1 = "req-2/subReq-1";
inline const std::string claim0 = "claim-0";
inline const std::string claim1 = "claim-1";
inline const std::string slice1 = "slice-1";
inline const std::string slice2 = "slice-2";
inline const std::string slice3 = "slice-3";
inline const std::string slice4 = "slice-4";
inline const std::string device0 = "device-0";
inline const std::string device1 = "device-1";
inline const std::string device2 = "device-2";
inline const std::string device3 = "device-3";
inline const std::string device4 = "device-4";
inline const std::string counterSet1 = "counter-set-1";
inline const std::string counterSet2 = "counter-set-2";
inline const std::string capacity0 = "capacity-0";
inline const std::string capacity1 = "capacity-1";
inline const std::string fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";

inline const std::string fieldNameKey = "metadata.name";
inline const std::string regionKey = "region";
inline const std::string planetKey = "planet";
inline const std::string planetValueEarth = "earth";

/// resource.MustParse.
inline Quantity q(std::string_view text) {
  std::string error;
  const std::optional<Quantity> parsed = Quantity::parse(text, &error);
  REQUIRE(parsed);
  return *parsed;
}
inline const Quantity zero = Quantity::from_units(0, QuantityFormat::BinarySI);
inline const Quantity one = Quantity::from_units(1, QuantityFormat::BinarySI);
inline const Quantity two = Quantity::from_units(2, QuantityFormat::BinarySI);
inline const Quantity three = Quantity::from_units(3, QuantityFormat::BinarySI);
inline const Quantity four = Quantity::from_units(4, QuantityFormat::BinarySI);

/// map[QualifiedName]resource.Quantity / map[string]resource.Quantity.
using Quantities = std::map<std::string, Quantity, std::less<>>;
/// map[QualifiedName]DeviceAttribute.
using Attributes = AttributeMap;

inline DeviceAttribute string_attr(std::string v) {
  return DeviceAttribute::of_string(std::move(v));
}
inline DeviceAttribute int_attr(std::int64_t v) {
  return DeviceAttribute::of_int(v);
}
inline DeviceAttribute bool_attr(bool v) {
  return DeviceAttribute::of_bool(v);
}
inline DeviceAttribute version_attr(std::string v) {
  return DeviceAttribute::of_version(std::move(v));
}

/// resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: e}}.
inline DeviceSelector selector(std::string expression) {
  return DeviceSelector{std::move(expression)};
}

inline Node node(const std::string& name, const std::string& region) {
  Node n;
  n.metadata.name = name;
  n.metadata.labels = {{regionKey, region}, {planetKey, planetValueEarth}};
  return n;
}

/// Go's class(name, driver).
inline DeviceClass device_class(const std::string& name, const std::string& driver) {
  DeviceClass c;
  c.metadata.name = name;
  c.selectors.push_back(selector("device.driver == \"" + driver + "\""));
  return c;
}

inline DeviceClass class_with_allow_multiple_allocations(const std::string& name,
                                                         const std::string& driver,
                                                         bool multialloc) {
  DeviceClass c;
  c.metadata.name = name;
  c.selectors.push_back(
      selector("device.driver == \"" + driver +
               "\" && device.allowMultipleAllocations == " + (multialloc ? "true" : "false")));
  return c;
}

inline DeviceConfiguration device_configuration(const std::string& driver,
                                                const std::string& attribute) {
  return DeviceConfiguration{driver, "{\"" + attribute + "\":\"" + attribute + "Value\"}"};
}

inline DeviceClass class_with_config(const std::string& name, const std::string& driver,
                                     const std::string& attribute) {
  DeviceClass c = device_class(name, driver);
  c.config.push_back(device_configuration(driver, attribute));
  return c;
}

/// Go's request(name, class, count, selectors...).
template <class... Selectors>
DeviceRequest request(const std::string& name, const std::string& device_class_name,
                      std::int64_t count, Selectors... selectors) {
  DeviceRequest r;
  r.name = name;
  r.exactly = ExactDeviceRequest{};
  r.exactly->count = count;
  r.exactly->allocation_mode = AllocationMode::ExactCount;
  r.exactly->device_class_name = device_class_name;
  (r.exactly->selectors.push_back(selectors), ...);
  return r;
}

/// requirements(request): {capacity-0: request}, or empty for nullopt.
inline CapacityRequests requirements(std::optional<Quantity> request) {
  CapacityRequests r;
  if (request) r[capacity0] = *request;
  return r;
}

/// wrapDeviceRequest.
struct WrapDeviceRequest {
  DeviceRequest r;
  [[nodiscard]] WrapDeviceRequest with_capacity_request(std::optional<Quantity> quantity) const {
    WrapDeviceRequest out = *this;
    out.r.exactly->capacity = requirements(quantity);
    return out;
  }
  template <class... Selectors>
  [[nodiscard]] WrapDeviceRequest with_selectors(Selectors... selectors) const {
    WrapDeviceRequest out = *this;
    out.r.exactly->selectors = {selectors...};
    return out;
  }
  operator DeviceRequest() const { return r; }  // NOLINT: implicit, as obj()
};

inline WrapDeviceRequest device_request(const std::string& name, const std::string& cls,
                                        std::int64_t count) {
  return {request(name, cls, count)};
}

inline WrapDeviceRequest all_device_request(const std::string& name, const std::string& cls) {
  DeviceRequest r;
  r.name = name;
  r.exactly = ExactDeviceRequest{};
  r.exactly->allocation_mode = AllocationMode::All;
  r.exactly->count = 0;
  r.exactly->device_class_name = cls;
  return {r};
}

/// wrapDeviceSubRequest.
struct WrapDeviceSubRequest {
  DeviceSubRequest r;
  [[nodiscard]] WrapDeviceSubRequest with_allocation_mode(AllocationMode mode) const {
    WrapDeviceSubRequest out = *this;
    out.r.allocation_mode = mode;
    return out;
  }
  [[nodiscard]] WrapDeviceSubRequest with_capacity_request(std::optional<Quantity> quantity) const {
    WrapDeviceSubRequest out = *this;
    out.r.capacity = requirements(quantity);
    return out;
  }
};

namespace detail {
inline void add_field(DeviceSubRequest& r, const DeviceSelector& s) {
  r.selectors.push_back(s);
}
inline void add_field(DeviceSubRequest& r, const DeviceToleration& t) {
  r.tolerations.push_back(t);
}
}  // namespace detail

/// Go's subRequest(name, class, count, fields...): selectors and tolerations.
template <class... Fields>
WrapDeviceSubRequest sub_request(const std::string& name, const std::string& cls,
                                 std::int64_t count, Fields... fields) {
  DeviceSubRequest r;
  r.name = name;
  r.count = count;
  r.allocation_mode = AllocationMode::ExactCount;
  r.device_class_name = cls;
  (detail::add_field(r, fields), ...);
  return {r};
}

template <class... Subs>
WrapDeviceRequest request_with_prioritized_list(const std::string& name, Subs... subs) {
  DeviceRequest r;
  r.name = name;
  (r.first_available.push_back(subs.r), ...);
  return {r};
}

/// wrapResourceClaim.
struct WrapResourceClaim {
  ResourceClaim c;
  template <class... Tolerations>
  [[nodiscard]] WrapResourceClaim with_tolerations(Tolerations... tolerations) const {
    WrapResourceClaim out = *this;
    for (DeviceRequest& r : out.c.spec.requests) {
      (r.exactly->tolerations.push_back(tolerations), ...);
    }
    return out;
  }
  template <class... Requests>
  [[nodiscard]] WrapResourceClaim with_requests(Requests... requests) const {
    WrapResourceClaim out = *this;
    out.c.spec.requests = {DeviceRequest(requests)...};
    return out;
  }
  template <class... Constraints>
  [[nodiscard]] WrapResourceClaim with_constraints(Constraints... constraints) const {
    WrapResourceClaim out = *this;
    out.c.spec.constraints = {constraints...};
    return out;
  }
  [[nodiscard]] WrapResourceClaim with_configs(
      std::vector<DeviceClaimConfiguration> configs) const {
    WrapResourceClaim out = *this;
    out.c.spec.config = std::move(configs);
    return out;
  }
};

/// Go's claimWithRequests(name, constraints, requests...); pass {} for nil constraints.
template <class... Requests>
WrapResourceClaim claim_with_requests(const std::string& name,
                                      std::vector<DeviceConstraint> constraints,
                                      Requests... requests) {
  WrapResourceClaim w;
  w.c.metadata.name = name;
  w.c.spec.requests = {DeviceRequest(requests)...};
  w.c.spec.constraints = std::move(constraints);
  return w;
}

template <class... Constraints>
WrapResourceClaim claim_with_request(const std::string& name, const std::string& req,
                                     const std::string& cls, Constraints... constraints) {
  return claim_with_requests(name, {constraints...}, request(req, cls, 1));
}

inline WrapResourceClaim claim(const std::string& name) {
  WrapResourceClaim w;
  w.c.metadata.name = name;
  return w;
}

inline WrapResourceClaim claim_with_device_config(const std::string& name, const std::string& req,
                                                  const std::string& cls, const std::string& driver,
                                                  const std::string& attribute) {
  WrapResourceClaim w = claim_with_request(name, req, cls);
  w.c.spec.config = {DeviceClaimConfiguration{{}, device_configuration(driver, attribute)}};
  return w;
}

inline DeviceClaimConfiguration device_claim_config(std::vector<std::string> requests,
                                                    DeviceConfiguration config) {
  return DeviceClaimConfiguration{std::move(requests), std::move(config)};
}

/// DeviceConstraint{Requests, MatchAttribute}.
inline DeviceConstraint match_attribute(std::vector<std::string> requests, std::string attribute) {
  DeviceConstraint c;
  c.requests = std::move(requests);
  c.match_attribute = std::move(attribute);
  return c;
}
/// DeviceConstraint{Requests, DistinctAttribute}.
inline DeviceConstraint distinct_attribute(std::vector<std::string> requests,
                                           std::string attribute) {
  DeviceConstraint c;
  c.requests = std::move(requests);
  c.distinct_attribute = std::move(attribute);
  return c;
}

/// Go's fromCounters: a device whose capacity is filled from its counter consumption.
struct FromCounters {};
inline constexpr FromCounters fromCounters{};

inline const std::string nodeSelectionAll = "nodeSelectionAll";
inline const std::string nodeSelectionPerDevice = "nodeSelectionPerDevice";

/// wrapDevice.
struct WrapDevice {
  Device d;
  bool capacity_from_counters = false;

  template <class... Taints>
  [[nodiscard]] WrapDevice with_taints(Taints... taints) const {
    WrapDevice out{d, false};
    (out.d.taints.push_back(taints), ...);
    return out;
  }
  template <class... Consumptions>
  [[nodiscard]] WrapDevice with_device_counter_consumption(Consumptions... consumptions) const {
    WrapDevice out{d, false};
    (out.d.consumes_counters.push_back(consumptions), ...);
    if (capacity_from_counters) {
      out.d.capacity.clear();
      for (const DeviceCounterConsumption& dcc : out.d.consumes_counters) {
        for (const auto& [name, value] : dcc.counters)
          out.d.capacity[name] = DeviceCapacity{value, {}};
      }
    }
    return out;
  }
  [[nodiscard]] WrapDevice with_node_selection(const NodeSelector& selector) const {
    WrapDevice out{d, false};
    out.d.node_selector = selector;
    return out;
  }
  [[nodiscard]] WrapDevice with_node_selection(const std::string& selection) const {
    WrapDevice out{d, false};
    REQUIRE(selection != nodeSelectionPerDevice);
    if (selection == nodeSelectionAll) {
      out.d.all_nodes = true;
    } else {
      out.d.node_name = selection;
    }
    return out;
  }
  [[nodiscard]] WrapDevice with_binding_conditions(std::vector<std::string> conditions,
                                                   std::vector<std::string> failure) const {
    WrapDevice out{d, false};
    out.d.binding_conditions = std::move(conditions);
    out.d.binding_failure_conditions = std::move(failure);
    return out;
  }
  [[nodiscard]] WrapDevice with_binds_to_node(bool binds) const {
    WrapDevice out{d, false};
    out.d.binds_to_node = binds;
    return out;
  }
  [[nodiscard]] WrapDevice with_allow_multiple_allocations() const {
    WrapDevice out{d, false};
    out.d.allow_multiple_allocations = true;
    return out;
  }
  /// Capacity with requestPolicy default 2, validRange {min 2, step 2, max 4}.
  [[nodiscard]] WrapDevice with_capacity_request_policy_range(const Quantities& capacity) const {
    WrapDevice out{d, false};
    for (const auto& [name, value] : capacity) {
      CapacityRequestPolicy policy;
      policy.default_value = two;
      policy.valid_range = CapacityRequestPolicyRange{two, four, two};
      out.d.capacity[name] = DeviceCapacity{value, policy};
    }
    return out;
  }
  [[nodiscard]] WrapDevice with_capacity_request_policy_valid_values(
      Quantity default_value, const Quantities& capacity,
      const std::vector<Quantity>& additional_valid_values) const {
    WrapDevice out{d, false};
    for (const auto& [name, value] : capacity) {
      CapacityRequestPolicy policy;
      policy.default_value = default_value;
      policy.valid_values.push_back(default_value);
      policy.valid_values.insert(policy.valid_values.end(), additional_valid_values.begin(),
                                 additional_valid_values.end());
      out.d.capacity[name] = DeviceCapacity{value, policy};
    }
    return out;
  }
};

/// Go's device(name, capacity, attributes): capacity nil (std::nullopt), a map, or fromCounters.
inline WrapDevice device(const std::string& name, std::nullopt_t, Attributes attributes = {}) {
  WrapDevice w;
  w.d.name = name;
  w.d.attributes = std::move(attributes);
  return w;
}
inline WrapDevice device(const std::string& name, const Quantities& capacity,
                         Attributes attributes = {}) {
  WrapDevice w = device(name, std::nullopt, std::move(attributes));
  for (const auto& [n, value] : capacity) w.d.capacity[n] = DeviceCapacity{value, {}};
  return w;
}
inline WrapDevice device(const std::string& name, FromCounters, Attributes attributes = {}) {
  WrapDevice w = device(name, std::nullopt, std::move(attributes));
  w.capacity_from_counters = true;
  return w;
}

inline DeviceCounterConsumption device_counter_consumption(const std::string& counter_set,
                                                           const Quantities& counters) {
  return DeviceCounterConsumption{counter_set, CounterMap(counters.begin(), counters.end())};
}

inline CounterSet counter_set(const std::string& name, const Quantities& counters) {
  return CounterSet{name, CounterMap(counters.begin(), counters.end())};
}

inline ResourcePool resource_pool(const std::string& name, std::int64_t count) {
  return ResourcePool{name, 1, count};
}

/// Go's slice(name, nodeSelection, pool, driver). nodeSelection: a node name, nodeSelectionAll,
/// nodeSelectionPerDevice or a NodeSelector; pool: a name (1 slice, generation 1) or a pool.
using NodeSelection = std::variant<std::string, NodeSelector>;
using PoolSelection = std::variant<std::string, ResourcePool>;

inline ResourceSlice slice(const std::string& name, const NodeSelection& node_selection,
                           const PoolSelection& pool, const std::string& driver) {
  ResourceSlice s;
  s.metadata.name = name;
  s.driver = driver;
  if (const auto* pool_name = std::get_if<std::string>(&pool)) {
    s.pool = ResourcePool{*pool_name, 1, 1};
  } else {
    s.pool = std::get<ResourcePool>(pool);
  }
  if (const auto* selector = std::get_if<NodeSelector>(&node_selection)) {
    s.node_selector = *selector;
  } else {
    const std::string& selection = std::get<std::string>(node_selection);
    if (selection == nodeSelectionAll) {
      s.all_nodes = true;
    } else if (selection == nodeSelectionPerDevice) {
      s.per_device_node_selection = true;
    } else {
      s.node_name = selection;
    }
  }
  return s;
}

template <class... Devices>
ResourceSlice slice_with_devices(const std::string& name, const NodeSelection& node_selection,
                                 const PoolSelection& pool, const std::string& driver,
                                 Devices... devices) {
  ResourceSlice s = slice(name, node_selection, pool, driver);
  (s.devices.push_back(devices.d), ...);
  return s;
}

template <class... CounterSets>
ResourceSlice slice_with_counter_sets(const std::string& name, const NodeSelection& node_selection,
                                      const PoolSelection& pool, const std::string& driver,
                                      CounterSets... sets) {
  ResourceSlice s = slice(name, node_selection, pool, driver);
  (s.shared_counters.push_back(sets), ...);
  return s;
}

inline ResourceSlice slice_with_no_devices(const std::string& name, const NodeSelection& ns,
                                           const PoolSelection& pool, const std::string& driver) {
  return slice(name, ns, pool, driver);
}

inline ResourceSlice slice_with_one_device(const std::string& name, const NodeSelection& ns,
                                           const PoolSelection& pool, const std::string& driver) {
  return slice_with_devices(name, ns, pool, driver, device(device1, std::nullopt));
}

inline ResourceSlice slice_with_multiple_devices(const std::string& name, const NodeSelection& ns,
                                                 const PoolSelection& pool,
                                                 const std::string& driver, int count) {
  ResourceSlice s = slice(name, ns, pool, driver);
  for (int i = 0; i < count; ++i)
    s.devices.push_back(device("device-" + std::to_string(i), std::nullopt).d);
  return s;
}

template <class... Tolerations>
DeviceRequestAllocationResult device_allocation_result(const std::string& req,
                                                       const std::string& driver,
                                                       const std::string& pool,
                                                       const std::string& dev, bool admin_access,
                                                       Tolerations... tolerations) {
  DeviceRequestAllocationResult r;
  r.request = req;
  r.driver = driver;
  r.pool = pool;
  r.device = dev;
  (r.tolerations.push_back(tolerations), ...);
  if (admin_access) r.admin_access = true;
  return r;
}

/// wrapDeviceRequestAllocationResult.
struct WrapDeviceRequestAllocationResult {
  DeviceRequestAllocationResult r;
  /// share_id: nullopt for Go's nil, fixedShareID otherwise.
  [[nodiscard]] DeviceRequestAllocationResult with_consumed_capacity(
      std::optional<std::string> share_id, const Quantities& consumed) const {
    DeviceRequestAllocationResult out = r;
    out.share_id = std::move(share_id);
    out.consumed_capacity = CapacityRequests(consumed.begin(), consumed.end());
    return out;
  }
  operator DeviceRequestAllocationResult() const { return r; }  // NOLINT: implicit
};

inline WrapDeviceRequestAllocationResult device_request_allocation_result(const std::string& req,
                                                                          const std::string& driver,
                                                                          const std::string& pool,
                                                                          const std::string& dev) {
  return {device_allocation_result(req, driver, pool, dev, false)};
}

template <class... Tolerations>
DeviceRequestAllocationResult device_request_allocation_result_with_binding_conditions(
    const std::string& req, const std::string& driver, const std::string& pool,
    const std::string& dev, std::vector<std::string> conditions,
    std::vector<std::string> failure_conditions, Tolerations... tolerations) {
  DeviceRequestAllocationResult r =
      device_allocation_result(req, driver, pool, dev, false, tolerations...);
  r.binding_conditions = std::move(conditions);
  r.binding_failure_conditions = std::move(failure_conditions);
  return r;
}

inline std::vector<DeviceRequestAllocationResult> multiple_device_allocation_results(
    const std::string& req, const std::string& driver, const std::string& pool, int count,
    int start_index) {
  std::vector<DeviceRequestAllocationResult> out;
  for (int i = start_index; i < start_index + count; ++i) {
    out.push_back(
        device_allocation_result(req, driver, pool, "device-" + std::to_string(i), false));
  }
  return out;
}

inline NodeSelector node_label_selector(const std::string& key, std::vector<std::string> values) {
  NodeSelectorTerm term;
  term.match_expressions.push_back(
      SelectorRequirement{key, SelectorOperator::In, std::move(values)});
  return NodeSelector{{term}};
}

inline NodeSelector local_node_selector(const std::string& node_name) {
  NodeSelector s = node_label_selector(fieldNameKey, {node_name});
  std::swap(s.terms[0].match_fields, s.terms[0].match_expressions);
  return s;
}

/// An expected AllocationResult: Go's allocationResult (devices in any order, no config) or an
/// exact one (allocationResultWithConfig(s)).
struct ExpectedResult {
  AllocationResult result;
  bool devices_in_any_order = true;
};

inline ExpectedResult allocation_result(std::optional<NodeSelector> selector,
                                        std::vector<DeviceRequestAllocationResult> results) {
  return ExpectedResult{AllocationResult{std::move(results), {}, std::move(selector)}, true};
}
template <class... Results>
ExpectedResult allocation_result(std::optional<NodeSelector> selector, Results... results) {
  return allocation_result(std::move(selector), std::vector<DeviceRequestAllocationResult>{
                                                    DeviceRequestAllocationResult(results)...});
}

template <class... Results>
ExpectedResult allocation_result_with_config(std::optional<NodeSelector> selector,
                                             const std::string& driver, ConfigSource source,
                                             const std::string& attribute, Results... results) {
  AllocationResult r;
  r.devices = {DeviceRequestAllocationResult(results)...};
  r.config.push_back(
      DeviceAllocationConfiguration{source, {}, device_configuration(driver, attribute)});
  r.node_selector = std::move(selector);
  return ExpectedResult{std::move(r), false};
}

inline ExpectedResult allocation_result_with_configs(
    std::optional<NodeSelector> selector, std::vector<DeviceRequestAllocationResult> results,
    std::vector<DeviceAllocationConfiguration> configs) {
  return ExpectedResult{
      AllocationResult{std::move(results), std::move(configs), std::move(selector)}, false};
}

/// MakeDeviceID.
inline DeviceId make_device_id(const std::string& driver, const std::string& pool,
                               const std::string& dev) {
  return DeviceId{driver, pool, dev};
}

/// AllocatorTestCase.
struct AllocatorTestCase {
  AllocatorFeatures features{};
  std::vector<WrapResourceClaim> claims_to_allocate{};
  std::vector<DeviceId> allocated_devices{};
  std::set<SharedDeviceId> allocated_shared_device_ids{};
  std::map<DeviceId, ConsumedCapacity> allocated_capacity_devices{};
  std::vector<DeviceClass> classes{};
  std::vector<ResourceSlice> slices{};
  std::optional<Node> node{};
  std::vector<ExpectedResult> expect_results{};
  /// gomega.MatchError(gomega.ContainSubstring(...)); nullopt: no error expected.
  std::optional<std::string> expect_error{};
  /// Checked when > 0 (the incubating channel's figure).
  std::int64_t expect_num_allocate_one_invocations = 0;
};

/// A case of the table gpusched does not run, and why (for example: an input the API server's
/// validation rejects before any allocator sees it).
struct NotApplicable {
  std::string name;
  std::string reason;
};

namespace detail {

inline std::string describe(const NodeSelector& s) {
  std::string out = "{";
  for (const NodeSelectorTerm& t : s.terms) {
    out += "[";
    for (const auto* reqs : {&t.match_expressions, &t.match_fields}) {
      for (const SelectorRequirement& r : *reqs) {
        out += (reqs == &t.match_fields ? "field " : "label ") + r.key + " " +
               std::string(to_string(r.op)) + " (";
        for (const std::string& v : r.values) out += v + " ";
        out += ") ";
      }
    }
    out += "]";
  }
  return out + "}";
}

inline std::string describe(const AllocationResult& r) {
  std::string out = "devices:";
  for (const DeviceRequestAllocationResult& d : r.devices) {
    out += " " + d.request + "=" + d.driver + "/" + d.pool + "/" + d.device;
    if (d.admin_access) out += *d.admin_access ? "(admin)" : "(admin=false)";
    if (!d.tolerations.empty()) out += "(tolerations:" + std::to_string(d.tolerations.size()) + ")";
    if (d.share_id) out += "(share " + *d.share_id + ")";
    for (const auto& [name, value] : d.consumed_capacity)
      out += "(" + name + "=" + value.to_string() + ")";
    if (!d.binding_conditions.empty()) out += "(binding conditions)";
  }
  out += " configs:" + std::to_string(r.config.size());
  out += " nodeSelector:" + (r.node_selector ? describe(*r.node_selector) : std::string("nil"));
  return out;
}

/// matchNodeSelector: terms, requirements and values in any order.
inline bool same_node_selector(const std::optional<NodeSelector>& a,
                               const std::optional<NodeSelector>& b) {
  if (!a || !b) return !a && !b;
  auto same_reqs = [](const std::vector<SelectorRequirement>& x,
                      const std::vector<SelectorRequirement>& y) {
    return std::is_permutation(x.begin(), x.end(), y.begin(), y.end(),
                               [](const SelectorRequirement& r, const SelectorRequirement& s) {
                                 return r.key == s.key && r.op == s.op &&
                                        std::is_permutation(r.values.begin(), r.values.end(),
                                                            s.values.begin(), s.values.end());
                               });
  };
  return std::is_permutation(a->terms.begin(), a->terms.end(), b->terms.begin(), b->terms.end(),
                             [&](const NodeSelectorTerm& t, const NodeSelectorTerm& u) {
                               return same_reqs(t.match_expressions, u.match_expressions) &&
                                      same_reqs(t.match_fields, u.match_fields);
                             });
}

inline bool matches(const ExpectedResult& expected, const AllocationResult& actual) {
  if (!expected.devices_in_any_order) return expected.result == actual;
  return actual.config.empty() &&
         same_node_selector(expected.result.node_selector, actual.node_selector) &&
         std::is_permutation(expected.result.devices.begin(), expected.result.devices.end(),
                             actual.devices.begin(), actual.devices.end());
}

}  // namespace detail

/// RunTestAllocator for one case.
inline void run_allocator_test(const std::string& name, AllocatorTestCase tc) {
  INFO("case " << name);
  AllocatedState state;
  state.allocated_devices.insert(tc.allocated_devices.begin(), tc.allocated_devices.end());
  state.allocated_shared_device_ids = tc.allocated_shared_device_ids;
  state.aggregated_capacity = tc.allocated_capacity_devices;
  const std::vector<DeviceClass> classes = tc.classes;
  ClassLookup lookup = [&classes](std::string_view class_name) -> const DeviceClass* {
    for (const DeviceClass& c : classes) {
      if (c.metadata.name == class_name) return &c;
    }
    return nullptr;
  };
  std::vector<const ResourceSlice*> slices;
  for (const ResourceSlice& s : tc.slices) slices.push_back(&s);
  cel::Cache cache(cel::Features{tc.features.consumable_capacity});
  int shares = 0;
  Allocator allocator(tc.features, state, lookup, slices, cache,
                      [&shares] { return "share-" + std::to_string(++shares); });
  const Node n = tc.node.value_or(node(node1, region1));
  std::vector<const ResourceClaim*> claims;
  for (const WrapResourceClaim& c : tc.claims_to_allocate) claims.push_back(&c.c);
  AllocateOutcome outcome = allocator.allocate(n, claims);

  const bool failed = outcome.kind == AllocateOutcome::Kind::Error ||
                      outcome.kind == AllocateOutcome::Kind::NodeError;
  if (tc.expect_error) {
    INFO("results: " << outcome.results.size());
    REQUIRE(failed);
    CHECK_THAT(outcome.error, Catch::Contains(*tc.expect_error));
  } else {
    INFO("error: " << outcome.error);
    REQUIRE_FALSE(failed);
  }
  // Share IDs are random upstream: the test replaces them with a fixed one.
  for (AllocationResult& r : outcome.results) {
    for (DeviceRequestAllocationResult& d : r.devices) {
      if (d.share_id) d.share_id = fixedShareID;
    }
  }
  std::string got;
  for (const AllocationResult& r : outcome.results) got += "\n  " + detail::describe(r);
  std::string want;
  for (const ExpectedResult& e : tc.expect_results) want += "\n  " + detail::describe(e.result);
  INFO("got:" << got << "\nwant:" << want);
  REQUIRE(outcome.results.size() == tc.expect_results.size());
  // gomega.ConsistOf: each actual result matches a different expected one.
  std::vector<bool> used(tc.expect_results.size(), false);
  for (const AllocationResult& actual : outcome.results) {
    bool found = false;
    for (std::size_t i = 0; i < used.size() && !found; ++i) {
      if (!used[i] && detail::matches(tc.expect_results[i], actual)) used[i] = found = true;
    }
    CHECK(found);
  }
  if (tc.expect_num_allocate_one_invocations > 0) {
    CHECK(allocator.num_allocate_one_invocations() == tc.expect_num_allocate_one_invocations);
  }
}

}  // namespace dra_testing
