#pragma once
// The StatefulSet controller (pkg/controller/statefulset: stateful_set_control.go,
// stateful_set_utils.go, stateful_pod_control.go).

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/controller.hpp"

namespace gpusched::sim {

/// apps.StatefulSetPodNameLabel: the pod's own name, for a Service that selects one replica.
inline constexpr std::string_view kStatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name";
/// apps.PodIndexLabel: the pod's ordinal (the PodIndexLabel gate is on in every release gpusched
/// mirrors).
inline constexpr std::string_view kPodIndexLabel = "apps.kubernetes.io/pod-index";

class StatefulSetController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "StatefulSet"; }
  void sync(const std::string& key) override;
  void sync_all() override;
  /// updatePod: a pod that turns Running and Ready lets OrderedReady go on to the next ordinal.
  void pod_started(const PodInfo& pod) override;

 private:
  /// One updateStatefulSet; true when it deleted a pod, which enqueues the set again
  /// (deletePod).
  bool sync_once(const std::string& key);
  /// CreateStatefulPod of `ordinal`; nothing when a pod of its name exists that is not the
  /// set's (the API server's AlreadyExists, which upstream sinks without an event).
  void create(const StatefulSet& set, const std::string& key, std::int64_t ordinal);
  /// DeleteStatefulPod, with the pod's own grace period.
  void remove(const std::string& key, PodInfo& pod);

  bool syncing_ = false;  ///< within sync(): a pod it creates bound must not sync it again
};

}  // namespace gpusched::sim
