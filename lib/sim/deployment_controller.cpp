#include "sim/deployment_controller.hpp"

#include "model/names.hpp"

namespace gpusched::sim {
namespace {

// The component of its own event broadcaster (pkg/controller/deployment/deployment_controller.go).
constexpr std::string_view kEventSource = "deployment-controller";

}  // namespace

void DeploymentController::sync_all() {
  sync_keys(context_.api().deployments);
}

// A Deployment keeps one ReplicaSet per template, named "<deployment>-<pod-template-hash>"; the
// current one gets the replicas, older ones are scaled to zero (a Recreate-style rollout).
void DeploymentController::sync(const std::string& key) {
  ApiServer& api = context_.api();
  auto it = api.deployments.find(key);
  if (it == api.deployments.end()) return;
  const Deployment& d = it->second;
  const std::string hash = pod_template_hash(d.template_);
  const std::string rs_name = d.metadata.name + "-" + hash;
  for (auto& [rs_key, rs] : api.replicasets) {
    const OwnerReference* owner = rs.metadata.controller();
    if (owner == nullptr || owner->uid != d.metadata.uid || rs.metadata.name == rs_name) continue;
    if (rs.replicas != 0) {
      context_.record_event(kEventSource, "Deployment/" + key, "Normal", "ScalingReplicaSet",
                            "Scaled down replica set " + rs.metadata.name + " from " +
                                std::to_string(rs.replicas) + " to 0");
      rs.replicas = 0;
      context_.controllers().sync("ReplicaSet", rs_key);
    }
  }
  const std::string rs_key = d.metadata.namespace_ + "/" + rs_name;
  auto rs_it = api.replicasets.find(rs_key);
  if (rs_it == api.replicasets.end()) {
    ReplicaSet rs;
    rs.metadata.name = rs_name;
    rs.metadata.namespace_ = d.metadata.namespace_;
    rs.metadata.uid = api.new_uid();
    rs.metadata.creation_ms = context_.now();
    rs.metadata.labels = d.template_.metadata.labels;
    rs.metadata.labels["pod-template-hash"] = hash;
    rs.metadata.owner_references.push_back(
        OwnerReference{"Deployment", d.metadata.name, d.metadata.uid, true});
    rs.template_ = d.template_;
    rs.template_.metadata.labels["pod-template-hash"] = hash;
    rs.selector = d.selector;
    rs.selector.match_labels["pod-template-hash"] = hash;
    rs.replicas = 0;
    rs_it = api.replicasets.emplace(rs_key, std::move(rs)).first;
  }
  if (rs_it->second.replicas != d.replicas) {
    const bool up = d.replicas > rs_it->second.replicas;
    context_.record_event(kEventSource, "Deployment/" + key, "Normal", "ScalingReplicaSet",
                          std::string(up ? "Scaled up" : "Scaled down") + " replica set " +
                              rs_name + " from " + std::to_string(rs_it->second.replicas) + " to " +
                              std::to_string(d.replicas));
    rs_it->second.replicas = d.replicas;
  }
  context_.controllers().sync("ReplicaSet", rs_key);
}

}  // namespace gpusched::sim
