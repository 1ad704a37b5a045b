#pragma once
// The API server of the replay: the objects' store and what it decides on create and update
// (uids, creation times, generated names, PriorityClass validation). Nodes, pods and namespaces
// are kept in the ClusterState it shares with the scheduler (whose cache they are, as the
// informers' would be); the workload and policy objects are kept here.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/pod_index.hpp"
#include "gpusched/model/kueue.hpp"
#include "gpusched/model/object.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched::sim {

/// A Job with its status.
struct JobState {
  Job job;
  std::int32_t succeeded = 0;
  bool complete = false;
  bool failed = false;          ///< BackoffLimitExceeded
  std::optional<TimeMs> ended;  ///< when it completed or failed
  /// status.startTime: set when the Job first runs unsuspended, reset when it is resumed.
  std::optional<TimeMs> start_time;
  /// The JobSuspended condition: nullopt before the Job is first suspended, then true
  /// (JobSuspended) or false (JobResumed).
  std::optional<bool> suspended_condition;
};

/// A DaemonSet with the generation of its template.
struct DaemonSetState {
  DaemonSet ds;
  /// spec.templateGeneration: 1 on create, raised by the API server when the template changes.
  std::int64_t template_generation = 1;
  /// Whether some node has admitted its pod (status.desiredNumberScheduled above 0) in the run.
  bool matched_a_node = false;
};

/// Kueue's objects (kueue.x-k8s.io) as applied: cluster-scoped ones by name, LocalQueues and
/// Workloads by "ns/name". The Kueue component reads them.
struct KueueStores {
  std::map<std::string, kueue::ResourceFlavor> resource_flavors;
  std::map<std::string, kueue::ClusterQueue> cluster_queues;
  std::map<std::string, kueue::LocalQueue> local_queues;
  std::map<std::string, kueue::Cohort> cohorts;
  std::map<std::string, kueue::WorkloadPriorityClass> workload_priority_classes;
  std::map<std::string, kueue::AdmissionCheck> admission_checks;
  std::map<std::string, kueue::ProvisioningRequestConfig> provisioning_request_configs;
  std::map<std::string, kueue::Workload> workloads;
  /// The ProvisioningRequests (autoscaling.x-k8s.io/v1) Kueue's ProvisioningRequest admission
  /// checks created, by "ns/name"; the cluster autoscaler writes their conditions.
  std::map<std::string, kueue::ProvisioningRequest> provisioning_requests;
  /// Raised by each apply or delete of one of these objects by the scenario (not by Kueue's own
  /// changes): the Kueue component then reconciles every Job and Workload again.
  std::uint64_t scenario_changes = 0;

  /// Whether T is one of Kueue's kinds.
  template <typename T>
  static constexpr bool kHolds =
      std::is_same_v<T, kueue::ResourceFlavor> || std::is_same_v<T, kueue::ClusterQueue> ||
      std::is_same_v<T, kueue::LocalQueue> || std::is_same_v<T, kueue::Cohort> ||
      std::is_same_v<T, kueue::WorkloadPriorityClass> || std::is_same_v<T, kueue::AdmissionCheck> ||
      std::is_same_v<T, kueue::ProvisioningRequestConfig> || std::is_same_v<T, kueue::Workload>;

  /// The store of kind T.
  template <typename T>
  requires kHolds<T>
  [[nodiscard]] std::map<std::string, T>& of() noexcept {
    if constexpr (std::is_same_v<T, kueue::ResourceFlavor>) {
      return resource_flavors;
    } else if constexpr (std::is_same_v<T, kueue::ClusterQueue>) {
      return cluster_queues;
    } else if constexpr (std::is_same_v<T, kueue::LocalQueue>) {
      return local_queues;
    } else if constexpr (std::is_same_v<T, kueue::Cohort>) {
      return cohorts;
    } else if constexpr (std::is_same_v<T, kueue::WorkloadPriorityClass>) {
      return workload_priority_classes;
    } else if constexpr (std::is_same_v<T, kueue::AdmissionCheck>) {
      return admission_checks;
    } else if constexpr (std::is_same_v<T, kueue::ProvisioningRequestConfig>) {
      return provisioning_request_configs;
    } else {
      return workloads;
    }
  }

  /// Calls `f` with the store of `kind` (a Kueue kind name); false when there is none.
  template <typename F>
  bool visit(std::string_view kind, F&& f) {
    return visit_in(*this, kind, f);
  }
  template <typename F>
  bool visit(std::string_view kind, F&& f) const {
    return visit_in(*this, kind, f);
  }

 private:
  template <typename Self, typename F>
  static bool visit_in(Self& self, std::string_view kind, F& f) {
    if (kind == "ResourceFlavor") return f(self.resource_flavors), true;
    if (kind == "ClusterQueue") return f(self.cluster_queues), true;
    if (kind == "LocalQueue") return f(self.local_queues), true;
    if (kind == "Cohort") return f(self.cohorts), true;
    if (kind == "WorkloadPriorityClass") return f(self.workload_priority_classes), true;
    if (kind == "AdmissionCheck") return f(self.admission_checks), true;
    if (kind == "ProvisioningRequestConfig") return f(self.provisioning_request_configs), true;
    if (kind == "Workload") return f(self.workloads), true;
    return false;
  }
};

