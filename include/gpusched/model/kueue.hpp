#pragma once
/// Kueue's objects (kueue.x-k8s.io/v1beta2, Kueue v0.19.2: apis/kueue/v1beta2/*_types.go) as
/// values: the queues and quotas a scenario declares, and the Workload Kueue creates for each Job
/// it manages. Field defaults are the CRD's (kubebuilder:default markers).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/condition.hpp"
#include "gpusched/model/node.hpp"
#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/quantity.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/selector.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/model/workload.hpp"

namespace gpusched::kueue {

/// The API group and the version gpusched writes.
inline constexpr std::string_view kGroup = "kueue.x-k8s.io";
inline constexpr std::string_view kApiVersion = "kueue.x-k8s.io/v1beta2";
/// The label a Job or pod names its LocalQueue with (constants.QueueLabel).
inline constexpr std::string_view kQueueLabel = "kueue.x-k8s.io/queue-name";
/// The label naming a WorkloadPriorityClass (constants.WorkloadPriorityClassLabel).
inline constexpr std::string_view kPriorityClassLabel = "kueue.x-k8s.io/priority-class";
/// The label on a Workload holding its Job's UID (constants.JobUIDLabel).
inline constexpr std::string_view kJobUidLabel = "kueue.x-k8s.io/job-uid";
/// The pod set of a batch/v1 Job (kueue.DefaultPodSetName).
inline constexpr std::string_view kDefaultPodSetName = "main";

// Kueue's pod integration (pkg/constants, pkg/controller/jobs/pod/constants).
/// ManagedByKueueLabelKey: set on the pods Kueue manages (value "true").
inline constexpr std::string_view kManagedLabel = "kueue.x-k8s.io/managed";
/// SchedulingGateName: the gate a managed pod waits behind until its Workload is admitted.
inline constexpr std::string_view kAdmissionGate = "kueue.x-k8s.io/admission";
/// GroupNameLabel: the pod group a pod belongs to; its Workload is named after it.
inline constexpr std::string_view kPodGroupNameLabel = "kueue.x-k8s.io/pod-group-name";
/// GroupTotalCountAnnotation: how many pods the group has.
inline constexpr std::string_view kPodGroupTotalCountAnnotation =
    "kueue.x-k8s.io/pod-group-total-count";
/// RoleHashAnnotation: the pod's role, its pod set's name in a group's Workload.
inline constexpr std::string_view kRoleHashAnnotation = "kueue.x-k8s.io/role-hash";
/// IsGroupWorkloadAnnotationKey: on a pod group's Workload (value "true").
inline constexpr std::string_view kIsGroupWorkloadAnnotation = "kueue.x-k8s.io/is-group-workload";
/// RetriableInGroupAnnotationKey: "false" makes the group unretriable.
inline constexpr std::string_view kRetriableInGroupAnnotation = "kueue.x-k8s.io/retriable-in-group";

/// spec.stopPolicy of a ClusterQueue or LocalQueue.
enum class StopPolicy : std::uint8_t { None, Hold, HoldAndDrain };

/// ResourceQuota: a resource's quota in one flavor.
struct ResourceQuota {
  std::string name;
  Quantity nominal_quota;
  std::optional<Quantity> borrowing_limit;  ///< nullopt: no limit (within the cohort)
  std::optional<Quantity> lending_limit;    ///< nullopt: everything unused may be lent
  friend bool operator==(const ResourceQuota&, const ResourceQuota&) = default;
};

/// FlavorQuotas: one flavor's quotas, one per covered resource, in the group's order.
struct FlavorQuotas {
  std::string name;
  std::vector<ResourceQuota> resources;
  friend bool operator==(const FlavorQuotas&, const FlavorQuotas&) = default;
};

/// ResourceGroup: resources that are assigned flavors together, flavors in preference order.
struct ResourceGroup {
  std::vector<std::string> covered_resources;
  std::vector<FlavorQuotas> flavors;
  friend bool operator==(const ResourceGroup&, const ResourceGroup&) = default;
};

/// spec.fairSharing: the weight of a ClusterQueue, Cohort or LocalQueue in fair sharing.
struct FairSharing {
  /// nullopt: the default, 1. Zero is allowed (the node only borrows when nobody else wants).
  std::optional<Quantity> weight;
  friend bool operator==(const FairSharing&, const FairSharing&) = default;
};

/// ResourceFlavor (cluster-scoped): the node labels, taints and tolerations that a flavor stands
/// for; an admitted workload's pods get its labels as a node selector and its tolerations.
struct ResourceFlavor {
  ObjectMeta metadata;
  Labels node_labels;
  std::vector<Taint> node_taints;
  std::vector<Toleration> tolerations;
  /// spec.topologyName: Topology Aware Scheduling, not modelled (a warning).
  std::optional<std::string> topology_name;
  friend bool operator==(const ResourceFlavor&, const ResourceFlavor&) = default;
};

/// PreemptionPolicy of withinClusterQueue and reclaimWithinCohort.
enum class PreemptionPolicy : std::uint8_t { Never, Any, LowerPriority, LowerOrNewerEqualPriority };

/// BorrowWithinCohortPolicy.
enum class BorrowWithinCohortPolicy : std::uint8_t { Never, LowerPriority };

struct BorrowWithinCohort {
  BorrowWithinCohortPolicy policy = BorrowWithinCohortPolicy::Never;
  std::optional<std::int32_t> max_priority_threshold;
  friend bool operator==(const BorrowWithinCohort&, const BorrowWithinCohort&) = default;
};

/// spec.preemption, with the CRD's defaults.
struct ClusterQueuePreemption {
  PreemptionPolicy reclaim_within_cohort = PreemptionPolicy::Never;
  BorrowWithinCohort borrow_within_cohort;
  PreemptionPolicy within_cluster_queue = PreemptionPolicy::Never;
  friend bool operator==(const ClusterQueuePreemption&, const ClusterQueuePreemption&) = default;
};

enum class FlavorFungibilityPolicy : std::uint8_t { MayStopSearch, TryNextFlavor };
enum class FlavorFungibilityPreference : std::uint8_t {
  BorrowingOverPreemption,
  PreemptionOverBorrowing
};

/// spec.flavorFungibility, with the CRD's defaults (whenCanBorrow MayStopSearch, whenCanPreempt
/// TryNextFlavor).
struct FlavorFungibility {
  FlavorFungibilityPolicy when_can_borrow = FlavorFungibilityPolicy::MayStopSearch;
  FlavorFungibilityPolicy when_can_preempt = FlavorFungibilityPolicy::TryNextFlavor;
  std::optional<FlavorFungibilityPreference> preference;
  friend bool operator==(const FlavorFungibility&, const FlavorFungibility&) = default;
};

enum class QueueingStrategy : std::uint8_t { StrictFIFO, BestEffortFIFO };

/// ClusterQueue (cluster-scoped).
struct ClusterQueue {
  ObjectMeta metadata;
  std::vector<ResourceGroup> resource_groups;
  std::string cohort_name;  ///< spec.cohortName; empty: no cohort
  QueueingStrategy queueing_strategy = QueueingStrategy::BestEffortFIFO;
  /// spec.namespaceSelector: nullopt (absent or null) matches no namespace, `{}` every one.
  std::optional<LabelSelector> namespace_selector;
  FlavorFungibility flavor_fungibility;
  ClusterQueuePreemption preemption;
  StopPolicy stop_policy = StopPolicy::None;
  std::optional<FairSharing> fair_sharing;
  /// spec.admissionChecksStrategy.admissionChecks[].name (each on every flavor unless
  /// onFlavors lists some).
  struct AdmissionCheckRule {
    std::string name;
    std::vector<std::string> on_flavors;
    friend bool operator==(const AdmissionCheckRule&, const AdmissionCheckRule&) = default;
  };
  std::vector<AdmissionCheckRule> admission_checks;
  friend bool operator==(const ClusterQueue&, const ClusterQueue&) = default;
};

/// LocalQueue (namespaced): where a namespace's jobs are queued, pointing at a ClusterQueue.
struct LocalQueue {
  ObjectMeta metadata;
  std::string cluster_queue;
  StopPolicy stop_policy = StopPolicy::None;
  std::optional<FairSharing> fair_sharing;
  friend bool operator==(const LocalQueue&, const LocalQueue&) = default;
};

/// Cohort (cluster-scoped, v1beta2): a node of the cohort tree with quotas of its own. A cohort a
/// ClusterQueue names without an object exists implicitly, with no quota and no parent.
struct Cohort {
  ObjectMeta metadata;
  std::string parent_name;  ///< spec.parentName; empty: a root
  std::vector<ResourceGroup> resource_groups;
  std::optional<FairSharing> fair_sharing;
  friend bool operator==(const Cohort&, const Cohort&) = default;
};

/// WorkloadPriorityClass (cluster-scoped): the priority of workloads that name it with the
/// kueue.x-k8s.io/priority-class label, independent of the pods' PriorityClass.
struct WorkloadPriorityClass {
  ObjectMeta metadata;
  std::int32_t value = 0;
  std::string description;
  friend bool operator==(const WorkloadPriorityClass&, const WorkloadPriorityClass&) = default;
};

/// AdmissionCheck (cluster-scoped): an extra gate before admission; gpusched models the
/// ProvisioningRequest controller's checks against its node pools.
struct AdmissionCheck {
  ObjectMeta metadata;
  std::string controller_name;  ///< spec.controllerName
  /// spec.parameters (e.g. a ProvisioningRequestConfig), when given ("" otherwise).
  std::string parameters_api_group;
  std::string parameters_kind;
  std::string parameters_name;
  friend bool operator==(const AdmissionCheck&, const AdmissionCheck&) = default;
};

/// ProvisioningRequestConfig (cluster-scoped): what the ProvisioningRequest admission check
/// asks the cluster autoscaler for (Kueue v0.19.2
/// apis/kueue/v1beta2/provisioningrequestconfig_types.go).
struct ProvisioningRequestConfig {
  ObjectMeta metadata;
  std::string provisioning_class_name;            ///< spec.provisioningClassName
  std::map<std::string, std::string> parameters;  ///< spec.parameters
  /// spec.managedResources: the pod sets that request none of them need no request; empty: all.
  std::vector<std::string> managed_resources;
  friend bool operator==(const ProvisioningRequestConfig&,
                         const ProvisioningRequestConfig&) = default;
};

/// The ProvisioningRequest classes gpusched's cluster autoscaler serves
/// (autoscaling.x-k8s.io/v1 types.go).
inline constexpr std::string_view kCheckCapacityClass = "check-capacity.autoscaling.x-k8s.io";
inline constexpr std::string_view kBestEffortAtomicClass =
    "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
/// The annotations Kueue puts on the pods of a workload whose ProvisioningRequest is provisioned
/// (ProvisioningRequestPodAnnotationKey, ProvisioningClassPodAnnotationKey).
inline constexpr std::string_view kConsumeProvisioningRequest =
    "autoscaling.x-k8s.io/consume-provisioning-request";
inline constexpr std::string_view kProvisioningClassAnnotation =
    "autoscaling.x-k8s.io/provisioning-class-name";
/// The controllerName of Kueue's ProvisioningRequest admission checks.
inline constexpr std::string_view kProvisioningRequestController =
    "kueue.x-k8s.io/provisioning-request";

/// metav1.Condition, as Kueue keeps them on Workloads and queues.
using gpusched::Condition;

/// PodSet: a group of identical pods of a workload (a Job's pods: one set, `main`).
struct PodSet {
  std::string name;
  PodTemplateSpec template_;
  std::int32_t count = 1;
  std::optional<std::int32_t> min_count;  ///< partial admission, not modelled
  friend bool operator==(const PodSet&, const PodSet&) = default;
};

/// PodSetAssignment: the flavor of each resource of a pod set and the usage it reserves.
struct PodSetAssignment {
  std::string name;
  std::map<std::string, std::string> flavors;  ///< resource -> flavor
  ResourceList resource_usage;                 ///< the whole pod set's requests
  std::int32_t count = 0;
  friend bool operator==(const PodSetAssignment&, const PodSetAssignment&) = default;
};

struct Admission {
  std::string cluster_queue;
  std::vector<PodSetAssignment> pod_set_assignments;
  friend bool operator==(const Admission&, const Admission&) = default;
};

/// AdmissionCheckState: a Workload's status.admissionChecks[] entry.
struct AdmissionCheckState {
  std::string name;
  std::string state;  ///< "Pending", "Ready", "Retry" or "Rejected"
  std::string message;
  TimeMs last_transition_time = 0;
  friend bool operator==(const AdmissionCheckState&, const AdmissionCheckState&) = default;
};

/// A ProvisioningRequest (autoscaling.x-k8s.io/v1) Kueue's ProvisioningRequest admission check
/// creates for a Workload: one pod set per pod set of the Workload (its template with the
/// admission's flavors merged in), for the cluster autoscaler.
struct ProvisioningRequest {
  ObjectMeta metadata;  ///< "<workload>-<check>-<attempt>" in the Workload's namespace
  std::string provisioning_class_name;
  std::map<std::string, std::string> parameters;
  struct PodSet {
    std::string pod_template_name;  ///< "ppt-<request>-<pod set>"
    PodTemplateSpec template_;
    std::int32_t count = 0;
    friend bool operator==(const PodSet&, const PodSet&) = default;
  };
  std::vector<PodSet> pod_sets;
  std::string workload;               ///< "ns/name" of the Workload that owns it
  std::vector<Condition> conditions;  ///< Accepted, Provisioned, Failed, ...
  friend bool operator==(const ProvisioningRequest&, const ProvisioningRequest&) = default;
};

/// RequeueState: the backoff after an eviction by waitForPodsReady.
struct RequeueState {
  std::optional<std::int32_t> count;
  std::optional<TimeMs> requeue_at;
  friend bool operator==(const RequeueState&, const RequeueState&) = default;
};

/// Workload (namespaced): the unit Kueue queues and admits. Kueue creates one per Job it
/// manages; a scenario does not need to give them.
struct Workload {
  ObjectMeta metadata;
  std::vector<PodSet> pod_sets;
  std::string queue_name;
  /// spec.priorityClassRef: the class the priority came from ("" when none), and its source
  /// ("kueue.x-k8s.io/workloadpriorityclass" or "scheduling.k8s.io/priorityclass").
  std::string priority_class_name;
  std::string priority_class_source;
  std::int32_t priority = 0;
  bool active = true;           ///< spec.active
  std::int64_t generation = 1;  ///< metadata.generation: raised by each spec change
  // status
  std::vector<Condition> conditions;
  std::optional<Admission> admission;
  std::optional<RequeueState> requeue_state;
  /// status.admissionChecks, sorted by name.
  std::vector<AdmissionCheckState> admission_checks;
  friend bool operator==(const Workload&, const Workload&) = default;
};

}  // namespace gpusched::kueue
