#include "plugins/dot_product_score.hpp"

#include "plugins/gpu_share_view.hpp"

namespace gpusched::plugins {

std::int64_t DotProductScore::score(const CycleState&, const PodInfo& pod,
                                    const NodeInfo& node) const {
  return bounded_score(gpu_share::dot_product_score(share_view(node), share_shape(pod)));
}

}  // namespace gpusched::plugins