/// The key of an object in its store: "ns/name", or the name of a cluster-scoped object.
[[nodiscard]] std::string store_key(const ObjectRef& ref);
/// "ns/name" of a namespaced object.
[[nodiscard]] std::string key_of(const ObjectMeta& meta);

class ApiServer {
 public:
  ApiServer(ClusterState& cluster, const TimeMs& now) : cluster_(cluster), now_(now) {}

  [[nodiscard]] ClusterState& cluster() noexcept { return cluster_; }
  [[nodiscard]] const ClusterState& cluster() const noexcept { return cluster_; }

  /// Deterministic and UUID-shaped: one counter for every object, in creation order.
  [[nodiscard]] std::string new_uid();
  /// Gives an applied object its identity: the existing object's uid and creation time when it
  /// replaces one, new ones otherwise; an object of the starting cluster keeps the uid it
  /// carries, so that the pods whose ownerReferences name it stay its own.
  void stamp(ObjectMeta& meta, const ObjectMeta* existing);
  /// While the starting cluster is applied, objects keep the times they carry.
  void set_loading(bool loading) noexcept { loading_ = loading; }
  [[nodiscard]] bool loading() const noexcept { return loading_; }

  /// A name for a pod `owner` creates, as generateName "<owner>-" names it (names.hpp): unlike
  /// any pod so far, live or gone.
  [[nodiscard]] std::string generate_pod_name(const ObjectMeta& owner);
  /// The pods whose controller reference is the object `uid` (what its controller manages and
  /// the garbage collector deletes with it), in "namespace/name" order: an index kept by
  /// pod_added and pod_removed (a pod's ownerReferences never change after its create), as the
  /// controllers' informers index pods by their controller (controller_utils).
  [[nodiscard]] std::vector<PodInfo*> owned_pods(const std::string& uid) const;
  /// A pod joined the store (ClusterState::add_pod): owned_pods indexes it, and its Job hears
  /// of it (pod_changed).
  void pod_added(PodInfo& pod);
  /// A pod is about to leave the store: its name stays taken for generated names, owned_pods
  /// forgets it, and its Job hears of it (pod_changed).
  void pod_removed(const PodInfo& pod);
  /// What a Job's sync reads of a pod changed (created, removed, ended, being deleted): the Job
  /// controller's next sync_all syncs its Job, as the pod informer's event would enqueue it
  /// (job_controller.go updatePod / resolveControllerRef), and Kueue looks at the Job again.
  void pod_changed(const PodInfo& pod);
  /// A pod started running (Ready: no readiness probes): its Job's status.ready changed, which
  /// Kueue's Job reconciler watches (job_changed); the Job controller's sync does not read it.
  void pod_started(const PodInfo& pod);
  /// The "ns/name" of the Jobs whose pods changed since the last call, emptied.
  [[nodiscard]] std::set<std::string> take_jobs_with_changed_pods();
  /// A Job was applied, completed, failed or deleted: Kueue's Job reconciler looks at it at its
  /// next run, as the Job informer's event would enqueue it (jobframework's reconciler).
  void job_changed(const std::string& key) { changed_jobs_.insert(key); }
  /// The "ns/name" of the Jobs changed since the last call, emptied.
  [[nodiscard]] std::set<std::string> take_changed_jobs();
  /// The pods were handed over to the result (ClusterState::drain_pods): the index is emptied.
  void pods_drained() noexcept { owned_.clear(); }
  /// InternalError unless owned_pods answers for every pod of `cluster` what a scan of every pod
  /// would (for the invariant checks).
  void check_owned_index() const;

  /// Applies a PriorityClass (ValidatePriorityClass and its update rules). Returns the error
  /// message when the API server refuses it.
  [[nodiscard]] std::optional<std::string> apply_priority_class(PriorityClass pc);

  /// The object `ref` names as the store holds it, if any (a Node or Pod: as ClusterState
  /// holds it).
  [[nodiscard]] std::optional<Object> find(const ObjectRef& ref) const;

  // The stores, by "ns/name".
  std::map<std::string, Deployment> deployments;
  std::map<std::string, ReplicaSet> replicasets;
  std::map<std::string, JobState> jobs;
  std::map<std::string, DaemonSetState> daemonsets;
  std::map<std::string, StatefulSet> statefulsets;
  std::map<std::string, Service> services;
  std::map<std::string, PodDisruptionBudget> budgets;
  std::vector<PriorityClass> priority_classes;  ///< in creation order
  KueueStores kueue;

 private:
  ClusterState& cluster_;
  const TimeMs& now_;
  bool loading_ = false;
  std::uint64_t uid_counter_ = 0;
  // Hashed: looked up for every generated pod name, never listed.
  std::unordered_map<std::string, std::uint64_t> name_counters_;  // generateName counters per owner
  std::unordered_set<std::string> removed_pod_keys_;  // "ns/name" of pods gone; with the live
                                                      // ones, every name used so far
  // controller uid -> its pods in key order, for owned_pods
  std::unordered_map<std::string, PodsByKey> owned_;
  std::set<std::string> jobs_with_changed_pods_;  // "ns/name"
  std::set<std::string> changed_jobs_;            // "ns/name"
};

}  // namespace gpusched::sim
