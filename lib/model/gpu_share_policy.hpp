#pragma once
/// The FGD artifact's GPU-sharing arithmetic (hkust-adsl/kubernetes-scheduler-simulator at
/// 8f3d641; ../shared/reference/fgd-artifact.md §2-§4 is the specification): the feasibility
/// test, the GPU chosen within a node, the five deterministic scores and the fragmentation
/// bins. The experiment (plan/fragmentation) and the score plugins (plugins/*_score) both use
/// it, so that a policy in a scenario scores exactly as in the experiment.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/gpu_share.hpp"

namespace gpusched::gpu_share {

// pkg/type/open-gpu-share/utils/const.go.
inline constexpr std::int64_t kMaxSpecCpu = 128000;
inline constexpr std::int64_t kMaxSpecGpu = 8000;
inline constexpr std::int64_t kMaxNodeScore = 100;

/// What a pod asks (utils.GetPodResource): CPU (the non-zero request), `gpu_milli` of each of
/// `gpu_count` GPUs, of a model `gpu_type` accepts.
struct Shape {
  std::int64_t cpu_milli = 0;
  std::int32_t gpu_milli = 0;
  std::int32_t gpu_count = 0;
  std::string_view gpu_type;

  /// A share of one GPU (the artifact's "share-gpu" pod).
  [[nodiscard]] bool is_share() const noexcept {
    return gpu_count == 1 && gpu_milli < kMilliPerGpu;
  }
  /// MilliGpu x GpuNumber.
  [[nodiscard]] std::int64_t total_gpu_milli() const noexcept {
    return std::int64_t{gpu_milli} * gpu_count;
  }
};

/// A node as utils.GetNodeResourceViaNodeInfo sees it: CPU left, free milli per GPU in index
/// order, the GPU model label.
struct NodeView {
  std::int64_t cpu_left = 0;
  std::span<const std::int32_t> free;
  std::string_view model;

  [[nodiscard]] std::int64_t free_milli() const noexcept;
  [[nodiscard]] std::int32_t fully_free() const noexcept;
};

/// utils.IsNodeAccessibleToPodByType: any model when `type` is empty, else one of `A|B` exactly.
[[nodiscard]] bool type_accepts(std::string_view type, std::string_view model) noexcept;

/// Open-Gpu-Share's Filter past the model test (AllocateGpuId): a GPU takes a slot per
/// gpu_milli it has free; the pod needs gpu_count slots.
[[nodiscard]] bool gpus_fit(std::span<const std::int32_t> free, const Shape& pod) noexcept;

/// The GPUs a pod takes on a node that fits it (Reserve, §2.4, §3.7): whole GPUs the first
/// fully free ones in index order; a share `chosen` when a policy chose one (FGD, Random), else
/// the GPU with the least free milli that holds it, the lowest index on a tie.
[[nodiscard]] std::vector<std::int32_t> take_gpus(std::span<const std::int32_t> free,
                                                  const Shape& pod, int chosen = -1);

/// §3.5 getBestFitScore, raw (its min-max normalization keeps the raw order).
[[nodiscard]] std::int64_t best_fit_score(const NodeView& node, const Shape& pod) noexcept;
/// §3.2 calculateDotProductScore, dimExt merge, norm max.
[[nodiscard]] std::int64_t dot_product_score(const NodeView& node, const Shape& pod) noexcept;
/// §3.4 getPackingScore.
[[nodiscard]] std::int64_t packing_score(const NodeView& node, const Shape& pod);

/// The tag GpuClustering groups GPU pods by: 0 for a share, n for n whole GPUs.
[[nodiscard]] std::int32_t clustering_tag(const Shape& pod) noexcept;
/// §3.3 GpuClustering: `has_tag` whether the node holds a GPU pod of this pod's tag,
/// `tags` how many distinct tags its GPU pods have.
[[nodiscard]] std::int64_t clustering_score(const NodeView& node, const Shape& pod, bool has_tag,
                                            std::size_t tags) noexcept;

/// A group of the target workload (§3.6): the pods of one shape and their share.
struct TypicalPod {
  std::int64_t cpu_milli = 0;
  std::int32_t gpu_milli = 0;
  std::int32_t gpu_count = 0;
  std::string gpu_type;
  double share = 0;
};

using ShapeCounts = GpuShareShapeCounts;

/// GetTypicalPods: the shapes, the most common first (ties: the larger shape, field by field),
/// until they cover 95 % of the pods; each group's share renormalized over those taken.
[[nodiscard]] std::vector<TypicalPod> typical_pods(const ShapeCounts& counts);

/// NodeGpuShareFragAmount's bins, in FragRatioDataMap's order.
enum Bin : std::size_t {
  kLackBoth,
  kLackGpu,
  kSatisfied,
  kLackCpu,
  kCpuSatisfied,
  kCpuLacking,
  kNoAccess
};
using Bins = std::array<double, 7>;

/// NodeGpuShareFragAmount (§3.6): per typical pod, the node's free GPU milli it could not use
/// (or could, in kSatisfied), weighted by its share, in the bin that says why.
[[nodiscard]] Bins fragment_bins(const NodeView& node, const std::vector<TypicalPod>& typical);
/// FragAmountSumExceptQ3: every bin but kSatisfied, in bin order.
[[nodiscard]] double frag_amount(const Bins& bins) noexcept;

/// calculateGpuShareFragExtendScore: the node's FGD score for the pod, `before` being the
/// node's fragmentation now, and for a share the GPU it takes (the first reaching the highest
/// score); -1 otherwise.
struct FgdChoice {
  std::int64_t score = 0;
  int device = -1;
};
[[nodiscard]] FgdChoice fgd(const NodeView& node, const Shape& pod,
                            const std::vector<TypicalPod>& typical, double before);

/// Random's Reserve: reservoir sampling over the GPUs that hold the share, one draw per such GPU
/// from `intn` (Go's rand.Intn(c)).
template <class Intn>
[[nodiscard]] int random_share_gpu(std::span<const std::int32_t> free, const Shape& pod,
                                   Intn&& intn) {
  int device = -1;
  std::int32_t seen = 0;
  for (std::size_t d = 0; d < free.size(); ++d) {
    if (free[d] < pod.gpu_milli) continue;
    if (intn(++seen) == 0) device = static_cast<int>(d);
  }
  return device;
}

}  // namespace gpusched::gpu_share
