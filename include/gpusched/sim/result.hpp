#pragma once
/// The replay result (contract v1, scenario-format.md §2): a value the writers print.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/gpu_share.hpp"
#include "gpusched/model/kueue.hpp"
#include "gpusched/model/object.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched {

/// A Kubernetes Event as recorded; repeats of the same event are counted, as the API does.
struct EventRecord {
  TimeMs time = 0;       ///< first occurrence
  TimeMs last_time = 0;  ///< last occurrence
  std::int32_t count = 1;
  SharedText type;     ///< "Normal" / "Warning"
  SharedText reason;   ///< "Scheduled", "FailedScheduling", ...; one text per recorder and reason
  std::string object;  ///< "Pod/default/x"
  std::string message;
};

/// One pod at the end of the run (or at --until).
struct PodRecord {
  Pod pod;                        ///< final state, including conditions
  Shared<ResourceList> requests;  ///< effective request (PodRequests)
  bool terminating = false;       ///< deletionTimestamp set, still holding resources
  std::int32_t preemptions = 0;   ///< preemptions it made (SimulationResult::preemptions)
  std::optional<TimeMs> created;
  std::optional<TimeMs> scheduled;  ///< first bind
  std::optional<TimeMs> finished;   ///< Succeeded / deleted
  /// Devices the kubelet gave it, per resource ("nvidia.com/gpu" -> GPU UUIDs; a shared
  /// replica reads as its GPU's UUID, a MIG device as its MIG UUID), while it holds them.
  /// Shared values: most pods hold no device and none is preempted (a pointer each, not a map
  /// and two strings, in a million-pod result).
  Shared<std::map<std::string, std::vector<std::string>>> devices;
  SharedText visible_devices;  ///< NVIDIA_VISIBLE_DEVICES its containers see; empty: none
  SharedText preempted_by;     ///< "ns/name" of the pod that preempted it, if it was a victim
  /// Time to schedule: from creation to the first bind; nullopt while never bound.
  [[nodiscard]] std::optional<TimeMs> wait() const noexcept {
    if (!created || !scheduled) return std::nullopt;
    return *scheduled - *created;
  }
};

/// One physical GPU of a node and the pods using it.
struct GpuRecord {
  int index = 0;
  std::string uuid;
  bool healthy = true;
  std::vector<std::string> pods;  ///< "ns/name"
};

/// One GPU of a GPU-sharing node (alibabacloud.com/gpu-count) and the pods holding a share of
/// it or all of it.
struct SharedGpuRecord {
  int index = 0;
  std::int64_t used_milli = 0;  ///< what the pods hold; above 1000 only when the input says so
  std::vector<std::pair<std::string, std::int64_t>> pods;  ///< "ns/name" and its milli
};

/// A state of a node with alibabacloud.com GPUs and when it held: [from, to).
struct GpuShareInterval {
  TimeMs from = 0;
  TimeMs to = 0;
  std::string node;
  std::string model;               ///< its alibabacloud.com/gpu-card-model label
  std::int64_t cpu_left = 0;       ///< allocatable cpu less the pods' requests, milli
  std::vector<std::int32_t> free;  ///< per GPU, milli
};

/// How the HTML report's timelines name shared GPU `index` of a node, in PodSpan::gpus.
[[nodiscard]] inline std::string shared_gpu_row(int index) {
  return "shared-gpu-" + std::to_string(index);
}

struct NodeRecord {
  Node node;
  ResourceList allocated;         ///< sum of requests of the non-terminated pods bound to it
  std::vector<std::string> pods;  ///< "ns/name" of those pods, in bind order
  std::vector<GpuRecord> gpus;    ///< empty for a node without GPU hardware
  std::vector<SharedGpuRecord> shared_gpus;  ///< empty for a node without GPU sharing
};

/// A pod evicted by preemption, and the work it loses.
struct VictimRecord {
  std::string pod;  ///< "ns/name"
  std::int32_t priority = 0;
  std::int64_t gpus = 0;  ///< whole nvidia.com/gpu it requested
  TimeMs ran = 0;         ///< from its start to the eviction
  /// GPU time accumulated when evicted: gpus x ran, in GPU-milliseconds.
  [[nodiscard]] std::int64_t lost_gpu_ms() const noexcept { return gpus * ran; }
};

