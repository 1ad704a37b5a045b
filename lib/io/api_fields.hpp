#pragma once
/// The JSON field names of the Kubernetes API types the object parser reads, for `--strict`
/// warnings about unknown fields (JsonNode::note_unknown_keys), as `kubectl apply
/// --validate=strict` finds them. A field that exists upstream but that gpusched does not model
/// (image, env, volumes, managedFields, status.containerStatuses ...) is known: a real manifest
/// or `kubectl get -o json` dump must give no warning.
///
/// Taken from the `json:"..."` tags of k8s.io/api core/v1, apps/v1, batch/v1, policy/v1,
/// scheduling/v1 and resource/v1 (v1beta2, v1beta1) types.go and k8s.io/apimachinery
/// pkg/apis/meta/v1 types.go: the union over Kubernetes 1.33 to 1.36, so that objects from any
/// release gpusched mirrors, or the next one, name only known fields. Maps (labels, annotations,
/// resource lists, nodeSelector) have no list.

#include <span>
#include <string_view>

namespace gpusched::io::api_fields {

/// One type's list, whatever its length.
using Fields = std::span<const std::string_view>;

// --- meta/v1 ------------------------------------------------------------------------------

/// TypeMeta, ObjectMeta, spec and status: Pod, Node, Namespace, Deployment, ReplicaSet,
/// DaemonSet, StatefulSet, Job, PodDisruptionBudget and Service.
inline constexpr std::string_view kObject[] = {"apiVersion", "kind", "metadata", "spec", "status"};
/// v1.List (`kind: List`, as `kubectl get -o json` prints several objects).
inline constexpr std::string_view kList[] = {"apiVersion", "items", "kind", "metadata"};
/// core/v1 ConfigMap (read as the GPU Operator's device-plugin configs).
inline constexpr std::string_view kConfigMap[] = {"apiVersion", "binaryData", "data",
                                                  "immutable",  "kind",       "metadata"};
inline constexpr std::string_view kObjectMeta[] = {"annotations",
                                                   "creationTimestamp",
                                                   "deletionGracePeriodSeconds",
                                                   "deletionTimestamp",
                                                   "finalizers",
                                                   "generateName",
                                                   "generation",
                                                   "labels",
                                                   "managedFields",
                                                   "name",
                                                   "namespace",
                                                   "ownerReferences",
                                                   "resourceVersion",
                                                   "selfLink",
                                                   "uid"};
inline constexpr std::string_view kOwnerReference[] = {
    "apiVersion", "blockOwnerDeletion", "controller", "kind", "name", "uid"};
inline constexpr std::string_view kLabelSelector[] = {"matchExpressions", "matchLabels"};
inline constexpr std::string_view kLabelSelectorRequirement[] = {"key", "operator", "values"};

// --- core/v1: Pod -------------------------------------------------------------------------

/// PodSpec; `workloadRef` is 1.35's alpha field, which 1.36 no longer has (it has
/// `schedulingGroup`).
inline constexpr std::string_view kPodSpec[] = {"activeDeadlineSeconds",
                                                "affinity",
                                                "automountServiceAccountToken",
                                                "containers",
                                                "dnsConfig",
                                                "dnsPolicy",
                                                "enableServiceLinks",
                                                "ephemeralContainers",
                                                "hostAliases",
                                                "hostIPC",
                                                "hostNetwork",
                                                "hostPID",
                                                "hostUsers",
                                                "hostname",
                                                "hostnameOverride",
                                                "imagePullSecrets",
                                                "initContainers",
                                                "nodeName",
                                                "nodeSelector",
                                                "os",
                                                "overhead",
                                                "preemptionPolicy",
                                                "priority",
                                                "priorityClassName",
                                                "readinessGates",
                                                "resourceClaims",
                                                "resources",
                                                "restartPolicy",
                                                "runtimeClassName",
                                                "schedulerName",
                                                "schedulingGates",
                                                "schedulingGroup",
                                                "securityContext",
                                                "serviceAccount",
                                                "serviceAccountName",
                                                "setHostnameAsFQDN",
                                                "shareProcessNamespace",
                                                "subdomain",
                                                "terminationGracePeriodSeconds",
                                                "tolerations",
                                                "topologySpreadConstraints",
                                                "volumes",
                                                "workloadRef"};
inline constexpr std::string_view kContainer[] = {"args",
                                                  "command",
                                                  "env",
                                                  "envFrom",
                                                  "image",
                                                  "imagePullPolicy",
                                                  "lifecycle",
                                                  "livenessProbe",
                                                  "name",
                                                  "ports",
                                                  "readinessProbe",
                                                  "resizePolicy",
                                                  "resources",
                                                  "restartPolicy",
                                                  "restartPolicyRules",
                                                  "securityContext",
                                                  "startupProbe",
                                                  "stdin",
                                                  "stdinOnce",
                                                  "terminationMessagePath",
                                                  "terminationMessagePolicy",
                                                  "tty",
                                                  "volumeDevices",
                                                  "volumeMounts",
                                                  "workingDir"};
inline constexpr std::string_view kResourceRequirements[] = {"claims", "limits", "requests"};
/// core/v1 ResourceClaim (a container's resources.claims entry).
inline constexpr std::string_view kContainerResourceClaim[] = {"name", "request"};
/// core/v1 PodResourceClaim (spec.resourceClaims).
inline constexpr std::string_view kPodResourceClaim[] = {"name", "resourceClaimName",
                                                         "resourceClaimTemplateName"};
/// core/v1 PodResourceClaimStatus (status.resourceClaimStatuses).
inline constexpr std::string_view kPodResourceClaimStatus[] = {"name", "resourceClaimName"};
/// core/v1 PodExtendedResourceClaimStatus and ContainerExtendedResourceRequest.
inline constexpr std::string_view kPodExtendedResourceClaimStatus[] = {"requestMappings",
                                                                       "resourceClaimName"};
inline constexpr std::string_view kContainerExtendedResourceRequest[] = {
    "containerName", "requestName", "resourceName"};
inline constexpr std::string_view kPodSchedulingGate[] = {"name"};
/// core/v1 WorkloadReference (1.35).
inline constexpr std::string_view kWorkloadReference[] = {"name", "podGroup", "podGroupReplicaKey"};

// --- scheduling.k8s.io/v1alpha1: Workload (1.35) -----------------------------------------

inline constexpr std::string_view kWorkloadSpec[] = {"controllerRef", "podGroups"};
inline constexpr std::string_view kTypedLocalObjectReference[] = {"apiGroup", "kind", "name"};
inline constexpr std::string_view kWorkloadPodGroup[] = {"name", "policy"};
inline constexpr std::string_view kPodGroupPolicy[] = {"basic", "gang"};
inline constexpr std::string_view kGangSchedulingPolicy[] = {"minCount"};

// --- scheduling.k8s.io/v1alpha2: Workload and PodGroup (1.36) -----------------------------

/// core/v1 PodSchedulingGroup (1.36).
inline constexpr std::string_view kPodSchedulingGroup[] = {"podGroupName"};
inline constexpr std::string_view kWorkloadSpecV1alpha2[] = {"controllerRef", "podGroupTemplates"};
inline constexpr std::string_view kPodGroupTemplate[] = {"name", "schedulingConstraints",
                                                         "schedulingPolicy"};
inline constexpr std::string_view kPodGroupSpec[] = {"podGroupTemplateRef", "schedulingConstraints",
                                                     "schedulingPolicy"};
inline constexpr std::string_view kPodGroupTemplateReference[] = {"workload"};
inline constexpr std::string_view kWorkloadPodGroupTemplateReference[] = {"podGroupTemplateName",
                                                                          "workloadName"};
inline constexpr std::string_view kContainerPort[] = {"containerPort", "hostIP", "hostPort", "name",
                                                      "protocol"};
inline constexpr std::string_view kToleration[] = {"effect", "key", "operator", "tolerationSeconds",
                                                   "value"};
inline constexpr std::string_view kAffinity[] = {"nodeAffinity", "podAffinity", "podAntiAffinity"};
inline constexpr std::string_view kNodeAffinity[] = {
    "preferredDuringSchedulingIgnoredDuringExecution",
    "requiredDuringSchedulingIgnoredDuringExecution"};
inline constexpr std::string_view kNodeSelector[] = {"nodeSelectorTerms"};
inline constexpr std::string_view kNodeSelectorTerm[] = {"matchExpressions", "matchFields"};
inline constexpr std::string_view kNodeSelectorRequirement[] = {"key", "operator", "values"};
inline constexpr std::string_view kPreferredSchedulingTerm[] = {"preference", "weight"};
/// PodAffinity and PodAntiAffinity.
inline constexpr std::string_view kPodAffinity[] = {
    "preferredDuringSchedulingIgnoredDuringExecution",
    "requiredDuringSchedulingIgnoredDuringExecution"};
inline constexpr std::string_view kPodAffinityTerm[] = {"labelSelector",     "matchLabelKeys",
                                                        "mismatchLabelKeys", "namespaceSelector",
                                                        "namespaces",        "topologyKey"};
inline constexpr std::string_view kWeightedPodAffinityTerm[] = {"podAffinityTerm", "weight"};
inline constexpr std::string_view kTopologySpreadConstraint[] = {
    "labelSelector",      "matchLabelKeys",   "maxSkew",     "minDomains",
    "nodeAffinityPolicy", "nodeTaintsPolicy", "topologyKey", "whenUnsatisfiable"};
inline constexpr std::string_view kPodStatus[] = {"allocatedResources",
                                                  "conditions",
                                                  "containerStatuses",
                                                  "ephemeralContainerStatuses",
                                                  "extendedResourceClaimStatus",
                                                  "hostIP",
                                                  "hostIPs",
                                                  "initContainerStatuses",
                                                  "message",
                                                  "nodeAllocatableResourceClaimStatuses",
                                                  "nominatedNodeName",
                                                  "observedGeneration",
                                                  "phase",
                                                  "podIP",
                                                  "podIPs",
                                                  "qosClass",
                                                  "reason",
                                                  "resize",
                                                  "resourceClaimStatuses",
                                                  "resources",
                                                  "startTime"};
inline constexpr std::string_view kPodCondition[] = {
    "lastProbeTime", "lastTransitionTime", "message", "observedGeneration", "reason", "status",
    "type"};
inline constexpr std::string_view kPodTemplateSpec[] = {"metadata", "spec"};

// --- core/v1: Node ------------------------------------------------------------------------

inline constexpr std::string_view kNodeSpec[] = {
    "configSource", "externalID", "podCIDR", "podCIDRs", "providerID", "taints", "unschedulable"};
inline constexpr std::string_view kTaint[] = {"effect", "key", "timeAdded", "value"};
inline constexpr std::string_view kNodeStatus[] = {
    "addresses",       "allocatable",      "capacity",        "conditions",  "config",
    "daemonEndpoints", "declaredFeatures", "features",        "images",      "nodeInfo",
    "phase",           "runtimeHandlers",  "volumesAttached", "volumesInUse"};
inline constexpr std::string_view kNodeCondition[] = {
    "lastHeartbeatTime", "lastTransitionTime", "message", "reason", "status", "type"};

// --- apps/v1, batch/v1, policy/v1, scheduling/v1, core/v1 Service -------------------------

inline constexpr std::string_view kDeploymentSpec[] = {"minReadySeconds",
                                                       "paused",
                                                       "progressDeadlineSeconds",
                                                       "replicas",
                                                       "revisionHistoryLimit",
                                                       "selector",
                                                       "strategy",
                                                       "template"};
inline constexpr std::string_view kReplicaSetSpec[] = {"minReadySeconds", "replicas", "selector",
                                                       "template"};
inline constexpr std::string_view kDaemonSetSpec[] = {"minReadySeconds", "revisionHistoryLimit",
                                                      "selector", "template", "updateStrategy"};
inline constexpr std::string_view kStatefulSetSpec[] = {"minReadySeconds",
                                                        "ordinals",
                                                        "persistentVolumeClaimRetentionPolicy",
                                                        "podManagementPolicy",
                                                        "replicas",
                                                        "revisionHistoryLimit",
                                                        "selector",
                                                        "serviceName",
                                                        "template",
                                                        "updateStrategy",
                                                        "volumeClaimTemplates"};
inline constexpr std::string_view kStatefulSetOrdinals[] = {"start"};
inline constexpr std::string_view kJobSpec[] = {"activeDeadlineSeconds",
                                                "backoffLimit",
                                                "backoffLimitPerIndex",
                                                "completionMode",
                                                "completions",
                                                "managedBy",
                                                "manualSelector",
                                                "maxFailedIndexes",
                                                "parallelism",
                                                "podFailurePolicy",
                                                "podReplacementPolicy",
                                                "selector",
                                                "successPolicy",
                                                "suspend",
                                                "template",
                                                "ttlSecondsAfterFinished"};
inline constexpr std::string_view kPodDisruptionBudgetSpec[] = {
    "maxUnavailable", "minAvailable", "selector", "unhealthyPodEvictionPolicy"};
/// core/v1 ServiceSpec.
inline constexpr std::string_view kServiceSpec[] = {"allocateLoadBalancerNodePorts",
                                                    "clusterIP",
                                                    "clusterIPs",
                                                    "externalIPs",
                                                    "externalName",
                                                    "externalTrafficPolicy",
                                                    "healthCheckNodePort",
                                                    "internalTrafficPolicy",
                                                    "ipFamilies",
                                                    "ipFamilyPolicy",
                                                    "loadBalancerClass",
                                                    "loadBalancerIP",
                                                    "loadBalancerSourceRanges",
                                                    "ports",
                                                    "publishNotReadyAddresses",
                                                    "selector",
                                                    "sessionAffinity",
                                                    "sessionAffinityConfig",
                                                    "trafficDistribution",
                                                    "type"};
// --- resource.k8s.io: v1 and v1beta2 (one shape), v1beta1 (flat requests, `basic` devices) --

/// DeviceClass, ResourceSlice and ResourceClaimTemplate have no status.
inline constexpr std::string_view kSpecObject[] = {"apiVersion", "kind", "metadata", "spec"};
inline constexpr std::string_view kDeviceClassSpec[] = {"config", "extendedResourceName",
                                                        "selectors"};
inline constexpr std::string_view kDeviceSelector[] = {"cel"};
inline constexpr std::string_view kCELDeviceSelector[] = {"expression"};
/// DeviceClassConfiguration (DeviceConfiguration inline).
inline constexpr std::string_view kDeviceClassConfiguration[] = {"opaque"};
/// DeviceClaimConfiguration (requests and DeviceConfiguration inline).
inline constexpr std::string_view kDeviceClaimConfiguration[] = {"opaque", "requests"};
inline constexpr std::string_view kOpaqueDeviceConfiguration[] = {"driver", "parameters"};
inline constexpr std::string_view kResourceSliceSpec[] = {
    "allNodes", "devices",       "driver", "nodeName", "nodeSelector", "perDeviceNodeSelection",
    "pool",     "sharedCounters"};
inline constexpr std::string_view kResourcePool[] = {"generation", "name", "resourceSliceCount"};
/// v1 Device, and v1beta1 BasicDevice (the same fields, under `basic`, without the name).
inline constexpr std::string_view kDevice[] = {"allNodes",
                                               "allowMultipleAllocations",
                                               "attributes",
                                               "bindingConditions",
                                               "bindingFailureConditions",
                                               "bindsToNode",
                                               "capacity",
                                               "consumesCounters",
                                               "name",
                                               "nodeName",
                                               "nodeSelector",
                                               "taints"};
/// v1beta1 Device.
inline constexpr std::string_view kDeviceV1beta1[] = {"basic", "name"};
inline constexpr std::string_view kDeviceAttribute[] = {"bool", "int", "string", "version"};
inline constexpr std::string_view kDeviceCapacity[] = {"requestPolicy", "value"};
inline constexpr std::string_view kCapacityRequestPolicy[] = {"default", "validRange",
                                                              "validValues"};
inline constexpr std::string_view kCapacityRequestPolicyRange[] = {"max", "min", "step"};
inline constexpr std::string_view kCounterSet[] = {"counters", "name"};
/// Counter.
inline constexpr std::string_view kCounter[] = {"value"};
inline constexpr std::string_view kDeviceCounterConsumption[] = {"counterSet", "counters"};
/// DeviceTaint (timeAdded is read and dropped: the scheduler does not use it).
inline constexpr std::string_view kDeviceTaint[] = {"effect", "key", "timeAdded", "value"};
inline constexpr std::string_view kResourceClaimSpec[] = {"devices"};
inline constexpr std::string_view kDeviceClaim[] = {"config", "constraints", "requests"};
/// v1 DeviceRequest.
inline constexpr std::string_view kDeviceRequest[] = {"exactly", "firstAvailable", "name"};
/// v1beta1 DeviceRequest: ExactDeviceRequest's fields beside the name.
inline constexpr std::string_view kDeviceRequestV1beta1[] = {
    "adminAccess",    "allocationMode", "capacity",  "count",      "deviceClassName",
    "firstAvailable", "name",           "selectors", "tolerations"};
inline constexpr std::string_view kExactDeviceRequest[] = {
    "adminAccess",     "allocationMode", "capacity",   "count",
    "deviceClassName", "selectors",      "tolerations"};
inline constexpr std::string_view kDeviceSubRequest[] = {
    "allocationMode", "capacity", "count", "deviceClassName", "name", "selectors", "tolerations"};
inline constexpr std::string_view kCapacityRequirements[] = {"requests"};
inline constexpr std::string_view kDeviceConstraint[] = {"distinctAttribute", "matchAttribute",
                                                         "requests"};
/// ResourceClaimStatus; `devices` (the drivers' AllocatedDeviceStatus) is not read.
inline constexpr std::string_view kResourceClaimStatus[] = {"allocation", "devices", "reservedFor"};
inline constexpr std::string_view kAllocationResult[] = {"allocationTimestamp", "devices",
                                                         "nodeSelector"};
inline constexpr std::string_view kDeviceAllocationResult[] = {"config", "results"};
inline constexpr std::string_view kDeviceRequestAllocationResult[] = {"adminAccess",
                                                                      "bindingConditions",
                                                                      "bindingFailureConditions",
                                                                      "consumedCapacity",
                                                                      "device",
                                                                      "driver",
                                                                      "pool",
                                                                      "request",
                                                                      "shareID",
                                                                      "tolerations"};
inline constexpr std::string_view kDeviceAllocationConfiguration[] = {"opaque", "requests",
                                                                      "source"};
inline constexpr std::string_view kResourceClaimConsumerReference[] = {"apiGroup", "name",
                                                                       "resource", "uid"};
inline constexpr std::string_view kResourceClaimTemplateSpec[] = {"metadata", "spec"};

/// PriorityClass has no spec: its fields sit beside metadata.
inline constexpr std::string_view kPriorityClass[] = {
    "apiVersion", "description", "globalDefault", "kind", "metadata", "preemptionPolicy", "value"};

}  // namespace gpusched::io::api_fields
