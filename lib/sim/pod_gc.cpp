#include "sim/pod_gc.hpp"

#include <set>

namespace gpusched::sim {

void PodGarbageCollector::orphan_possible() {
  // wait.UntilWithContext ticks every period; the grid is anchored at virtual 0.
  schedule((now_ + kCheckPeriod - 1) / kCheckPeriod * kCheckPeriod);
}

void PodGarbageCollector::schedule(TimeMs at) {
  if (scheduled_) return;
  scheduled_ = true;
  clock_.push(at, PodGc{});
}

std::vector<PodInfo*> PodGarbageCollector::run(ClusterState& cluster) {
  scheduled_ = false;
  std::vector<PodInfo*> orphans;
  for (PodInfo* pod : cluster.pods()) {
    const std::string& node = pod->pod.spec.node_name;
    if (node.empty() || cluster.find_node(node) != nullptr) continue;
    orphans.push_back(pod);
    // nodeQueue.AddAfter: a name already waiting keeps its earlier time.
    quarantine_.try_emplace(node, now_ + kQuarantine);
  }
  // discoverDeletedNodes: the names whose quarantine is over, checked once more.
  std::set<std::string> deleted;
  for (auto it = quarantine_.begin(); it != quarantine_.end();) {
    if (it->second > now_) {
      ++it;
      continue;
    }
    if (cluster.find_node(it->first) == nullptr) deleted.insert(it->first);
    it = quarantine_.erase(it);
  }
  std::vector<PodInfo*> doomed;
  for (PodInfo* pod : orphans) {
    if (deleted.contains(pod->pod.spec.node_name)) doomed.push_back(pod);
  }
  if (!quarantine_.empty() || doomed.size() < orphans.size()) schedule(now_ + kCheckPeriod);
  return doomed;
}

}  // namespace gpusched::sim
