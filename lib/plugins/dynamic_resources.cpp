#include "plugins/dynamic_resources.hpp"

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {

DynamicResources::DynamicResources(Handle& handle) : pool_(handle.cluster.pool()) {}

Status DynamicResources::pre_filter(CycleState&, const PodInfo& pod, PreFilterResult&) {
  const std::vector<std::string>& claims = pod.pod.spec.resource_claims;
  if (claims.empty()) return Code::Skip;
  std::string message = "gpusched does not model Dynamic Resource Allocation yet: resource claim";
  if (claims.size() > 1) message += 's';
  for (std::size_t i = 0; i < claims.size(); ++i) {
    message += i == 0 ? " " : ", ";
    message += claims[i];
  }
  message += " cannot be allocated";
  return Status{Code::UnschedulableAndUnresolvable, kName, {pool_.intern(message)}};
}

PostFilterResult DynamicResources::post_filter(CycleState&, const PodInfo&, const Diagnosis&) {
  return PostFilterResult{Code::Unschedulable, "no new claims to deallocate", std::nullopt};
}

}  // namespace gpusched::plugins
