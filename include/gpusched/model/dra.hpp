#pragma once
/// Dynamic Resource Allocation's objects (resource.k8s.io/v1, k8s.io/api/resource/v1/types.go at
/// Kubernetes 1.36) as values: the DeviceClasses and ResourceSlices a driver and an administrator
/// publish, the ResourceClaims (and templates) pods ask for devices with, and the allocation the
/// scheduler writes into a claim's status. Fields keep upstream's names and optionality where the
/// allocator's behaviour depends on whether a field is set at all.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/quantity.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched::dra {

/// The API group and the version gpusched reads and writes.
inline constexpr std::string_view kGroup = "resource.k8s.io";
inline constexpr std::string_view kApiVersion = "resource.k8s.io/v1";
/// AllocationResultsMaxSize: at most this many devices per claim.
inline constexpr std::size_t kAllocationResultsMaxSize = 32;
/// ResourceClaimReservedForMaxSize: at most this many consumers of one claim.
inline constexpr std::size_t kReservedForMaxSize = 256;
/// FirstAvailableDeviceRequestMaxSize: at most this many subrequests.
inline constexpr std::size_t kFirstAvailableMaxSize = 8;
/// ResourceDeviceClassPrefix: every DeviceClass serves the extended resource named by this
/// prefix and its own name (DRAExtendedResource).
inline constexpr std::string_view kDeviceClassResourcePrefix =
    "deviceclass.resource.kubernetes.io/";
/// schedutil.IsDRAExtendedResourceName: a name a DeviceClass may serve (an extended resource, or
/// a class's implicit name).
[[nodiscard]] inline bool is_extended_resource_name(std::string_view name) noexcept {
  return resource::is_extended(name) || name.starts_with(kDeviceClassResourcePrefix);
}
/// ExtendedResourceClaimAnnotation: marks the claim kube-scheduler made for a pod's extended
/// resources.
inline constexpr std::string_view kExtendedResourceClaimAnnotation =
    "resource.kubernetes.io/extended-resource-claim";

/// A typed device attribute (DeviceAttribute: exactly one of int, bool, string, version).
struct DeviceAttribute {
  enum class Kind : std::uint8_t { Int, Bool, String, Version };
  Kind kind = Kind::String;
  std::int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  ///< the string, or the semantic version's text
  friend bool operator==(const DeviceAttribute&, const DeviceAttribute&) = default;

  [[nodiscard]] static DeviceAttribute of_int(std::int64_t v) { return {Kind::Int, v, false, {}}; }
  [[nodiscard]] static DeviceAttribute of_bool(bool v) { return {Kind::Bool, 0, v, {}}; }
  [[nodiscard]] static DeviceAttribute of_string(std::string v) {
    return {Kind::String, 0, false, std::move(v)};
  }
  [[nodiscard]] static DeviceAttribute of_version(std::string v) {
    return {Kind::Version, 0, false, std::move(v)};
  }
};

/// Attributes and capacities are keyed by a QualifiedName: `<domain>/<id>` or a bare `<id>`,
/// which stands for `<driver>/<id>`.
using AttributeMap = std::map<std::string, DeviceAttribute, std::less<>>;

/// CapacityRequestPolicyRange: requests round up to `min + k * step`, at most `max`.
struct CapacityRequestPolicyRange {
  std::optional<Quantity> min;
  std::optional<Quantity> max;
  std::optional<Quantity> step;
  friend bool operator==(const CapacityRequestPolicyRange&,
                         const CapacityRequestPolicyRange&) = default;
};

/// CapacityRequestPolicy (consumable capacity): the default a request without a value consumes,
/// and the values a request may round up to (validValues ascending, or a range).
struct CapacityRequestPolicy {
  std::optional<Quantity> default_value;
  std::vector<Quantity> valid_values;
  std::optional<CapacityRequestPolicyRange> valid_range;
  friend bool operator==(const CapacityRequestPolicy&, const CapacityRequestPolicy&) = default;
};

/// DeviceCapacity.
struct DeviceCapacity {
  Quantity value;
  std::optional<CapacityRequestPolicy> request_policy;
  friend bool operator==(const DeviceCapacity&, const DeviceCapacity&) = default;
};

