#pragma once
/// Why a pod fits nowhere (upstream framework.Diagnosis and FitError).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/status.hpp"

namespace gpusched {

/// A node's failing status: code, the plugin that returned it, and its reasons.
struct NodeStatus {
  Code code = Code::Success;
  std::string_view plugin;
  Reasons reasons;
};

struct Diagnosis {
  /// Nodes that were filtered and failed, in evaluation order, with their statuses.
  std::vector<const NodeInfo*> failed_nodes;
  std::vector<NodeStatus> failed_statuses;
  /// The status of every node that was not filtered (a PreFilter rejection or a PreFilterResult
  /// that left it out: NodeToStatus.AbsentNodesStatus).
  std::optional<NodeStatus> absent;
  std::string pre_filter_msg;
  std::string post_filter_msg;
  std::set<std::string, std::less<>> unschedulable_plugins;
  std::set<std::string, std::less<>> pending_plugins;

  void clear();
  /// Records a node's failure (AddPluginStatus included).
  void add(const NodeInfo& node, NodeStatus status);
};

/// FitError.Error(): "0/N nodes are available: <sorted histogram>." plus the PostFilter message.
[[nodiscard]] std::string fit_error_message(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                                            const StringPool& pool);

/// The reasons histogram alone ("1 Insufficient cpu, 2 node(s) ..."), sorted as upstream.
[[nodiscard]] std::string reasons_histogram(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                                            const StringPool& pool);

}  // namespace gpusched
