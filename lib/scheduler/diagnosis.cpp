#include "gpusched/scheduler/diagnosis.hpp"

#include <algorithm>
#include <map>

namespace gpusched {

void Diagnosis::clear() {
  failed_nodes.clear();
  failed_statuses.clear();
  absent.reset();
  pre_filter_msg.clear();
  post_filter_msg.clear();
  unschedulable_plugins.clear();
  pending_plugins.clear();
}

void Diagnosis::add(const NodeInfo& node, NodeStatus status) {
  // Diagnosis.AddPluginStatus: rejections name their plugin for the queueing hints.
  if (status.code == Code::Pending) {
    pending_plugins.emplace(status.plugin);
  } else if (is_rejected(status.code)) {
    unschedulable_plugins.emplace(status.plugin);
  }
  failed_nodes.push_back(&node);
  failed_statuses.push_back(std::move(status));
}

// pkg/scheduler/framework/types.go FitError.Error().
std::string reasons_histogram(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                              const StringPool& pool) {
  std::map<std::string, std::size_t> counts;
  for (const NodeStatus& s : diagnosis.failed_statuses) {
    for (StrId r : s.reasons) ++counts[pool.str(r)];
  }
  if (diagnosis.absent && diagnosis.failed_statuses.size() < num_all_nodes) {
    for (StrId r : diagnosis.absent->reasons) {
      counts[pool.str(r)] += num_all_nodes - diagnosis.failed_statuses.size();
    }
  }
  std::vector<std::string> parts;
  parts.reserve(counts.size());
  for (const auto& [reason, count] : counts) parts.push_back(std::to_string(count) + " " + reason);
  // sort.Strings on "<count> <reason>": byte-wise, so "10 x" sorts before "2 y".
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string fit_error_message(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                              const StringPool& pool) {
  std::string msg = "0/";
  msg.append(std::to_string(num_all_nodes)).append(" nodes are available: ");
  if (!diagnosis.pre_filter_msg.empty()) {
    msg.append(diagnosis.pre_filter_msg);
  } else {
    msg.append(reasons_histogram(num_all_nodes, diagnosis, pool));
  }
  msg.append(".");
  if (!diagnosis.post_filter_msg.empty()) msg.append(" ").append(diagnosis.post_filter_msg);
  return msg;
}

}  // namespace gpusched