using CapacityMap = std::map<std::string, DeviceCapacity, std::less<>>;
/// Counter name -> value (a Counter is a Quantity).
using CounterMap = std::map<std::string, Quantity, std::less<>>;

enum class DeviceTaintEffect : std::uint8_t { None, NoSchedule, NoExecute };
[[nodiscard]] std::string_view to_string(DeviceTaintEffect effect) noexcept;

/// DeviceTaint.
struct DeviceTaint {
  std::string key;
  std::string value;
  DeviceTaintEffect effect = DeviceTaintEffect::NoSchedule;
  friend bool operator==(const DeviceTaint&, const DeviceTaint&) = default;
};

/// DeviceToleration; an empty effect tolerates every effect.
struct DeviceToleration {
  std::string key;
  bool exists = false;  ///< operator Exists (else Equal, the default)
  std::string value;
  std::optional<DeviceTaintEffect> effect;
  std::optional<std::int64_t> toleration_seconds;
  friend bool operator==(const DeviceToleration&, const DeviceToleration&) = default;

  /// resourceclaim.ToleratesTaint.
  [[nodiscard]] bool tolerates(const DeviceTaint& taint) const;
};

/// DeviceCounterConsumption: what a device takes from one of its pool's counter sets.
struct DeviceCounterConsumption {
  std::string counter_set;
  CounterMap counters;
  friend bool operator==(const DeviceCounterConsumption&,
                         const DeviceCounterConsumption&) = default;
};

/// CounterSet (ResourceSlice.spec.sharedCounters).
struct CounterSet {
  std::string name;
  CounterMap counters;
  friend bool operator==(const CounterSet&, const CounterSet&) = default;
};

/// core/v1 NodeSelector: terms ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  friend bool operator==(const NodeSelector&, const NodeSelector&) = default;
};

/// Device: one entry of ResourceSlice.spec.devices.
struct Device {
  std::string name;
  AttributeMap attributes;
  CapacityMap capacity;
  std::vector<DeviceCounterConsumption> consumes_counters;
  /// Per-device node selection (a slice with perDeviceNodeSelection): one of these three.
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  bool all_nodes = false;
  std::vector<DeviceTaint> taints;
  bool binds_to_node = false;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::optional<bool> allow_multiple_allocations;
  friend bool operator==(const Device&, const Device&) = default;
};

/// ResourcePool.
struct ResourcePool {
  std::string name;
  std::int64_t generation = 0;
  std::int64_t resource_slice_count = 1;
  friend bool operator==(const ResourcePool&, const ResourcePool&) = default;
};

/// ResourceSlice (cluster-scoped).
struct ResourceSlice {
  ObjectMeta metadata;
  std::string driver;
  ResourcePool pool;
  /// Node selection: exactly one of these four upstream.
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  bool all_nodes = false;
  bool per_device_node_selection = false;
  std::vector<Device> devices;
  std::vector<CounterSet> shared_counters;
  friend bool operator==(const ResourceSlice&, const ResourceSlice&) = default;
};

/// DeviceSelector: a CEL expression; nullopt stands for a selector of a type gpusched (and
/// the allocator) does not know.
struct DeviceSelector {
  std::optional<std::string> cel;
  friend bool operator==(const DeviceSelector&, const DeviceSelector&) = default;
};

/// OpaqueDeviceConfiguration, carried through to the allocation result.
struct DeviceConfiguration {
  std::string driver;
  std::string parameters;  ///< the JSON text of `parameters`
  friend bool operator==(const DeviceConfiguration&, const DeviceConfiguration&) = default;
};

/// DeviceClass (cluster-scoped).
struct DeviceClass {
  ObjectMeta metadata;
  std::vector<DeviceSelector> selectors;
  std::vector<DeviceConfiguration> config;
  std::optional<std::string> extended_resource_name;
  friend bool operator==(const DeviceClass&, const DeviceClass&) = default;
};

enum class AllocationMode : std::uint8_t { ExactCount, All };

/// CapacityRequirements.requests: capacity name -> amount.
using CapacityRequests = std::map<std::string, Quantity, std::less<>>;

/// ExactDeviceRequest.
struct ExactDeviceRequest {
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  AllocationMode allocation_mode = AllocationMode::ExactCount;
  std::int64_t count = 1;
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  std::optional<CapacityRequests> capacity;
  friend bool operator==(const ExactDeviceRequest&, const ExactDeviceRequest&) = default;
};

