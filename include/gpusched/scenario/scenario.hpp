#pragma once
/// A scenario: the cluster at 0s, a timeline of actions and the expectations to check
/// (../docs/scenario-format.md, contract v1).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpusched/config/device_plugin_config.hpp"
#include "gpusched/config/kueue_config.hpp"
#include "gpusched/config/nvidia_dra_driver_config.hpp"
#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/model/object.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/scenario/object_patch.hpp"

namespace gpusched {

enum class Verb { Apply, Delete, Patch, Cordon, Uncordon, Scale, GpuHealth };

/// One timeline entry: `at` and exactly one verb.
struct Action {
  TimeMs at = 0;
  Verb verb = Verb::Apply;
  std::string pointer;  ///< where it is in the file, e.g. "/timeline/3"
  int line = 0;         ///< its line in Scenario::source, for errors found while it runs; 0 unknown
  std::vector<Object> objects;  ///< Apply
  ObjectRef target;             ///< Delete, Patch, Scale, Cordon, Uncordon (kind Node)
  std::optional<std::int64_t> grace_period_seconds;  ///< Delete; default 0
  std::shared_ptr<const ObjectPatch> patch;          ///< Patch
  std::int32_t replicas = 0;                         ///< Scale
  int gpu = 0;          ///< GpuHealth: the GPU's index on target (a Node)
  bool healthy = true;  ///< GpuHealth
};

/// `{"pod": "ns/name", ...}`: fields left empty are not checked.
struct PodExpectation {
  std::string pod;  ///< "ns/name"; a glob ("default/web-*") must match exactly one pod
  std::optional<std::string> phase;                ///< Pending, Running, Succeeded, Failed, Absent
  std::optional<std::optional<std::string>> node;  ///< engaged with nullopt: must be unbound
  std::optional<std::string> reason;
  std::optional<std::string> message;
  std::optional<std::string> message_contains;
  std::optional<std::optional<std::string>> nominated_node;
  std::optional<std::vector<int>> gpus;        ///< indices of the physical GPUs its devices are on
  std::optional<std::string> visible_devices;  ///< NVIDIA_VISIBLE_DEVICES, exactly
  /// Its alibabacloud.com/gpu-index annotation (the shared GPUs it holds), exactly; "" for none.
  std::optional<std::string> gpu_index;
};

/// `{"pods": "ns/prefix*", "phases": {"Running": 1}}`.
struct PodsExpectation {
  std::string pattern;
  std::map<std::string, std::int64_t> phases;
};

/// `{"node": "w1", "capacity": {...}, "allocatable": {...}, "allocated": {...}, "labels": {...}}`.
struct NodeExpectation {
  std::string node;
  ResourceList capacity;
  ResourceList allocatable;
  ResourceList allocated;
  Labels labels;  ///< each must be set to that value (GFD's labels, for instance)
};

/// `{"event": {"reason", "object", "message" | "messageContains", "type"}}`.
struct EventExpectation {
  std::optional<std::string> type;
  std::optional<std::string> reason;
  std::optional<std::string> object;  ///< "ns/name" (a pod) or "Kind/ns/name"; globs allowed
  std::optional<std::string> message;
  std::optional<std::string> message_contains;
};

/// `{"pdb": "ns/name", "disruptionsAllowed": 1, ...}`: a PodDisruptionBudget's status as the
/// disruption controller computes it; fields left out are not checked.
struct PdbExpectation {
  std::string pdb;  ///< "ns/name"
  std::optional<std::int32_t> disruptions_allowed;
  std::optional<std::int32_t> current_healthy;
  std::optional<std::int32_t> desired_healthy;
  std::optional<std::int32_t> expected_pods;
};

/// `{"condition": {"type", "status", "reason", "message" | "messageContains"}}` of a workload or
/// a PodGroup.
struct ConditionExpectation {
  std::string type;
  std::optional<std::string> status;
  std::optional<std::string> reason;
  std::optional<std::string> message;
  std::optional<std::string> message_contains;
};

/// `{"workload": "Job/ns/name" | "ns/name", "admitted": true, "clusterQueue": "cq", "flavors":
/// {"main": {"nvidia.com/gpu": "h100"}}, "condition": {...}}`: a Kueue Workload, named by its
/// owner or by its own name; fields left out are not checked.
struct WorkloadExpectation {
  std::string workload;
  std::optional<bool> admitted;
  std::optional<bool> finished;
  std::optional<std::string> cluster_queue;
  std::optional<std::map<std::string, std::map<std::string, std::string>>> flavors;
  std::optional<ConditionExpectation> condition;
};

/// `{"clusterQueue": "name", "usage": {"h100": {"nvidia.com/gpu": "8"}}, "pendingWorkloads": 1,
/// "admittedWorkloads": 2, "reservingWorkloads": 2, "weightedShare": 84}`: fields left out are
/// not checked; usage only for the flavors and resources given.
struct ClusterQueueExpectation {
  std::string cluster_queue;
  std::map<std::string, ResourceList> usage;
  std::optional<std::int32_t> pending_workloads;
  std::optional<std::int32_t> admitted_workloads;
  std::optional<std::int32_t> reserving_workloads;
  std::optional<std::int64_t> weighted_share;  ///< status.fairSharing.weightedShare
};

/// `{"podGroup": "ns/name", "condition": {...}}`: a scheduling.k8s.io PodGroup (Kubernetes 1.36)
/// exists, with the condition when one is given (PodGroupScheduled).
struct PodGroupExpectation {
  std::string pod_group;
  std::optional<ConditionExpectation> condition;
};

/// One device of a claim's allocation as an expectation names it; empty fields are not
/// compared.
struct ClaimDeviceExpectation {
  std::string request;
  std::string driver;
  std::string pool;
  std::string device;
};

/// `{"claim": "ns/name" or "Pod/ns/name", "allocated", "node", "devices", "reservedFor"}`: a
/// ResourceClaim exists (by name, or the one claim of a pod), with each field given.
struct ClaimExpectation {
  std::string claim;
  std::optional<bool> allocated;
  std::optional<std::string> node;                             ///< "" expects none
  std::optional<std::vector<ClaimDeviceExpectation>> devices;  ///< in allocation order
  std::optional<std::vector<std::string>> reserved_for;        ///< "Pod/ns/name", in order
};

struct Expectation {
  std::optional<TimeMs> at;  ///< nullopt: "end"
  std::string pointer;       ///< e.g. "/expect/2"
  std::variant<PodExpectation, PodsExpectation, NodeExpectation, EventExpectation, PdbExpectation,
               WorkloadExpectation, ClusterQueueExpectation, PodGroupExpectation, ClaimExpectation>
      check;
  int line = 0;  ///< 1-based line in its file; 0 when unknown (built in code)
};

/// Nodes made from one template: `count` nodes named `<name>-0` ... `<name>-<count-1>`, each
/// labelled gpusched.io/node-pool=<name>, in the cluster from 0s before the `cluster` objects.
/// A planner changes `count` and replays.
struct NodePool {
  std::string name;  ///< the template's metadata.name
  std::int32_t count = 0;
  Node node;            ///< the template
  std::string pointer;  ///< where it was read, for messages
  /// `pricePerGpuHour`, in millionths: what a GPU-hour paid in this pool costs (0: not given).
  std::int64_t price_micros_per_gpu_hour = 0;
  /// `reservation` (layer 1, capacity supply): the pool's nodes are paid from `start` to `end`,
  /// launched at `start` and removed at `end`.
  struct Reservation {
    TimeMs start = 0;
    std::optional<TimeMs> end;  ///< nullopt: to the end of the run
  };
  std::optional<Reservation> reservation;
  /// `provisioning` (layer 2): each node registers NotReady `launch_delay` after its launch is
  /// asked for, becomes Ready `boot_delay` later, and gets its GPUs advertised by the device
  /// plugin `driver_delay` after that. A launch fails with `launch_failure_ppm` / 1,000,000
  /// probability (drawn from the run's seeded random source) and is asked for again, at most
  /// `launch_attempts` times in all.
  struct Provisioning {
    TimeMs launch_delay = 0;
    TimeMs boot_delay = 0;
    TimeMs driver_delay = 0;
    std::int64_t launch_failure_ppm = 0;
    std::int32_t launch_attempts = 3;
  };
  std::optional<Provisioning> provisioning;
  /// `autoscaling` (`minCount`, `maxCount`): the cluster autoscaler resizes the pool between
  /// them, starting from `count`; new nodes are launched as `provisioning` says.
  struct Autoscaling {
    std::int32_t min = 0;
    std::int32_t max = 0;
  };
  std::optional<Autoscaling> autoscaling;
  /// True when its nodes are not simply there from 0s: reserved, provisioned or autoscaled.
  [[nodiscard]] bool staged() const noexcept { return reservation || provisioning || autoscaling; }
  /// The most nodes it can have: maxCount when autoscaled, else count.
  [[nodiscard]] std::int32_t max_count() const noexcept {
    return autoscaling ? autoscaling->max : count;
  }
};

/// `clusterAutoscaler`: the cluster-autoscaler's flags that the model uses, with upstream's
/// defaults (cluster-autoscaler/config/flags.go).
struct ClusterAutoscalerSettings {
  TimeMs scan_interval = 10'000;                    ///< --scan-interval
  TimeMs new_pod_scale_up_delay = 0;                ///< --new-pod-scale-up-delay
  TimeMs scale_down_unneeded_time = 10 * 60'000;    ///< --scale-down-unneeded-time
  TimeMs scale_down_delay_after_add = 10 * 60'000;  ///< --scale-down-delay-after-add
  bool scale_down_enabled = true;                   ///< --scale-down-enabled
  friend bool operator==(const ClusterAutoscalerSettings&,
                         const ClusterAutoscalerSettings&) = default;
};

/// The most nodes all pools of a scenario may hold together.
inline constexpr std::int64_t kMaxPoolNodes = 100'000;

/// The name of a pool's `index`-th node.
[[nodiscard]] std::string pool_node_name(const NodePool& pool, std::int32_t index);

/// The scenario format a scenario file may name in its top-level `apiVersion` (docs/versioning.md).
/// A file without one is read as this version.
inline constexpr std::string_view kScenarioApiVersion = "gpusched.io/v1";

struct Scenario {
  std::string name;
  std::string description;
  std::string source;  ///< file it was read from, for messages
  /// The files its `include` named (a directory's files one by one), in include order: inputs a
  /// command must not overwrite with a report.
  std::vector<std::string> included;
  SchedulerConfig scheduler;
  /// `devicePlugin` and `migConfigs`: what the GPU Operator deploys (scenario-format.md §3).
  devices::DevicePluginSettings device_plugin;
  /// `nvidiaDraDriver`: how NVIDIA's DRA driver is deployed, for the nodes it serves
  /// (scenario-format.md §3).
  devices::NvidiaDraDriverConfig nvidia_dra_driver;
  std::vector<NodePool> node_pools;              ///< `nodePools`
  ClusterAutoscalerSettings cluster_autoscaler;  ///< `clusterAutoscaler`
  /// `kueue.configuration`; Kueue runs when this is given or any kueue.x-k8s.io object is.
  std::optional<KueueConfiguration> kueue;
  std::vector<Object> cluster;
  std::vector<std::string> cluster_pointers;  ///< "/cluster/<i>" for each object
  std::vector<Action> timeline;
  std::vector<Expectation> expect;
  std::optional<TimeMs> until;
  /// `startTime`: the wall-clock instant (Unix milliseconds) virtual 0 stands for; with it the
  /// cluster objects' creationTimestamp, deletionTimestamp and startTime are read.
  std::optional<std::int64_t> start_time;
  /// What the loader ignored that a careful user may want to know: each field of a Kubernetes
  /// object that its API type does not have, as `file:line: pointer: unknown field "x"`, in the
  /// order the loader meets them; `--strict` prints them.
  std::vector<std::string> warnings;
  /// What the loader left out that a user must know, printed on every load: one line per kind
  /// of object skipped (it cannot change where pods run) or ignored (it would, but gpusched
  /// does not model it; `--strict` refuses those instead), and per such field of a modelled
  /// object, each as `file:line: pointer: ...` at the first one (scenario-format.md §5), and each
  /// feature gate set to a value whose behaviour gpusched does not model.
  std::vector<std::string> notes;
};

}  // namespace gpusched
