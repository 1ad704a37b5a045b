#pragma once
/// core/v1 Pod: the fields the scheduler and the simulated kubelet read.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/node.hpp"
#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched {

/// v1.PodPhase. Unknown: the pod's host cannot be reached; gpusched gives it to a pod bound to a
/// node that no longer exists (or never did), which nothing runs.
enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };

struct ContainerPort {
  std::string name;
  std::int32_t container_port = 0;
  std::int32_t host_port = 0;    ///< 0: no host port
  std::string protocol = "TCP";  ///< TCP, UDP, SCTP
  std::string host_ip;           ///< empty means 0.0.0.0
  friend bool operator==(const ContainerPort&, const ContainerPort&) = default;
};

/// core/v1 ResourceClaim (resources.claims of a container): which of the pod's claims, and
/// optionally which request of it, the container uses. Kept for the kubelet's view only:
/// placement depends on the pod's claims, not on which container uses them.
struct ContainerClaim {
  std::string name;
  std::string request;
  friend bool operator==(const ContainerClaim&, const ContainerClaim&) = default;
};

struct Container {
  std::string name;
  ResourceList requests;  ///< after defaulting: a limit without request sets the request
  ResourceList limits;
  std::vector<ContainerClaim> claims;  ///< resources.claims
  std::vector<ContainerPort> ports;
  std::string restart_policy;  ///< init containers only: "Always" marks a sidecar
  friend bool operator==(const Container&, const Container&) = default;
};

enum class TolerationOperator { Equal, Exists };

struct Toleration {
  std::string key;  ///< empty with Exists: tolerates every taint
  TolerationOperator op = TolerationOperator::Equal;
  std::string value;
  std::optional<TaintEffect> effect;  ///< empty: every effect
  std::optional<std::int64_t> toleration_seconds;
  friend bool operator==(const Toleration&, const Toleration&) = default;

  /// v1.Toleration.ToleratesTaint.
  [[nodiscard]] bool tolerates(const Taint& taint) const noexcept;
};

struct PreferredSchedulingTerm {
  std::int32_t weight = 0;
  NodeSelectorTerm preference;
  friend bool operator==(const PreferredSchedulingTerm&, const PreferredSchedulingTerm&) = default;
};

struct NodeAffinity {
  /// requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms (ORed); nullopt: none.
  std::optional<std::vector<NodeSelectorTerm>> required;
  std::vector<PreferredSchedulingTerm> preferred;
  friend bool operator==(const NodeAffinity&, const NodeAffinity&) = default;
};

/// core/v1 PodAffinityTerm: pods matching the selector in the namespaces, co-located (or not)
/// within the topology domain named by topologyKey.
struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;      ///< nullopt selects no pod
  std::vector<std::string> namespaces;              ///< empty with no selector: the pod's namespace
  std::optional<LabelSelector> namespace_selector;  ///< empty selector: every namespace
  std::string topology_key;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
  friend bool operator==(const PodAffinityTerm&, const PodAffinityTerm&) = default;
};

struct WeightedPodAffinityTerm {
  std::int32_t weight = 0;
  PodAffinityTerm term;
  friend bool operator==(const WeightedPodAffinityTerm&, const WeightedPodAffinityTerm&) = default;
};

/// core/v1 PodAffinity and PodAntiAffinity share this shape.
struct PodAffinity {
  std::vector<PodAffinityTerm> required;  ///< requiredDuringSchedulingIgnoredDuringExecution
  std::vector<WeightedPodAffinityTerm> preferred;
  friend bool operator==(const PodAffinity&, const PodAffinity&) = default;
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
  friend bool operator==(const Affinity&, const Affinity&) = default;
};

/// core/v1 TopologySpreadConstraint.
struct TopologySpreadConstraint {
  std::int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;  ///< "DoNotSchedule" or "ScheduleAnyway"
  std::optional<LabelSelector> label_selector;
  std::optional<std::int32_t> min_domains;
  std::string node_affinity_policy;  ///< "Honor" (default) or "Ignore"
  std::string node_taints_policy;    ///< "Ignore" (default) or "Honor"
  std::vector<std::string> match_label_keys;
  friend bool operator==(const TopologySpreadConstraint&,
                         const TopologySpreadConstraint&) = default;
};

/// core/v1 PodSpec.resources (PodLevelResources, on by default from 1.34): requests and limits
/// for the pod as a whole, of cpu, memory and hugepages-*.
struct PodLevelResources {
  ResourceList requests;  ///< after SetDefaults_Pod's defaultPodRequests
  ResourceList limits;
  friend bool operator==(const PodLevelResources&, const PodLevelResources&) = default;
};

/// core/v1 WorkloadReference (1.35, GenericWorkload): the Workload pod group a pod belongs to.
/// Immutable; pods with the same reference form one instance of the group.
struct WorkloadReference {
  std::string name;
  std::string pod_group;
  std::string pod_group_replica_key;
  friend bool operator==(const WorkloadReference&, const WorkloadReference&) = default;
};

/// core/v1 PodResourceClaim: a claim by name, or one the resourceclaim controller makes from
/// a template for this pod (exactly one of the two).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
  friend bool operator==(const PodResourceClaim&, const PodResourceClaim&) = default;
};

/// The texts of a pod's string fields' defaults, of its usual condition and of the default
/// namespace, one shared value each (a pod that takes a default holds a pointer to the text, not
/// a copy of it).
struct PodDefaultTexts {
  SharedText scheduler_name = "default-scheduler";
  SharedText restart_policy = "Always";
  SharedText preempt_lower_priority = "PreemptLowerPriority";
  SharedText pod_scheduled = "PodScheduled";  ///< the condition type
  SharedText condition_true = "True";
  SharedText condition_false = "False";
  SharedText default_namespace = "default";  ///< a namespaced object's when it names none
};
/// The one set of those texts, built on first use (whichever static object's initializer asks
/// first).
[[nodiscard]] const PodDefaultTexts& pod_defaults();

