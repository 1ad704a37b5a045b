#include "config/kueue_feature_gates.hpp"

#include <algorithm>
#include <iterator>

#include "config/feature_gate_text.hpp"

namespace gpusched {
namespace {

enum class Effect : unsigned char {
  Modelled,     ///< gpusched reads it (KueueConfiguration::gate)
  NoEffect,     ///< metrics, API encoding, caches: never which workload is admitted where
  NotModelled,  ///< changes admission; gpusched simulates the default
};

struct KueueGate {
  std::string_view name;
  bool default_value;
  bool locked;
  Effect effect;
};

// Kueue v0.19.2 pkg/features/kube_features.go defaultVersionedFeatureGates, each gate's entry for
// 0.19 (its last one at or before it), sorted by name.
constexpr KueueGate kGates[] = {
    {"AdmissionFairSharing", true, false, Effect::NotModelled},
    {"AdmissionGatedBy", true, false, Effect::NotModelled},
    {"AssignQueueLabelsForPods", true, false, Effect::NotModelled},
    {"CleanupProvisioningRequestsOnEviction", true, false, Effect::NotModelled},
    {"ConcurrentAdmission", false, false, Effect::NotModelled},
    {"CustomMetricLabels", false, false, Effect::NoEffect},
    {"DeferRayServiceFinalizationForRedisCleanup", true, false, Effect::NotModelled},
    {"DisableWaitForPodsReady", false, false, Effect::NotModelled},
    {"ElasticJobsViaWorkloadSlices", true, false, Effect::NotModelled},
    {"ElasticJobsViaWorkloadSlicesWithTAS", false, false, Effect::NotModelled},
    {"FailureRecoveryPolicy", false, false, Effect::NotModelled},
    {"FairSharingPreemptWithinNominal", true, false, Effect::Modelled},
    {"FairSharingPrioritizeNonBorrowing", true, false, Effect::Modelled},
    {"FastQuotaReleaseInPodIntegration", false, false, Effect::NotModelled},
    {"FinishOrphanedWorkloads", true, false, Effect::NotModelled},
    {"FlavorFungibility", true, false, Effect::NotModelled},
    {"FlavorFungibilityPreserveScanProgress", true, false, Effect::NotModelled},
    {"HierarchicalCohorts", true, true, Effect::NotModelled},
    {"KueueDRAIntegration", true, false, Effect::NotModelled},
    {"KueueDRAIntegrationConsumableCapacity", false, false, Effect::NotModelled},
    {"KueueDRAIntegrationExtendedResource", true, false, Effect::NotModelled},
    {"KueueDRAIntegrationPartitionableDevices", true, false, Effect::NotModelled},
    {"KueueDRARejectWorkloadsWhenDRADisabled", true, false, Effect::NotModelled},
    {"LWSImmutableGroupSize", true, false, Effect::NotModelled},
    {"LocalQueueMetrics", true, false, Effect::NoEffect},
    {"ManagedJobsNamespaceSelectorAlwaysRespected", true, true, Effect::NotModelled},
    {"MetricForWorkloadCreationLatency", true, false, Effect::NoEffect},
    {"MetricsForCohorts", true, false, Effect::NoEffect},
    {"MultiKueue", true, false, Effect::NotModelled},
    {"MultiKueueAdaptersForCustomJobs", true, false, Effect::NotModelled},
    {"MultiKueueAllowInsecureKubeconfigs", false, true, Effect::NoEffect},
    {"MultiKueueClusterProfile", false, false, Effect::NoEffect},
    {"MultiKueueIncrementalDispatcherConfig", true, false, Effect::NotModelled},
    {"MultiKueueIncrementalDispatcherRespectConfigOrder", true, false, Effect::NotModelled},
    {"MultiKueueKubeConfigPathValidation", false, false, Effect::NoEffect},
    {"MultiKueueManagerQuotaAutomation", false, false, Effect::NotModelled},
    {"MultiKueueOrchestratedPreemption", false, false, Effect::NotModelled},
    {"MultiKueueRedoAdmissionOnEvictionInWorker", true, true, Effect::NotModelled},
    {"MultiKueueRemoteSpecSync", true, false, Effect::NotModelled},
    {"MultiKueueWaitForWorkloadAdmitted", true, true, Effect::NotModelled},
    {"ObjectRetentionPolicies", true, true, Effect::NotModelled},
    {"PartialAdmission", true, false, Effect::NotModelled},
    {"PodIntegrationValidateGroupOwner", true, false, Effect::NotModelled},
    {"PrioritizePreemptorWorkloads", false, false, Effect::NotModelled},
    {"PriorityBoost", false, false, Effect::NotModelled},
    {"PrioritySortingWithinCohort", true, false, Effect::NotModelled},
    {"PropagateBatchJobLabelsToWorkload", true, true, Effect::NotModelled},
    {"QuotaCheckStrategy", true, false, Effect::NotModelled},
    {"ReclaimablePods", true, false, Effect::NotModelled},
    {"RecomputeAssignmentUponPreemptionTargetsOverlap", false, false, Effect::NotModelled},
    {"RejectUpdatesToCQWithInvalidOnFlavors", false, false, Effect::NotModelled},
    {"RemoveFinalizersWithStrictPatch", true, false, Effect::NoEffect},
    {"SchedulerLibraryIntegration", false, false, Effect::NotModelled},
    {"SchedulerLongRequeueInterval", false, false, Effect::NotModelled},
    {"SchedulerTimestampPreemptionBuffer", false, false, Effect::NotModelled},
    {"SchedulingEquivalenceHashing", true, false, Effect::NotModelled},
    {"ShortWorkloadNames", false, false, Effect::NotModelled},
    {"SkipAncestorCheckForDeletedWorkloads", true, false, Effect::NotModelled},
    {"SkipFinalizersForPodsSuspendedByParent", true, true, Effect::NotModelled},
    {"SkipReassignmentForPodOwnedWorkloads", true, false, Effect::NotModelled},
    {"SparkApplicationIntegration", false, false, Effect::NotModelled},
    {"TASAssignmentsEncodingByHostnamePrefix", true, false, Effect::NoEffect},
    {"TASBalancedPlacement", false, false, Effect::NotModelled},
    {"TASCacheNodeMatchResults", true, false, Effect::NoEffect},
    {"TASCacheTopologyTree", false, false, Effect::NoEffect},
    {"TASCachingRemainingResources", true, false, Effect::NoEffect},
    {"TASFailedNodeReplacement", true, false, Effect::NotModelled},
    {"TASFailedNodeReplacementFailFast", true, false, Effect::NotModelled},
    {"TASHandleOverlappingFlavors", true, false, Effect::NotModelled},
    {"TASMultiLayerTopology", true, false, Effect::NotModelled},
    {"TASProfileMixed", true, false, Effect::NotModelled},
    {"TASRecomputeAssignmentWithinSchedulingCycle", true, false, Effect::NotModelled},
    {"TASReplaceNodeDueToNotReadyOverFixedTime", false, false, Effect::NotModelled},
    {"TASReplaceNodeOnNodeTaints", true, false, Effect::NotModelled},
    {"TASReplaceNodeOnPodTermination", true, false, Effect::NotModelled},
    {"TASRespectNodeAffinityPreferred", false, false, Effect::NotModelled},
    {"TASValidateWorkloadSliceSize", true, false, Effect::NotModelled},
    {"TLSOptions", true, false, Effect::NoEffect},
    {"TopologyAwareScheduling", true, false, Effect::NotModelled},
    {"UnadmittedWorkloadsExplicitStatus", false, false, Effect::NotModelled},
    {"UnadmittedWorkloadsObservability", false, false, Effect::NotModelled},
    {"ValidateRayAndSparkJobUpdates", true, false, Effect::NotModelled},
    {"VectorizedResourceRequests", true, false, Effect::NotModelled},
    {"VisibilityOnDemand", true, false, Effect::NoEffect},
    {"WorkloadIdentifierAnnotations", true, false, Effect::NoEffect},
    {"WorkloadPriorityClassDefaulting", false, false, Effect::NotModelled},
    {"WorkloadRequestUseMergePatch", false, false, Effect::NoEffect},
    {"WorkloadValidateResourcesAreNonNegative", true, false, Effect::NotModelled},
    {"WorkloadValidationForPodSetMetadata", true, false, Effect::NotModelled},
};

const KueueGate* find_gate(std::string_view name) {
  const auto* it =
      std::lower_bound(std::begin(kGates), std::end(kGates), name,
                       [](const KueueGate& g, std::string_view n) { return g.name < n; });
  return it != std::end(kGates) && it->name == name ? it : nullptr;
}

}  // namespace

std::optional<std::string> kueue_feature_gate_error(std::string_view name, bool value) {
  const KueueGate* gate = find_gate(name);
  if (gate == nullptr) {
    return unrecognized_gate_text(name) +
           " (Kueue 0.19.2 does not have it; gpusched follows Kueue 0.19.2)";
  }
  if (gate->locked && gate->default_value != value) {
    return locked_gate_text(name, value, gate->default_value);
  }
  return std::nullopt;
}

std::optional<std::string> kueue_feature_gate_warning(std::string_view name, bool value) {
  const KueueGate* gate = find_gate(name);
  if (gate == nullptr || gate->effect != Effect::NotModelled || gate->default_value == value)
    return std::nullopt;
  return "Kueue feature gate " + std::string(name) + "=" + bool_text(value) +
         " is not modelled: Kueue 0.19.2 is simulated with its default, " +
         bool_text(gate->default_value);
}

}  // namespace gpusched
