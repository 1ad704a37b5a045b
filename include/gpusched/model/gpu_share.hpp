#pragma once
/// GPU sharing by milli-GPU as Alibaba's clusters and the FGD artifact model it
/// (../shared/reference/fgd-artifact.md §1.1, §2): a node has whole GPUs of one model, each with
/// 1000 milli; a pod asks `gpu_milli` of each of `gpu_count` GPUs (a share of one GPU when
/// gpu_count is 1 and gpu_milli < 1000), optionally of listed models.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gpusched/model/object_meta.hpp"

namespace gpusched {

namespace gpu_share_names {
/// A node's GPUs: allocatable `alibabacloud.com/gpu-count` whole GPUs (and
/// `alibabacloud.com/gpu-milli`, 1000 per GPU, which nothing reads), of the model its label names.
inline constexpr std::string_view kGpuCountResource = "alibabacloud.com/gpu-count";
inline constexpr std::string_view kGpuMilliResource = "alibabacloud.com/gpu-milli";
inline constexpr std::string_view kGpuModelLabel = "alibabacloud.com/gpu-card-model";
/// A pod's request: `gpu-milli` of each of `gpu-count` GPUs, of a `gpu-card-model` (`A|B`).
inline constexpr std::string_view kGpuMilliAnnotation = "alibabacloud.com/gpu-milli";
inline constexpr std::string_view kGpuCountAnnotation = "alibabacloud.com/gpu-count";
inline constexpr std::string_view kGpuModelAnnotation = "alibabacloud.com/gpu-card-model";
/// The GPUs a bound pod holds, `i` or `i-j-k`, written by Open-Gpu-Share at binding.
inline constexpr std::string_view kGpuIndexAnnotation = "alibabacloud.com/gpu-index";
}  // namespace gpu_share_names

/// Milli per GPU, and the most GPUs a node or a pod may have (devices::kMaxGpusPerNode): the
/// bound of a gpu-count and of a gpu-index.
inline constexpr std::int32_t kMilliPerGpu = 1000;
inline constexpr std::int32_t kMaxShareGpus = 1024;

/// What a pod's annotations ask of GPU sharing: nothing when gpu_milli is 0.
struct GpuShareRequest {
  std::int32_t gpu_milli = 0;  ///< per GPU, 1..1000
  std::int32_t gpu_count = 0;  ///< 1 for a share (gpu_milli < 1000)
  std::string gpu_type;        ///< "", "A" or "A|B"
  friend bool operator==(const GpuShareRequest&, const GpuShareRequest&) = default;
};

/// Pods counted by shape: (non-zero CPU request in milli, GPU milli, GPU count, GPU model).
using GpuShareShapeCounts =
    std::map<std::tuple<std::int64_t, std::int32_t, std::int32_t, std::string>, std::int64_t>;

/// The request the annotations make. An inconsistent one (a milli without a count, a count
/// without a milli, a share of several GPUs, values out of range) sets `error` to why, naming
/// the annotation, and asks nothing.
[[nodiscard]] GpuShareRequest gpu_share_request(const Labels& annotations, std::string* error);

/// The GPU indices of a gpu-index annotation value (`2`, `0-1-3`), or nullopt when it is not a
/// dash-separated list of distinct indices below 1024.
[[nodiscard]] std::optional<std::vector<std::int32_t>> parse_gpu_index(std::string_view text);
/// The gpu-index annotation value for `gpus`.
[[nodiscard]] std::string format_gpu_index(const std::vector<std::int32_t>& gpus);

/// A node of a GPU-sharing trace.
struct GpuShareNode {
  std::string name;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int32_t gpus = 0;
  std::string model;  ///< alibabacloud.com/gpu-card-model
};

/// A pod of a GPU-sharing trace (utils.GetPodResource).
struct GpuSharePod {
  std::string name;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int32_t gpu_count = 0;  ///< alibabacloud.com/gpu-count
  std::int32_t gpu_milli = 0;  ///< alibabacloud.com/gpu-milli, per GPU: 0..1000
  std::string gpu_type;        ///< alibabacloud.com/gpu-card-model: "", "A" or "A|B"

  /// MilliGpu x GpuNumber.
  [[nodiscard]] std::int64_t total_gpu_milli() const noexcept {
    return std::int64_t{gpu_milli} * gpu_count;
  }
};

/// A node list and a pod list, each in its file's order.
struct GpuShareTrace {
  std::vector<GpuShareNode> nodes;
  std::vector<GpuSharePod> pods;
  std::string nodes_file;  ///< where they came from, for errors
  std::string pods_file;
};

}  // namespace gpusched
