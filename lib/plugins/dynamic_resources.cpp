#include "plugins/dynamic_resources.hpp"

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "model/go_text.hpp"

namespace gpusched::plugins {

DynamicResources::DynamicResources(Handle& handle) : pool_(handle.cluster.pool()) {}

Status DynamicResources::pre_filter(CycleState&, const PodInfo& pod, PreFilterResult&) {
  const std::vector<PodResourceClaim>& spec_claims = pod.pod.spec.resource_claims;
  if (spec_claims.empty()) return Code::Skip;
  std::vector<std::string> claims;
  for (const PodResourceClaim& claim : spec_claims) claims.push_back(claim.name);
  const std::string message =
      std::string("gpusched does not model Dynamic Resource Allocation yet: resource claim") +
      (claims.size() > 1 ? "s " : " ") + joined(claims, ", ") + " cannot be allocated";
  return Status{Code::UnschedulableAndUnresolvable, kName, {pool_.intern(message)}};
}

PostFilterResult DynamicResources::post_filter(CycleState&, const PodInfo&, const Diagnosis&) {
  return PostFilterResult{Code::Unschedulable, "no new claims to deallocate", std::nullopt};
}

}  // namespace gpusched::plugins
