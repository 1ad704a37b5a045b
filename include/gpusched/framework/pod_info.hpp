#pragma once
/// The scheduler's view of a pod (upstream framework.PodInfo / QueuedPodInfo): the Pod object plus
/// its precomputed request, tolerations, affinity and ports.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/resources.hpp"
#include "gpusched/model/gpu_share.hpp"
#include "gpusched/model/pod.hpp"

namespace gpusched {

/// A selector requirement with interned key and values; Gt/Lt keep their integer bound.
struct RequirementInfo {
  StrId key = 0;
  SelectorOperator op = SelectorOperator::In;
  std::vector<StrId> values;          ///< sorted
  std::optional<std::int64_t> bound;  ///< Gt / Lt
};

struct TermInfo {
  std::vector<RequirementInfo> match_expressions;
  std::vector<RequirementInfo> match_fields;  ///< key is "metadata.name"
};

struct TolerationInfo {
  StrId key = 0;
  TolerationOperator op = TolerationOperator::Equal;
  StrId value = 0;
  std::optional<TaintEffect> effect;

  /// v1.Toleration.ToleratesTaint on interned strings.
  [[nodiscard]] bool tolerates(const TaintInfo& taint) const noexcept {
    if (effect && *effect != taint.effect) return false;
    if (key != 0 && key != taint.key) return false;
    if (op == TolerationOperator::Exists) return true;
    return value == taint.value;
  }
};

/// A pod's GPU sharing (Open-Gpu-Share): its annotations' request, and the GPUs it holds on node
/// `index_node` (its gpu-index annotation on the node it is bound to, or Open-Gpu-Share's choice
/// at Reserve); on any other node, none chosen.
struct PodGpuShare {
  GpuShareRequest request;  ///< gpu_milli 0: none
  std::vector<std::int32_t> index;
  StrId index_node = kNotInterned;
};

struct PodInfo {
  Pod pod;
  std::uint64_t sequence = 0;  ///< creation order, for deterministic ties
  std::int32_t priority = 0;
  /// Non-zero entries of PodRequests, milli-units; one list for a run of pods compiled asking
  /// alike, as request_list (a million pods would otherwise hold a million copies).
  Shared<std::vector<ResAmount>> requests;
  /// PodRequests as the object writes it (formats kept), one list for a run of pods compiled
  /// asking alike (PodRequestsMemo::shared): what a result's records and allocated sums read.
  Shared<ResourceList> request_list;
  std::int64_t nonzero_cpu = 0;     ///< with upstream's 100m default for missing cpu
  std::int64_t nonzero_memory = 0;  ///< with upstream's 200Mi default for missing memory
  // The compiled tolerations, node selector, node affinity and host ports: shared by the pods
  // whose spec shares them (a template's pods), empty ones a null pointer each.
  Shared<std::vector<TolerationInfo>> tolerations;
  Shared<std::vector<std::pair<StrId, StrId>>> node_selector;  ///< spec.nodeSelector
  SharedOptional<std::vector<TermInfo>> required_terms;        ///< required node affinity (ORed)
  Shared<std::vector<std::pair<std::int32_t, TermInfo>>> preferred_terms;
  Shared<std::vector<HostPort>> host_ports;  ///< ports with hostPort > 0
  /// GPU sharing, for the few pods that ask it (a pointer's size on the others: a million-pod
  /// replay holds every PodInfo).
  Shared<PodGpuShare> gpu_share;
  NodeInfo* node = nullptr;           ///< the node it holds, if any

  /// The request for one resource in milli-units (0 when not requested).
  [[nodiscard]] std::int64_t request(ResId id) const noexcept;
};

}  // namespace gpusched