/// One successful preemption (DefaultPreemption choosing a node and its victims).
struct PreemptionRecord {
  TimeMs time = 0;
  std::string preemptor;  ///< "ns/name"
  std::string node;
  std::vector<VictimRecord> victims;
};

/// A node's whole GPUs from `at` until its next step (or the end of its stay).
struct GpuStep {
  TimeMs at = 0;
  std::int64_t allocatable = 0;  ///< nvidia.com/gpu allocatable
  std::int64_t allocated = 0;    ///< requested by the pods holding the node
  bool schedulable = false;      ///< Ready and not cordoned
  friend bool operator==(const GpuStep&, const GpuStep&) = default;
};

/// What one node offered and what its pods requested, integrated over the time it was in the
/// cluster: the input of time-weighted allocation. A node removed and added again has one record
/// per stay.
struct NodeUsage {
  std::string node;
  std::string pool;       ///< its gpusched.io/node-pool label; empty when not from a pool
  std::string gpu_model;  ///< its nvidia.com/gpu.product label (GFD); empty without GPUs
  TimeMs from = 0;        ///< when it joined the cluster
  TimeMs to = 0;          ///< when it left, or the end of the run
  /// Resource name -> the integral of allocatable (or of the requests of the pods holding it)
  /// over [from, to], in unit-hours: GPU-hours, core-hours, byte-hours. Resources never offered
  /// or requested are absent.
  std::map<std::string, double> allocatable_hours;
  std::map<std::string, double> requested_hours;
  /// allocatable_hours counted only while the node was Ready and not cordoned: what the
  /// scheduler could place pods on.
  std::map<std::string, double> schedulable_hours;
  /// The node's GPUs over its stay, a step each time they changed; before the first step it had
  /// none (a node that never had nvidia.com/gpu has no step). Only what held for some time is
  /// kept: values that changed again within the same instant are left out.
  std::vector<GpuStep> gpu_steps;
};

/// A node pool as the run used it: what its capacity costs and when it was reserved.
struct PoolRecord {
  std::string pool;
  std::int32_t count = 0;
  std::int64_t gpus_per_node = 0;  ///< the template's whole nvidia.com/gpu capacity
  std::int64_t price_micros_per_gpu_hour = 0;
  std::optional<TimeMs> reserved_from;  ///< a reservation's start
  std::optional<TimeMs> reserved_to;    ///< its end; nullopt: open (or no reservation)
};

/// One node of a node pool on its way into the cluster (layers 1 and 2) and out of it.
struct NodeProvisioning {
  std::string node;
  std::string pool;
  std::int64_t gpus = 0;  ///< the template's whole nvidia.com/gpu capacity
  TimeMs requested = 0;   ///< its first launch was asked for
  std::int32_t failed_launches = 0;
  std::optional<TimeMs> billed_from;      ///< the launch that succeeded was asked for
  std::optional<TimeMs> registered;       ///< joined the cluster, NotReady
  std::optional<TimeMs> ready;            ///< Ready
  std::optional<TimeMs> gpus_advertised;  ///< the device plugin advertised its GPUs
  std::optional<TimeMs> removed;          ///< the reservation ended (or the launch gave up)
};

/// The fleet's GPUs over one stretch of time, integrated: GPU-hours.
struct GpuBucket {
  TimeMs from = 0;
  TimeMs to = 0;
  double schedulable_hours = 0;  ///< allocatable GPUs on Ready, uncordoned nodes
  double allocated_hours = 0;    ///< GPUs requested by the pods holding nodes
};

/// A Job: when it was created and when it completed or failed.
struct JobRecord {
  std::string job;  ///< "ns/name"
  TimeMs created = 0;
  std::optional<TimeMs> ended;  ///< Complete or Failed; nullopt: still running at the end
  bool failed = false;          ///< BackoffLimitExceeded
  std::int32_t succeeded = 0;
};

/// A Kueue Workload as the run left it (scenario-format.md §6 `workloads`).
struct WorkloadRecord {
  std::string namespace_;
  std::string name;
  std::string queue_name;
  /// The ClusterQueue of its admission, else the one its LocalQueue names; nullopt: neither.
  std::optional<std::string> cluster_queue;
  std::string owner;  ///< "Job/ns/name"; a pod's or pod group's Workload: "Pod/ns/name"
  std::int32_t priority = 0;
  bool admitted = false;
  std::optional<TimeMs> admitted_at;  ///< the last Admitted=True transition
  /// Pod set -> resource -> flavor of the admission; empty when not admitted.
  std::map<std::string, std::map<std::string, std::string>> flavors;
  std::vector<kueue::Condition> conditions;  ///< in the order Kueue keeps them
  /// status.admissionChecks, by name; empty when its ClusterQueue has none for it.
  std::vector<kueue::AdmissionCheckState> admission_checks;
};

