// The FGD artifact's GPU-sharing arithmetic (../shared/reference/fgd-artifact.md; section numbers
// below are that document's).

#include "model/gpu_share_policy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpusched::gpu_share {
namespace {

// typicalPodsConfig: podPopularityThreshold 95, podIncreaseStep 1.
constexpr double kPopularityThreshold = 95;

/// SortedMilliGpuLeftIndexList(true): GPU indices, the least free first, stable.
std::vector<std::size_t> least_free_first(std::span<const std::int32_t> free) {
  std::vector<std::size_t> order(free.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return free[a] < free[b]; });
  return order;
}

/// NodeGpuShareFragAmountScore.
double fragmentation(const NodeView& node, const std::vector<TypicalPod>& typical) {
  return frag_amount(fragment_bins(node, typical));
}

/// The score for a fragmentation change: int64(sigmoid(Δ/1000) × 100).
std::int64_t fgd_score(double before, double after) {
  const double delta = (before - after) / 1000;
  return static_cast<std::int64_t>(1.0 / (1 + std::exp(-delta)) *
                                   static_cast<double>(kMaxNodeScore));
}

}  // namespace

std::int64_t NodeView::free_milli() const noexcept {
  return std::accumulate(free.begin(), free.end(), std::int64_t{0});
}

std::int32_t NodeView::fully_free() const noexcept {
  return static_cast<std::int32_t>(std::count(free.begin(), free.end(), kMilliPerGpu));
}

bool type_accepts(std::string_view type, std::string_view model) noexcept {
  if (type.empty()) return true;
  for (;;) {
    const std::size_t bar = type.find('|');
    if (type.substr(0, bar) == model) return true;
    if (bar == std::string_view::npos) return false;
    type.remove_prefix(bar + 1);
  }
}

bool gpus_fit(std::span<const std::int32_t> free, const Shape& pod) noexcept {
  if (pod.gpu_milli <= 0) return true;
  std::int64_t slots = 0;
  for (const std::int32_t f : free) {
    if (f > 0) slots += f / pod.gpu_milli;
  }
  return slots >= pod.gpu_count;
}

std::vector<std::int32_t> take_gpus(std::span<const std::int32_t> free, const Shape& pod,
                                    int chosen) {
  std::vector<std::int32_t> out;
  if (pod.gpu_milli <= 0) return out;
  if (!pod.is_share()) {
    // simontype.AllocateExclusiveGpuId.
    for (std::size_t d = 0; d < free.size() && std::ssize(out) < pod.gpu_count; ++d) {
      if (free[d] == kMilliPerGpu) out.push_back(static_cast<std::int32_t>(d));
    }
    return out;
  }
  if (chosen >= 0) return {chosen};
  // allocateGpuIdBasedOnBestFit.
  int best = -1;
  for (std::size_t d = 0; d < free.size(); ++d) {
    if (free[d] >= pod.gpu_milli && (best < 0 || free[d] < free[static_cast<std::size_t>(best)]))
      best = static_cast<int>(d);
  }
  if (best >= 0) out.push_back(best);
  return out;
}

std::int64_t best_fit_score(const NodeView& node, const Shape& pod) noexcept {
  const double free[2] = {static_cast<double>(node.cpu_left),
                          static_cast<double>(node.free_milli())};
  const double req[2] = {static_cast<double>(pod.cpu_milli),
                         static_cast<double>(pod.total_gpu_milli())};
  const double max_spec[2] = {static_cast<double>(kMaxSpecCpu), static_cast<double>(kMaxSpecGpu)};
  double score = 0;
  for (int i = 0; i < 2; ++i) score += (free[i] - req[i]) / max_spec[i] * 0.5;
  score = (1.0 - score) * static_cast<double>(kMaxNodeScore);
  return static_cast<std::int64_t>(score);
}

std::int64_t dot_product_score(const NodeView& node, const Shape& pod) noexcept {
  const double node_vec[2] = {
      static_cast<double>(node.cpu_left) / static_cast<double>(kMaxSpecCpu),
      static_cast<double>(node.free_milli()) / static_cast<double>(kMaxSpecGpu)};
  const double pod_vec[2] = {
      static_cast<double>(pod.cpu_milli) / static_cast<double>(kMaxSpecCpu),
      static_cast<double>(pod.total_gpu_milli()) / static_cast<double>(kMaxSpecGpu)};
  double score = 0;
  for (int i = 0; i < 2; ++i) score += node_vec[i] * pod_vec[i];
  score /= 2;
  score = 1 - score;
  return static_cast<std::int64_t>(static_cast<double>(kMaxNodeScore) * score);
}

std::int64_t packing_score(const NodeView& node, const Shape& pod) {
  if (pod.gpu_milli <= 0) return 0;
  const std::int32_t fully_free = node.fully_free();
  if (fully_free == static_cast<std::int32_t>(node.free.size()))
    return std::max<std::int64_t>(kMaxNodeScore / 3 - fully_free, fully_free);
  std::int32_t wanted = pod.gpu_count;
  std::int32_t fully_free_used = 0;
  std::int64_t free_ratio = 0;
  for (const std::size_t d : least_free_first(node.free)) {
    if (wanted == 0) break;
    if (pod.gpu_milli > node.free[d]) continue;
    --wanted;
    if (node.free[d] == kMilliPerGpu) ++fully_free_used;
    free_ratio += std::int64_t{node.free[d]} * 100 / kMilliPerGpu;
  }
  if (fully_free_used > 0)
    return std::max<std::int64_t>(kMaxNodeScore / 2 - fully_free_used, kMaxNodeScore / 3);
  return std::max<std::int64_t>(kMaxNodeScore - free_ratio / 10, kMaxNodeScore / 2);
}

