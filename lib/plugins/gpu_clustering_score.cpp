#include "plugins/gpu_clustering_score.hpp"

#include <algorithm>
#include <vector>

#include "plugins/gpu_share_view.hpp"

namespace gpusched::plugins {

std::int64_t GpuClusteringScore::score(const CycleState&, const PodInfo& pod,
                                       const NodeInfo& node) const {
  const gpu_share::Shape shape = share_shape(pod);
  // The node's affinity map: the tags of the GPU pods it holds.
  std::vector<std::int32_t> tags;
  for (const GpuShareHold& hold : node.gpu_holds) {
    const std::int32_t tag = gpu_share::clustering_tag(share_shape(*hold.pod));
    if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
  }
  const bool has_tag =
      std::find(tags.begin(), tags.end(), gpu_share::clustering_tag(shape)) != tags.end();
  return bounded_score(gpu_share::clustering_score(share_view(node), shape, has_tag, tags.size()));
}

}  // namespace gpusched::plugins
