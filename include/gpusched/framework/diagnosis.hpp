#pragma once
/// Why a pod fits nowhere (upstream framework.Diagnosis and FitError).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/status.hpp"

namespace gpusched {

class StringPool;

/// A failed node's status as Diagnosis records it: its reasons are Diagnosis::reasons(i), kept in
/// one list for all nodes so that recording a node does not allocate.
struct FailedStatus {
  Code code = Code::Success;
  std::string_view plugin;
  std::uint32_t first_reason = 0;  ///< index in Diagnosis::failed_reasons
  std::uint32_t num_reasons = 0;
};

struct Diagnosis {
  /// Nodes that were filtered and failed, in evaluation order, with their statuses.
  std::vector<const NodeInfo*> failed_nodes;
  std::vector<FailedStatus> failed_statuses;
  std::vector<StrId> failed_reasons;  ///< the reasons of every failed status, in order
  /// The status of every node that was not filtered (a PreFilter rejection or a PreFilterResult
  /// that left it out: NodeToStatus.AbsentNodesStatus).
  std::optional<Status> absent;
  std::string pre_filter_msg;
  std::string post_filter_msg;
  std::set<std::string, std::less<>> unschedulable_plugins;
  std::set<std::string, std::less<>> pending_plugins;
  /// How many nodes may fail, when known: room for them is made at the first failure, rather
  /// than by a dozen reallocations of ever larger blocks.
  std::size_t expected_failures = 0;

  void clear();
  /// Records a node's failure (AddPluginStatus included).
  void add(const NodeInfo& node, const Status& status);
  /// Records the same failure for each of `nodes`, in order (add, once per node).
  void add_run(std::span<const NodeInfo* const> nodes, const Status& status);
  /// The reasons of failed_statuses[i].
  [[nodiscard]] std::span<const StrId> reasons(std::size_t i) const {
    return std::span(failed_reasons)
        .subspan(failed_statuses[i].first_reason, failed_statuses[i].num_reasons);
  }
};

/// The reasons a FailedScheduling message gives, without their node counts: "0/3 nodes are
/// available: 1 Insufficient cpu, 2 Insufficient nvidia.com/gpu. preemption: ..." gives
/// {"Insufficient cpu", "Insufficient nvidia.com/gpu"}; a PreFilter message is one reason; a
/// message of another shape (a binding error) is its own reason.
[[nodiscard]] std::vector<std::string> fit_error_reasons(std::string_view message);

/// FitError.Error(): "0/N nodes are available: <sorted histogram>." plus the PostFilter message.
[[nodiscard]] std::string fit_error_message(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                                            const StringPool& pool);

/// The reasons histogram alone ("1 Insufficient cpu, 2 node(s) ..."), sorted as upstream.
[[nodiscard]] std::string reasons_histogram(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                                            const StringPool& pool);

}  // namespace gpusched