std::int32_t clustering_tag(const Shape& pod) noexcept {
  return pod.is_share() ? 0 : pod.gpu_count;
}

std::int64_t clustering_score(const NodeView& node, const Shape& pod, bool has_tag,
                              std::size_t tags) noexcept {
  if (pod.gpu_milli <= 0) return 0;
  // Integer arithmetic, as the artifact's.
  const std::int64_t base = kMaxNodeScore / 4 * (kMaxSpecGpu - node.free_milli()) / kMaxSpecGpu;
  if (has_tag) return base + (tags == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4);
  return base + (tags == 0 ? kMaxNodeScore / 4 : 0);
}

std::vector<TypicalPod> typical_pods(const ShapeCounts& counts) {
  double total = 0;
  for (const auto& [key, count] : counts) total += static_cast<double>(count);
  std::vector<std::pair<ShapeCounts::key_type, double>> sorted;
  sorted.reserve(counts.size());
  for (const auto& [key, count] : counts) sorted.emplace_back(key, static_cast<double>(count));
  // sort.Sort(sort.Reverse(pl)): the count, then the key, both descending.
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    if (a.second != b.second) return a.second > b.second;
    return a.first > b.first;
  });
  const double expected = kPopularityThreshold * total / 100.0;
  double cumulative = 0;
  std::size_t taken = 0;
  std::vector<TypicalPod> out;
  while (cumulative < expected && taken < sorted.size()) {
    const auto& [key, count] = sorted[taken++];
    cumulative += count;
    out.push_back(
        {std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), count / total});
  }
  if (taken < sorted.size()) {
    for (TypicalPod& t : out) t.share /= cumulative / total;
  }
  return out;
}

Bins fragment_bins(const NodeView& node, const std::vector<TypicalPod>& typical) {
  Bins bins{};
  const std::int64_t left = node.free_milli();
  for (const TypicalPod& t : typical) {
    const bool cpu = node.cpu_left >= t.cpu_milli;
    if (t.gpu_milli == 0) {
      bins[cpu ? kCpuSatisfied : kCpuLacking] += t.share * static_cast<double>(left);
      continue;
    }
    if (!type_accepts(t.gpu_type, node.model)) {
      bins[kNoAccess] += t.share * static_cast<double>(left);
      continue;
    }
    // CanNodeHostPodOnGpuMemory.
    std::int32_t wanted = t.gpu_count;
    bool hosts = false;
    for (const std::int32_t f : node.free) {
      if (f >= t.gpu_milli && --wanted <= 0) {
        hosts = true;
        break;
      }
    }
    if (hosts && cpu) {
      std::int64_t short_of = 0;  // GetGpuFragMilliByNodeResAndPodRes
      for (const std::int32_t f : node.free) {
        if (f < t.gpu_milli) short_of += f;
      }
      bins[kLackGpu] += t.share * static_cast<double>(short_of);
      bins[kSatisfied] += t.share * static_cast<double>(left - short_of);
    } else if (hosts) {
      bins[kLackCpu] += t.share * static_cast<double>(left);
    } else {
      bins[cpu ? kLackGpu : kLackBoth] += t.share * static_cast<double>(left);
    }
  }
  return bins;
}

double frag_amount(const Bins& bins) noexcept {
  double sum = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    if (i != kSatisfied) sum += bins[i];
  }
  return sum;
}

FgdChoice fgd(const NodeView& node, const Shape& pod, const std::vector<TypicalPod>& typical,
              double before) {
  std::vector<std::int32_t> free(node.free.begin(), node.free.end());
  NodeView after{node.cpu_left - pod.cpu_milli, free, node.model};
  FgdChoice out;
  if (pod.is_share()) {
    for (std::size_t i = 0; i < free.size(); ++i) {
      if (free[i] < pod.gpu_milli) continue;
      // A device with the free milli of one before it leaves the node as that one would, and
      // only a strictly higher score moves the choice: it cannot win.
      if (std::find(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(i), free[i]) !=
          free.begin() + static_cast<std::ptrdiff_t>(i))
        continue;
      free[i] -= pod.gpu_milli;
      const std::int64_t s = fgd_score(before, fragmentation(after, typical));
      free[i] += pod.gpu_milli;
      if (out.device < 0 || s > out.score) out = {s, static_cast<int>(i)};
    }
    return out;
  }
  // nodeRes.Sub: whole GPUs from the least free that hold them (fully free ones).
  std::int32_t wanted = pod.gpu_milli > 0 ? pod.gpu_count : 0;
  for (const std::size_t d : least_free_first(free)) {
    if (wanted == 0) break;
    if (free[d] < pod.gpu_milli) continue;
    free[d] -= pod.gpu_milli;
    --wanted;
  }
  out.score = fgd_score(before, fragmentation(after, typical));
  return out;
}

}  // namespace gpusched::gpu_share