/// One device of a claim's allocation.
struct ClaimDeviceRecord {
  std::string request;  ///< `<request>` or `<request>/<subrequest>`
  std::string driver;
  std::string pool;
  std::string device;
};

/// A ResourceClaim as the run left it (scenario-format.md §7 `resourceClaims`).
struct ResourceClaimRecord {
  std::string namespace_;
  std::string name;
  std::optional<std::string> owner;  ///< its controller, "Pod/ns/name"
  bool allocated = false;
  std::optional<std::string> node;         ///< the node its allocation's node selector names
  std::vector<ClaimDeviceRecord> devices;  ///< in allocation order
  std::vector<std::string> reserved_for;   ///< "Pod/ns/name", in reservation order
};

/// A ClusterQueue as the run left it (scenario-format.md §6 `clusterQueues`).
struct ClusterQueueRecord {
  std::string name;
  std::optional<std::string> cohort;
  /// status.flavorsUsage: flavor -> resource -> quantity, every covered flavor and resource.
  std::map<std::string, std::map<std::string, Quantity>> usage;
  /// spec's nominalQuota at the end of the run: flavor -> resource -> quantity. Not part of the
  /// JSON result; the per-queue metrics measure borrowing and usage against it.
  std::map<std::string, std::map<std::string, Quantity>> nominal;
  std::int32_t pending_workloads = 0;
  std::int32_t reserving_workloads = 0;
  std::int32_t admitted_workloads = 0;
  /// status.fairSharing.weightedShare, only with fairSharing configured: the dominant resource
  /// share over the fair weight, rounded up (INT64_MAX when a weight of 0 borrows).
  std::optional<std::int64_t> weighted_share;
};

/// One workload Kueue's preemptor evicted to admit another (its IssuePreemptions).
struct KueuePreemptionRecord {
  TimeMs time = 0;
  std::string preemptor;  ///< the Workload admitted by it, "ns/name"
  std::string victim;     ///< the Workload evicted, "ns/name"
  /// InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing or InCohortFairSharing.
  std::string reason;
  std::string message;  ///< its Preempted condition's message
};

/// One wait for quota and the reservation that ended it, of a Kueue Workload (Kueue's
/// admission_wait_time runs from creation or requeue to quota reservation): queued at `queued`,
/// holding `usage` of `cluster_queue` from `reserved` until `released` (finished, evicted or
/// deleted). A Workload evicted and requeued has one span per wait.
struct QuotaSpan {
  std::string workload;       ///< "ns/name"
  std::string local_queue;    ///< "ns/name"
  std::string cluster_queue;  ///< of the reservation, else its LocalQueue's; empty: neither
  TimeMs queued = 0;
  std::optional<TimeMs> reserved;  ///< nullopt: never reserved
  /// Stopped holding (or, never reserved, waiting for) quota; nullopt: not by the end.
  std::optional<TimeMs> released;
  /// flavor -> resource -> quantity held while reserved.
  std::map<std::string, std::map<std::string, Quantity>> usage;
};

/// One pod instance over the run, including those deleted before its end (which `pods` leaves
/// out): pending from `created` until it started holding `node`, then holding the node (and
/// `gpus`) until `finished`. A pod instance is bound once, so it holds at most one node.
struct PodSpan {
  std::string pod;  ///< "ns/name"
  TimeMs created = 0;
  /// Started holding `node`: bound and admitted by the kubelet (a pod of the starting cluster
  /// keeps its exported start time); nullopt: never held one.
  std::optional<TimeMs> scheduled;
  /// Stopped holding its node or waiting: Succeeded, Failed, or deleted (a terminating pod holds
  /// its node until its termination ends); nullopt: neither by the end of the run.
  std::optional<TimeMs> finished;
  std::string node;               ///< the node it held; empty when it never held one
  std::vector<std::string> gpus;  ///< UUIDs of the physical GPUs its devices were on, by index
};

