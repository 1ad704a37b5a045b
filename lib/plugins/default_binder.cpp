#include "plugins/default_binder.hpp"

#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {

Code DefaultBinder::bind(CycleState&, PodInfo& pod, NodeInfo& node) {
  cluster_.bind(pod, node);
  return Code::Success;
}

}  // namespace gpusched::plugins
