#pragma once
// kube-controller-manager's controllers as components of the replay. Each reconciles the objects
// of one kind towards their spec, reacting at once, through a ControllerContext: the API
// server's store, the pod verbs, the event recorder and the clock. A new controller is a class
// in a file of its own and one line in Simulation's list (Simulation::Simulation).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/framework/pod_info.hpp"
#include "gpusched/model/object.hpp"
#include "gpusched/model/time.hpp"
#include "sim/api_server.hpp"
#include "sim/event_queue.hpp"

namespace gpusched::sim {

class ControllerManager;

/// What a controller may use of the rest of the cluster.
class ControllerContext {
 public:
  virtual ~ControllerContext() = default;
  [[nodiscard]] virtual TimeMs now() const = 0;
  [[nodiscard]] virtual ApiServer& api() = 0;
  /// The other controllers (a Deployment syncs the ReplicaSets it scales).
  [[nodiscard]] virtual ControllerManager& controllers() = 0;
  /// The delaying work queues: a sync of a key later (EventQueue's ControllerSync).
  [[nodiscard]] virtual EventQueue& clock() = 0;
  /// Creates a pod through the API server (admission included); `generate_name` is the prefix
  /// the name was generated from.
  virtual PodInfo& create_pod(Pod pod, const std::string& generate_name) = 0;
  /// Deletes a pod: at once when it holds no node, else gracefully.
  virtual void delete_pod(PodInfo& pod, std::int64_t grace_seconds) = 0;
  /// Updates a pod through the API server (Kueue's ungating of the pods it admits): the
  /// scheduler's queue hears of it.
  virtual void update_pod(PodInfo& pod, Pod updated) = 0;
  /// When the pod instance ended (Succeeded, Failed or deleted), if it has.
  [[nodiscard]] virtual std::optional<TimeMs> finished(const PodInfo& pod) = 0;
  /// An Event from a controller through its own event broadcaster `source` ("job-controller":
  /// each controller of kube-controller-manager has one), with its correlation.
  virtual void record_event(std::string_view source, const std::string& object,
                            std::string_view type, std::string_view reason,
                            std::string message) = 0;
  /// An Event through events.k8s.io/v1 (Kueue's recorders): repeats counted, never combined
  /// or dropped.
  virtual void record_series_event(const std::string& object, std::string_view type,
                                   std::string_view reason, std::string message) = 0;
  /// The cluster autoscaler runs at its next tick (a ProvisioningRequest was created); false when
  /// no cluster autoscaler runs (no node pool autoscales).
  virtual bool wake_autoscaler() = 0;
};

class Controller {
 public:
  explicit Controller(ControllerContext& context) : context_(context) {}
  virtual ~Controller() = default;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  /// The kind of object it controls ("ReplicaSet").
  [[nodiscard]] virtual std::string_view kind() const = 0;
  /// Reconciles the object "ns/name"; nothing when it is gone.
  virtual void sync(const std::string& key) = 0;
  /// Reconciles every object of its kind, in key order: after a change to pods or nodes that
  /// any of them may be waiting for.
  virtual void sync_all() = 0;
  /// A node was added or changed (its labels, taints, conditions).
  virtual void node_changed() {}
  /// A pod started running (bound and admitted by its kubelet; gpusched has no readiness
  /// probes, so it is Ready too).
  virtual void pod_started(const PodInfo& /*pod*/) {}
  /// controller.FilterActivePods: not terminating, not Succeeded or Failed.
  [[nodiscard]] static bool active(const PodInfo& pod);

 protected:
  /// The pods the object `uid` controls.
  [[nodiscard]] std::vector<PodInfo*> owned_pods(const std::string& uid) const {
    return context_.api().owned_pods(uid);
  }
  /// controller.GetPodFromTemplate: a pod from the template, controlled by the owner that
  /// `owned_by` references and named by the API server from "<owner>-". It shares the template's
  /// labels and containers, and `owned_by`, until written.
  [[nodiscard]] Pod controlled_pod(const PodTemplateSpec& tmpl, const ObjectMeta& owner,
                                   const Shared<std::vector<OwnerReference>>& owned_by);
  /// The same, named `name` by the controller itself (a StatefulSet's `<name>-<ordinal>`).
  [[nodiscard]] static Pod controlled_pod(const PodTemplateSpec& tmpl, const ObjectMeta& owner,
                                          const Shared<std::vector<OwnerReference>>& owned_by,
                                          std::string name);
  /// The controller reference to `owner`, a `kind`, for the pods it creates.
  [[nodiscard]] static Shared<std::vector<OwnerReference>> controller_reference(
      const ObjectMeta& owner, std::string_view kind);
  /// Syncs every key of `store` (the keys taken first: a sync may add to the store).
  template <typename Store>
  void sync_keys(const Store& store) {
    std::vector<std::string> keys;
    keys.reserve(store.size());
    for (const auto& entry : store) keys.push_back(entry.first);
    for (const std::string& key : keys) sync(key);
  }
  /// The delaying work queue's AddAfter: syncs `key` again at `at`; it keeps one wait per key,
  /// the earliest.
  void sync_at(const std::string& key, TimeMs at);

  ControllerContext& context_;
};

/// The controllers of the replay, in the order they run after a change.
class ControllerManager {
 public:
  void add(std::unique_ptr<Controller> controller) {
    controllers_.push_back(std::move(controller));
  }
  /// The controller of `kind`, or nullptr.
  [[nodiscard]] Controller* find(std::string_view kind) const;
  /// Syncs `key` with the controller of `kind`.
  void sync(std::string_view kind, const std::string& key);
  /// Every controller syncs every object, in registration order.
  void sync_all();
  /// Tells every controller that a node was added or changed.
  void node_changed();
  /// Tells every controller that a pod started running.
  void pod_started(const PodInfo& pod);

 private:
  std::vector<std::unique_ptr<Controller>> controllers_;
};

}  // namespace gpusched::sim