/// A scheduling.k8s.io/v1alpha2 PodGroup at the end of the run (Kubernetes 1.36), with the
/// conditions the scheduler's PodGroup cycle wrote (PodGroupScheduled).
struct PodGroupRecord {
  std::string namespace_;
  std::string name;
  std::optional<std::int32_t> min_count;  ///< the gang's; nullopt for a basic policy
  std::vector<Condition> conditions;
};

struct ExpectationResult {
  std::size_t index = 0;
  std::string pointer;  ///< "/expect/<index>"
  std::string at;       ///< "30s" or "end"
  bool ok = false;
  std::string message;  ///< what was checked; on failure expected vs actual
  int line = 0;         ///< the expectation's line in the scenario file, 0 when unknown
};

struct SimulationResult {
  std::string scenario;
  std::string source;
  TimeMs time = 0;                ///< the clock when the run ended
  std::vector<PodRecord> pods;    ///< ordered by namespace, then name
  std::vector<NodeRecord> nodes;  ///< ordered by name
  std::vector<EventRecord> events;
  std::vector<PreemptionRecord> preemptions;
  std::vector<ExpectationResult> expectations;
  bool passed = true;
  std::vector<NodeUsage> usage;                    ///< ordered by node name, then from
  std::vector<JobRecord> jobs;                     ///< ordered by namespace, then name
  std::vector<WorkloadRecord> workloads;           ///< Kueue's, by namespace then name
  std::vector<ClusterQueueRecord> cluster_queues;  ///< by name
  std::vector<PodGroupRecord> pod_groups;          ///< by "namespace/name"
  /// Every ResourceClaim object that exists at the end, by namespace then name.
  std::vector<ResourceClaimRecord> resource_claims;
  /// Every quota wait of every Workload, in the order they began. Not part of the JSON result:
  /// the per-queue metrics (wait percentiles, borrowed GPU-hours) are computed from them.
  std::vector<QuotaSpan> quota_spans;
  /// Kueue's preemptions in the order they were issued. Not part of the JSON result (the
  /// victims' Preempted conditions and events say the same); whatif names an addition's victims.
  std::vector<KueuePreemptionRecord> kueue_preemptions;
  /// "ns/name" of every Kueue LocalQueue at the end of the run, ordered. Not part of the JSON
  /// result: the per-queue metrics list each, waits or not.
  std::vector<std::string> local_queues;
  /// Pod-milliseconds spent unschedulable, by the reason of the scheduling attempt that left the
  /// pod waiting (each "<reason>" of "0/N nodes are available: <count> <reason>, ..."; a pod
  /// rejected for several reasons counts in each). From a failed attempt to the next attempt's
  /// outcome, the pod's bind, deletion or the end of the run.
  std::map<std::string, TimeMs> unschedulable_time;
  std::vector<PoolRecord> pools;               ///< the scenario's node pools, in file order
  std::vector<NodeProvisioning> provisioning;  ///< reserved or provisioned pool nodes, by name
  /// The fleet's GPUs over time, in consecutive buckets from 0 to the end of the run, each
  /// `gpu_bucket_ms` long (the last one shorter): at least a minute, doubled as the run grows
  /// so that there are at most 4,096.
  std::vector<GpuBucket> gpu_series;
  TimeMs gpu_bucket_ms = 0;
  /// What the replay did as Kubernetes does but a reader may not expect, in plain words, each
  /// naming its object (a DaemonSet that matched no node, so ran no pod). Not part of the JSON
  /// result; the CLI prints each as a notice.
  std::vector<std::string> notices;
  /// Every pod instance in creation order: who waited and who held which node and GPUs when
  /// (the HTML report's timelines); empty unless SimulationOptions::record_pod_spans. Not part
  /// of the JSON result.
  std::vector<PodSpan> pod_spans;
  /// Every pod of the replay by its GPU-sharing shape, as FGDScore counted them (its target
  /// workload); empty unless a node has alibabacloud.com GPUs. Not part of the JSON result: the
  /// GPU-sharing fragmentation metrics weigh with it.
  GpuShareShapeCounts pod_shapes;
  /// Every state of every node with alibabacloud.com GPUs over the run, in the order they ended;
  /// not part of the JSON result (the time-weighted GPU-sharing metrics come from them).
  std::vector<GpuShareInterval> gpu_share_intervals;
};

}  // namespace gpusched
