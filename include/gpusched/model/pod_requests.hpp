#pragma once
/// What a pod asks of a node (k8s.io/component-helpers/resource/helpers.go PodRequests).

#include <cstdint>
#include <optional>
#include <string_view>

#include "gpusched/model/pod.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/shared.hpp"

namespace gpusched {

/// IsSupportedPodLevelResource: cpu, memory and hugepages-* may be given in spec.resources.
[[nodiscard]] bool is_supported_pod_level_resource(std::string_view name) noexcept;

/// AggregateContainerRequests: regular containers summed; init containers in order, a
/// restartable (sidecar) init container added to the sum and to the running sidecar total, a
/// regular one needing its own request plus the sidecars started before it; the max of the two
/// per resource.
[[nodiscard]] ResourceList aggregate_container_requests(const PodSpec& spec);

/// The effective request (PodRequests): the containers' aggregate, each supported resource with
/// a pod-level request (spec.resources) taking that instead, then spec.overhead added.
[[nodiscard]] ResourceList pod_requests(const PodSpec& spec);

/// The parts of a spec pod_requests reads, and nothing else: the containers and init containers
/// (shared, not copied), the pod-level resources and the overhead.
[[nodiscard]] PodSpec request_parts(const PodSpec& spec);

/// Whether two specs ask the same request, format included: their containers' and init
/// containers' requests (shared, as pods from one template share them, or written alike), the
/// init containers' restart policies, the pod-level requests and the overhead. A run of such
/// pods needs pod_requests once.
[[nodiscard]] bool same_requests(const PodSpec& a, const PodSpec& b) noexcept;

/// pod_requests over a run of pods, computed again only for a pod that does not ask what the
/// one before it asked (same_requests). It keeps the parts it read (request_parts), so the
/// pods it was asked about may go.
class PodRequestsMemo {
 public:
  [[nodiscard]] const ResourceList& of(const PodSpec& spec);
  /// The request of() returned last, shared: each one computed is a new list, so the pods of a
  /// run may keep theirs.
  [[nodiscard]] const Shared<ResourceList>& shared() const noexcept { return requests_; }
  /// How many requests of() has computed: a caller deriving more from the request derives it
  /// again when this changes.
  [[nodiscard]] std::uint64_t computed() const noexcept { return computed_; }

 private:
  std::optional<PodSpec> last_;
  Shared<ResourceList> requests_;
  std::uint64_t computed_ = 0;
};

/// Limits aggregated the same way, pod-level limits replacing them (PodLimits), for reports.
[[nodiscard]] ResourceList pod_limits(const PodSpec& spec);

/// Applies SetDefaults_Pod's resource rules: a limit without a request sets the request, per
/// container and init container; then defaultPodRequests for pod-level limits.
void default_requests_from_limits(PodSpec& spec);

}  // namespace gpusched
