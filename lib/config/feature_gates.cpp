// The feature gates that change scheduling in the releases gpusched mirrors. Each row is the
// gate's versioned spec (kubernetes/kubernetes pkg/features/kube_features.go, and the scheduler's
// gate table that carries the DRA and workload gates) evaluated at 1.33, 1.34, 1.35 and 1.36.
#include "gpusched/config/feature_gates.hpp"

#include <algorithm>
#include <string>

#include "config/feature_gate_text.hpp"
#include "gpusched/error.hpp"

namespace gpusched {
namespace {

constexpr GateRelease kAbsent{};
constexpr GateRelease alpha() {
  return {GateStage::Alpha, false, false};
}
constexpr GateRelease beta(bool on) {
  return {GateStage::Beta, on, false};
}
constexpr GateRelease ga() {
  return {GateStage::GA, true, false};
}
constexpr GateRelease ga_locked() {
  return {GateStage::GA, true, true};
}

using enum GateModelling;
constexpr FeatureGate kOther = FeatureGate::Other;

// Columns: 1.33, 1.34, 1.35, 1.36. Sorted by name (find_feature_gate searches it).
constexpr GateInfo kGates[] = {
    // kube-apiserver (KEP-5278, pkg/registry/core/pod/storage): the binding clears
    // status.nominatedNodeName.
    {FeatureGate::ClearingNominatedNodeNameAfterBinding,
     "ClearingNominatedNodeNameAfterBinding",
     {kAbsent, alpha(), beta(true), beta(true)},
     Modelled,
     "the API server clears a pod's nominatedNodeName when it binds the pod"},
    // The structured allocator's features (dynamicresources.go AllocatorFeatures).
    {FeatureGate::DRAAdminAccess,
     "DRAAdminAccess",
     {alpha(), beta(true), beta(true), ga_locked()},
     Modelled,
     "admin access to devices: a request with adminAccess gets devices others use"},
    {FeatureGate::DRAConsumableCapacity,
     "DRAConsumableCapacity",
     {kAbsent, alpha(), alpha(), beta(true)},
     Modelled,
     "devices shared by consumable capacity (allowMultipleAllocations, capacity requests)"},
    {FeatureGate::DRADeviceBindingConditions,
     "DRADeviceBindingConditions",
     {kAbsent, alpha(), alpha(), beta(true)},
     NotModelled,
     "Dynamic Resource Allocation (binding conditions)"},
    {kOther,
     "DRADeviceTaintRules",
     {kAbsent, kAbsent, alpha(), beta(false)},
     NotModelled,
     "Dynamic Resource Allocation (DeviceTaintRules)"},
    {FeatureGate::DRADeviceTaints,
     "DRADeviceTaints",
     {alpha(), alpha(), alpha(), beta(true)},
     Modelled,
     "device taints: a device tainted NoSchedule or NoExecute goes only to requests that "
     "tolerate it"},
    {FeatureGate::DRAExtendedResource,
     "DRAExtendedResource",
     {kAbsent, alpha(), alpha(), beta(true)},
     Modelled,
     "extended resources such as nvidia.com/gpu served by DRA devices on nodes that do not "
     "advertise them (a DeviceClass's extendedResourceName)"},
    {kOther,
     "DRAListTypeAttributes",
     {kAbsent, kAbsent, kAbsent, alpha()},
     NotModelled,
     "Dynamic Resource Allocation (list-type device attributes)"},
    {kOther,
     "DRANodeAllocatableResources",
     {kAbsent, kAbsent, kAbsent, alpha()},
     NotModelled,
     "Dynamic Resource Allocation (node allocatable resources backed by DRA)"},
    {FeatureGate::DRAPartitionableDevices,
     "DRAPartitionableDevices",
     {alpha(), alpha(), alpha(), beta(true)},
     Modelled,
     "partitionable devices: devices that consume shared counters (MIG partitions of a GPU)"},
    {FeatureGate::DRAPrioritizedList,
     "DRAPrioritizedList",
     {alpha(), beta(true), beta(true), ga()},
     Modelled,
     "firstAvailable requests: the first alternative that can be allocated is taken"},
    {FeatureGate::DRAResourceClaimDeviceStatus,
     "DRAResourceClaimDeviceStatus",
     {beta(true), beta(true), beta(true), beta(true)},
     NotModelled,
     "Dynamic Resource Allocation (device status in ResourceClaims)"},
    {kOther,
     "DRASchedulerFilterTimeout",
     {kAbsent, beta(true), beta(true), beta(true)},
     NotModelled,
     "Dynamic Resource Allocation (the DynamicResources Filter timeout)"},
    {kOther,
     "DRAWorkloadResourceClaims",
     {kAbsent, kAbsent, kAbsent, alpha()},
     NotModelled,
     "Dynamic Resource Allocation (ResourceClaims of a PodGroup)"},
    // applyFeatureGates (pkg/scheduler/apis/config/v1/default_plugins.go): the DynamicResources
    // plugin joins the default profile before DefaultPreemption.
    {FeatureGate::DynamicResourceAllocation,
     "DynamicResourceAllocation",
     {beta(false), ga(), ga_locked(), ga_locked()},
     Modelled,
     "the DynamicResources plugin in the default profile (its PostFilter adds \"no new claims "
     "to deallocate\" to the message of a pod without claims), which allocates pods' resource "
     "claims; the API server drops them while it is off"},
    // applyFeatureGates (pkg/scheduler/apis/config/v1/default_plugins.go): the GangScheduling
    // plugin joins the default profile, last.
    {FeatureGate::GangScheduling,
     "GangScheduling",
     {kAbsent, kAbsent, alpha(), alpha()},
     Modelled,
     "the GangScheduling plugin in the default profile: pods of a Workload's gang pod group wait "
     "at PreEnqueue and Permit until minCount of them can be placed"},
    // kube-apiserver: serves scheduling.k8s.io/v1alpha1 Workload and keeps pods'
    // spec.workloadRef (dropDisabledFields drops it while the gate is off).
    {FeatureGate::GenericWorkload,
     "GenericWorkload",
     {kAbsent, kAbsent, alpha(), alpha()},
     Modelled,
     "the Workload API (scheduling.k8s.io/v1alpha1 Workload objects and pods' "
     "spec.workloadRef)"},
    {kOther,
     "InPlacePodVerticalScaling",
     {beta(true), beta(true), ga_locked(), ga_locked()},
     NoEffect,
     "in-place resize of running pods, which no scenario does"},
    {kOther,
     "MatchLabelKeysInPodTopologySpread",
     {beta(true), beta(true), beta(true), beta(true)},
     NotModelled,
     "topology spread constraints without matchLabelKeys"},
    {kOther,
     "NodeDeclaredFeatures",
     {kAbsent, kAbsent, alpha(), beta(true)},
     NotModelled,
     "the NodeDeclaredFeatures filter (pods whose restart rules or host user namespaces need a "
     "feature the node declares)"},
    {kOther,
     "NodeInclusionPolicyInPodTopologySpread",
     {ga_locked(), ga_locked(), ga_locked(), ga_locked()},
     Modelled,
     "nodeAffinityPolicy and nodeTaintsPolicy of topology spread constraints"},
    // KEP-5278 (pkg/scheduler/schedule_one.go): in 1.34 the scheduler keeps a pod's
    // nominatedNodeName after a failed cycle when this is on (PR #133276); 1.35 clears it again
    // either way (PR #135007). Setting it at the start of a binding cycle needs Permit or PreBind
    // work, which no in-tree plugin gpusched runs has.
    {FeatureGate::NominatedNodeNameForExpectation,
     "NominatedNodeNameForExpectation",
     {kAbsent, alpha(), beta(true), beta(true)},
     Modelled,
     "the scheduler's handling of nominatedNodeName (kept after a failed cycle in 1.34)"},
    {kOther,
     "OpportunisticBatching",
     {kAbsent, kAbsent, beta(true), beta(true)},
     NoEffect,
     "reuse of the previous pod's scores for an identical pod (KEP-5598), meant to choose the "
     "node full scoring chooses; gpusched always scores"},
    // Off, the API server drops spec.resources on create (dropDisabledPodLevelResourcesFields).
    {FeatureGate::PodLevelResources,
     "PodLevelResources",
     {alpha(), beta(true), beta(true), beta(true)},
     Modelled,
     "pod-level spec.resources, which replace the containers' requests of cpu, memory and "
     "hugepages"},
    {kOther,
     "SchedulerAsyncAPICalls",
     {kAbsent, beta(false), beta(true), beta(false)},
     NoEffect,
     "asynchronous API calls of the scheduler, instantaneous in a replay"},
    {kOther,
     "SchedulerAsyncPreemption",
     {beta(true), beta(true), beta(true), beta(true)},
     NotModelled,
     "preemption with its API calls inside the scheduling cycle"},
    {kOther,
     "SchedulerPopFromBackoffQ",
     {beta(true), beta(true), beta(true), beta(true)},
     NotModelled,
     "a queue that waits out the backoff while the active queue is empty"},
    {kOther,
     "SchedulerQueueingHints",
     {beta(true), ga_locked(), ga_locked(), ga_locked()},
     NotModelled,
     "requeueing without queueing hints"},
    {kOther,
     "StorageCapacityScoring",
     {alpha(), alpha(), alpha(), alpha()},
     NotModelled,
     "volumes"},
    {kOther,
     "TaintTolerationComparisonOperators",
     {kAbsent, kAbsent, alpha(), alpha()},
     NotModelled,
     "tolerations with the Lt and Gt operators"},
    {kOther,
     "TopologyAwareWorkloadScheduling",
     {kAbsent, kAbsent, kAbsent, alpha()},
     NotModelled,
     "topology-aware placement of Workload pod groups"},
    {kOther,
     "WorkloadAwarePreemption",
     {kAbsent, kAbsent, kAbsent, alpha()},
     NotModelled,
     "preemption for whole Workload pod groups"},
};

// "1.35 and 1.36", "1.34 to 1.36": the releases that have the gate.
std::string releases_having(const GateInfo& info) {
  int first = 0, last = 0;
  for (int minor = KubernetesVersion::kMinMinor; minor <= KubernetesVersion::kMaxMinor; ++minor) {
    if (info.in(KubernetesVersion{minor, -1}).stage == GateStage::Absent) continue;
    if (first == 0) first = minor;
    last = minor;
  }
  const std::string from = "1." + std::to_string(first), to = "1." + std::to_string(last);
  if (first == last) return "only " + from + " has it";
  return from + (last == first + 1 ? " and " : " to ") + to + " have it";
}

}  // namespace

std::span<const GateInfo> feature_gate_table() noexcept {
  return kGates;
}

const GateInfo* find_feature_gate(std::string_view name) noexcept {
  const auto it =
      std::lower_bound(std::begin(kGates), std::end(kGates), name,
                       [](const GateInfo& g, std::string_view n) { return g.name < n; });
  return it != std::end(kGates) && it->name == name ? &*it : nullptr;
}

std::optional<std::string> feature_gate_error(std::string_view name, bool value,
                                              const KubernetesVersion& version) {
  const std::string unrecognized = unrecognized_gate_text(name);
  const GateInfo* info = find_feature_gate(name);
  if (info == nullptr) {
    return unrecognized + " (gpusched knows the feature gates that change scheduling in " +
           "Kubernetes 1.33 to 1.36, listed in docs/kubernetes-versions.md)";
  }
  const GateRelease& release = info->in(version);
  if (release.stage == GateStage::Absent) {
    return unrecognized + " (Kubernetes " + version.to_string() + " does not have it; " +
           releases_having(*info) + ")";
  }
  if (release.locked && release.default_value != value) {
    return locked_gate_text(name, value, release.default_value);
  }
  return std::nullopt;
}

std::optional<std::string> feature_gate_warning(std::string_view name, bool value,
                                                const KubernetesVersion& version) {
  const GateInfo* info = find_feature_gate(name);
  if (info == nullptr || info->modelling != GateModelling::NotModelled) return std::nullopt;
  const GateRelease& release = info->in(version);
  if (release.stage == GateStage::Absent || release.default_value == value) return std::nullopt;
  return "feature gate " + std::string(name) + "=" + bool_text(value) + " changes " +
         std::string(info->what) + ", which gpusched does not model yet: Kubernetes " +
         version.to_string() + " is simulated with its default, " +
         bool_text(release.default_value);
}

bool FeatureGates::enabled(FeatureGate gate, const KubernetesVersion& version) const {
  GPUSCHED_CHECK(gate != FeatureGate::Other, "only a gate gpusched reads is asked about");
  for (const GateInfo& info : kGates) {
    if (info.gate != gate) continue;
    const GateRelease& release = info.in(version);
    if (release.stage == GateStage::Absent) return false;
    auto it = values.find(info.name);
    return it == values.end() ? release.default_value : it->second;
  }
  GPUSCHED_CHECK(false, "every gate gpusched reads has a row in the table");
  return false;
}

}  // namespace gpusched
