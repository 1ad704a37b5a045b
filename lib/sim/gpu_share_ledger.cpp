#include "sim/gpu_share_ledger.hpp"

namespace gpusched::sim {

void GpuShareLedger::close(const NodeInfo& node) {
  if (node.slot >= since_.size() || !since_[node.slot]) return;
  const TimeMs from = *since_[node.slot];
  since_[node.slot].reset();
  if (node.gpu_free.empty() || now_ <= from) return;
  out_.push_back(GpuShareInterval{from, now_, node.node.metadata.name, node.gpu_model,
                                  node.allocatable[res::kCpu] - node.requested[res::kCpu],
                                  node.gpu_free});
}

void GpuShareLedger::observe(const NodeInfo& node, NodeChange change) {
  close(node);
  if (change == NodeChange::Removing) return;
  if (node.slot >= since_.size()) since_.resize(node.slot + 1);
  since_[node.slot] = now_;
}

std::vector<GpuShareInterval> GpuShareLedger::finish(const ClusterState& cluster) {
  for (const NodeInfo* node : cluster.node_list()) close(*node);
  return std::move(out_);
}

}  // namespace gpusched::sim
