#include "sim/disruption_controller.hpp"

#include <string>
#include <vector>

namespace gpusched::sim {

PdbStatus DisruptionController::status(const PodDisruptionBudget& pdb) const {
  // getExpectedScale: a ReplicaSet owned by a Deployment counts the Deployment's replicas; a
  // StatefulSet (getPodStatefulSet) its own.
  const ControllerScale scale = [this](const OwnerReference& owner,
                                       std::string_view ns) -> std::optional<std::int32_t> {
    if (owner.kind == "StatefulSet") {
      auto ss = api_.statefulsets.find(std::string(ns) + "/" + owner.name);
      if (ss == api_.statefulsets.end() || ss->second.metadata.uid != owner.uid)
        return std::nullopt;
      return ss->second.replicas;
    }
    if (owner.kind != "ReplicaSet") return std::nullopt;
    auto rs = api_.replicasets.find(std::string(ns) + "/" + owner.name);
    if (rs == api_.replicasets.end() || rs->second.metadata.uid != owner.uid) return std::nullopt;
    if (const OwnerReference* d = rs->second.metadata.controller();
        d != nullptr && d->kind == "Deployment") {
      auto dep = api_.deployments.find(std::string(ns) + "/" + d->name);
      if (dep != api_.deployments.end()) return dep->second.replicas;
    }
    return rs->second.replicas;
  };
  std::vector<const Pod*> pods;
  for (PodInfo* pod : api_.cluster().pods()) {
    if (pod->pod.metadata.namespace_ == pdb.metadata.namespace_) pods.push_back(&pod->pod);
  }
  return pdb_status(pdb, pods, scale);
}

void DisruptionController::refresh() {
  if (api_.budgets.empty()) return;
  std::vector<BudgetInfo> infos;
  for (const auto& [key, pdb] : api_.budgets) {
    // The scheduler reads budgets through filterPodsWithPDBViolation, where a nil selector
    // matches nothing: an empty LabelSelector stands for it.
    infos.push_back(BudgetInfo{pdb.metadata.namespace_, pdb.selector.value_or(LabelSelector{}),
                               status(pdb).disruptions_allowed});
  }
  api_.cluster().set_budgets(std::move(infos));
}

}  // namespace gpusched::sim
