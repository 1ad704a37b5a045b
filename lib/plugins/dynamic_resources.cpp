#include "plugins/dynamic_resources.hpp"

namespace gpusched::plugins {

PostFilterResult DynamicResources::post_filter(CycleState&, const PodInfo&, const Diagnosis&) {
  return PostFilterResult{Code::Unschedulable, "no new claims to deallocate", std::nullopt};
}

}  // namespace gpusched::plugins