/// DeviceSubRequest: one alternative of firstAvailable.
struct DeviceSubRequest {
  std::string name;
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  AllocationMode allocation_mode = AllocationMode::ExactCount;
  std::int64_t count = 1;
  std::vector<DeviceToleration> tolerations;
  std::optional<CapacityRequests> capacity;
  friend bool operator==(const DeviceSubRequest&, const DeviceSubRequest&) = default;
};

/// DeviceRequest: exactly one of `exactly` and `first_available` upstream.
struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<DeviceSubRequest> first_available;
  friend bool operator==(const DeviceRequest&, const DeviceRequest&) = default;
};

/// DeviceConstraint: one of matchAttribute, distinctAttribute (neither: a type not known).
struct DeviceConstraint {
  std::vector<std::string> requests;
  std::optional<std::string> match_attribute;
  std::optional<std::string> distinct_attribute;
  friend bool operator==(const DeviceConstraint&, const DeviceConstraint&) = default;
};

/// DeviceClaimConfiguration.
struct DeviceClaimConfiguration {
  std::vector<std::string> requests;
  DeviceConfiguration config;
  friend bool operator==(const DeviceClaimConfiguration&,
                         const DeviceClaimConfiguration&) = default;
};

/// ResourceClaimSpec (spec.devices).
struct ResourceClaimSpec {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceClaimConfiguration> config;
  friend bool operator==(const ResourceClaimSpec&, const ResourceClaimSpec&) = default;
};

/// DeviceRequestAllocationResult.
struct DeviceRequestAllocationResult {
  std::string request;  ///< `<request>` or `<request>/<subrequest>`
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::optional<std::string> share_id;  ///< a device allocated more than once
  CapacityRequests consumed_capacity;
  friend bool operator==(const DeviceRequestAllocationResult&,
                         const DeviceRequestAllocationResult&) = default;
};

enum class ConfigSource : std::uint8_t { FromClass, FromClaim };

/// DeviceAllocationConfiguration.
struct DeviceAllocationConfiguration {
  ConfigSource source = ConfigSource::FromClass;
  std::vector<std::string> requests;
  DeviceConfiguration config;
  friend bool operator==(const DeviceAllocationConfiguration&,
                         const DeviceAllocationConfiguration&) = default;
};

/// AllocationResult.
struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> devices;
  std::vector<DeviceAllocationConfiguration> config;
  /// Where the claim can be used; nullopt: on every node.
  std::optional<NodeSelector> node_selector;
  friend bool operator==(const AllocationResult&, const AllocationResult&) = default;
};

/// ResourceClaimConsumerReference (only pods consume claims in gpusched).
struct ConsumerReference {
  std::string resource = "pods";
  std::string name;
  std::string uid;
  friend bool operator==(const ConsumerReference&, const ConsumerReference&) = default;
};

/// ResourceClaimStatus.
struct ResourceClaimStatus {
  std::optional<AllocationResult> allocation;
  std::vector<ConsumerReference> reserved_for;
  friend bool operator==(const ResourceClaimStatus&, const ResourceClaimStatus&) = default;
};

/// ResourceClaim (namespaced).
struct ResourceClaim {
  ObjectMeta metadata;
  ResourceClaimSpec spec;
  ResourceClaimStatus status;
  friend bool operator==(const ResourceClaim&, const ResourceClaim&) = default;
};

/// ResourceClaimTemplate (namespaced): the claim a pod's template reference stamps out.
struct ResourceClaimTemplate {
  ObjectMeta metadata;
  Labels claim_labels;       ///< spec.metadata.labels
  Labels claim_annotations;  ///< spec.metadata.annotations
  ResourceClaimSpec spec;
  friend bool operator==(const ResourceClaimTemplate&, const ResourceClaimTemplate&) = default;
};

/// A device's identity across the cluster (structured.DeviceID).
struct DeviceId {
  std::string driver;
  std::string pool;
  std::string device;
  friend auto operator<=>(const DeviceId&, const DeviceId&) = default;
  friend bool operator==(const DeviceId&, const DeviceId&) = default;
  /// `<driver>/<pool>/<device>`, as DeviceID.String.
  [[nodiscard]] std::string to_string() const;
};

}  // namespace gpusched::dra
