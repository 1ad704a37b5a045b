#include "plugins/best_fit_score.hpp"

#include <algorithm>

#include "plugins/gpu_share_view.hpp"

namespace gpusched::plugins {

std::int64_t BestFitScore::score(const CycleState&, const PodInfo& pod,
                                 const NodeInfo& node) const {
  return bounded_score(gpu_share::best_fit_score(share_view(node), share_shape(pod)));
}

void BestFitScore::normalize(const CycleState&, const PodInfo&,
                             std::span<std::int64_t> scores) const {
  if (scores.empty()) return;
  const auto [low, high] = std::minmax_element(scores.begin(), scores.end());
  const std::int64_t min = *low;
  const std::int64_t range = *high - *low;
  for (std::int64_t& s : scores) s = range == 0 ? 0 : (s - min) * gpu_share::kMaxNodeScore / range;
}

}  // namespace gpusched::plugins
