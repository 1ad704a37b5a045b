#pragma once
/// GPU sharing by milli-GPU as Alibaba's clusters and the FGD artifact model it
/// (../shared/reference/fgd-artifact.md §1.1, §2): a node has whole GPUs of one model, each with
/// 1000 milli; a pod asks `gpu_milli` of each of `gpu_count` GPUs (a share of one GPU when
/// gpu_count is 1 and gpu_milli < 1000), optionally of listed models.

#include <cstdint>
#include <string>
#include <vector>

namespace gpusched {

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
