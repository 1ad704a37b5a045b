#include "plugins/fgd_score.hpp"

#include "gpusched/framework/cluster_state.hpp"
#include "plugins/gpu_share_view.hpp"

namespace gpusched::plugins {

const std::vector<gpu_share::TypicalPod>& FgdScore::typical() const {
  if (cluster_.pods_seen() != typical_pods_) {
    typical_ = gpu_share::typical_pods(cluster_.pod_shapes());
    typical_pods_ = cluster_.pods_seen();
  }
  return typical_;
}

gpu_share::FgdChoice FgdScore::choice(const PodInfo& pod, const NodeInfo& node) const {
  const gpu_share::NodeView view = share_view(node);
  const std::vector<gpu_share::TypicalPod>& target = typical();
  return gpu_share::fgd(view, share_shape(pod), target,
                        gpu_share::frag_amount(gpu_share::fragment_bins(view, target)));
}

std::int64_t FgdScore::score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  return bounded_score(choice(pod, node).score);
}

int FgdScore::choose_gpu(const PodInfo& pod, const NodeInfo& node) const {
  return choice(pod, node).device;
}

}  // namespace gpusched::plugins