struct PodSpec {
  Shared<std::vector<Container>> containers;
  Shared<std::vector<Container>> init_containers;
  /// spec.overhead; shared, as most pods have none (a pointer's size instead of a map's).
  Shared<ResourceList> overhead;
  Labels node_selector;
  Shared<Affinity> affinity;
  Shared<std::vector<Toleration>> tolerations;
  Shared<std::vector<TopologySpreadConstraint>> topology_spread_constraints;
  std::optional<std::int32_t> priority;
  // The strings a pod's template or a default gives it are shared strings: a pointer each, the
  // text held once for the pods of a template (a million-pod replay holds each pod twice).
  SharedText priority_class_name;
  SharedText preemption_policy;  ///< "PreemptLowerPriority" (default) or "Never"
  SharedText scheduler_name = pod_defaults().scheduler_name;
  SharedText node_name;  ///< non-empty: bound; the pods bound to a node share its name's text
  SharedText restart_policy = pod_defaults().restart_policy;
  std::int64_t termination_grace_period_seconds = 30;
  /// spec.schedulingGates' names: while any remains, the scheduler does not queue the pod.
  /// Shared, as the claims below: most pods have none (a pointer each instead of a vector, in
  /// a million-pod replay's every pod).
  Shared<std::vector<std::string>> scheduling_gates;
  /// spec.resources; nullopt when absent (or dropped by a release without PodLevelResources).
  SharedOptional<PodLevelResources> resources;
  /// spec.resourceClaims: the pod's Dynamic Resource Allocation claims.
  Shared<std::vector<PodResourceClaim>> resource_claims;
  /// spec.workloadRef; nullopt when absent (or dropped by an API server without
  /// GenericWorkload).
  SharedOptional<WorkloadReference> workload_ref;
  /// spec.schedulingGroup.podGroupName (1.36, GenericWorkload): the PodGroup the pod belongs
  /// to; nullopt when absent (or dropped by an API server without GenericWorkload). Immutable.
  SharedOptional<std::string> scheduling_group;
  friend bool operator==(const PodSpec&, const PodSpec&) = default;
};

struct PodCondition {
  SharedText type;    ///< "PodScheduled", "DisruptionTarget", ...
  SharedText status;  ///< "True" / "False"
  SharedText reason;
  SharedText message;  ///< shared: most conditions (PodScheduled True) have none
  std::int64_t last_transition_ms = 0;
  friend bool operator==(const PodCondition&, const PodCondition&) = default;
};

/// core/v1 PodResourceClaimStatus: the claim the resourceclaim controller made for a template
/// reference (nullopt: none needed).
struct PodResourceClaimStatus {
  std::string name;
  std::optional<std::string> resource_claim_name;
  friend bool operator==(const PodResourceClaimStatus&, const PodResourceClaimStatus&) = default;
};

/// core/v1 ContainerExtendedResourceRequest: which request of the pod's extended-resource claim
/// serves a container's extended resource.
struct ContainerExtendedResourceRequest {
  std::string container_name;
  std::string resource_name;
  std::string request_name;
  friend bool operator==(const ContainerExtendedResourceRequest&,
                         const ContainerExtendedResourceRequest&) = default;
};

/// core/v1 PodExtendedResourceClaimStatus: the claim kube-scheduler created for the pod's
/// extended resources served by DRA devices (DRAExtendedResource).
struct PodExtendedResourceClaimStatus {
  std::vector<ContainerExtendedResourceRequest> request_mappings;
  std::string resource_claim_name;
  friend bool operator==(const PodExtendedResourceClaimStatus&,
                         const PodExtendedResourceClaimStatus&) = default;
};

struct PodStatus {
  PodPhase phase = PodPhase::Pending;
  std::vector<PodCondition> conditions;
  SharedText nominated_node_name;
  std::optional<std::int64_t> start_ms;  ///< status.startTime
  /// status.reason / status.message: set when the kubelet rejects the pod at admission
  /// (UnexpectedAdmissionError, TopologyAffinityError); shared strings, as most pods have none.
  SharedText reason;
  SharedText message;
  /// status.resourceClaimStatuses, in spec.resourceClaims order of the template references.
  Shared<std::vector<PodResourceClaimStatus>> resource_claim_statuses;
  /// status.extendedResourceClaimStatus, written at PreBind.
  SharedOptional<PodExtendedResourceClaimStatus> extended_resource_claim_status;
  friend bool operator==(const PodStatus&, const PodStatus&) = default;

  [[nodiscard]] const PodCondition* condition(std::string_view type) const noexcept;
};

struct Pod {
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
  friend bool operator==(const Pod&, const Pod&) = default;

  /// Succeeded or Failed: no longer holds node resources.
  [[nodiscard]] bool terminated() const noexcept {
    return status.phase == PodPhase::Succeeded || status.phase == PodPhase::Failed;
  }
  /// corev1helpers.PodPriority: spec.priority, 0 when unset.
  [[nodiscard]] std::int32_t priority() const noexcept { return spec.priority.value_or(0); }
  /// "namespace/name".
  [[nodiscard]] std::string key() const;
  /// The reason and message a user reads for this pod: status.reason / status.message when the
  /// kubelet rejected it, else the PodScheduled condition's; nullptr when there is none.
  [[nodiscard]] const std::string* reason() const noexcept;
  [[nodiscard]] const std::string* message() const noexcept;
};

[[nodiscard]] std::string_view to_string(PodPhase phase) noexcept;

}  // namespace gpusched
