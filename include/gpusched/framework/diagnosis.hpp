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

/// A failed node's status as Diagnosis records it, for a run of consecutive failed nodes that it
/// rejected alike (nodes mostly fail alike: a node selector's flavor, a full block). Its reasons
/// are Diagnosis::reasons(i), kept in one list for all runs so that recording does not allocate.
struct FailedStatus {
  Code code = Code::Success;
  std::string_view plugin;
  std::uint32_t first_reason = 0;  ///< index in Diagnosis::failed_reasons
  std::uint32_t num_reasons = 0;
  std::uint32_t num_nodes = 0;  ///< how many consecutive entries of failed_nodes it covers
};

struct Diagnosis {
  /// Nodes that were filtered and failed, in evaluation order.
  std::vector<const NodeInfo*> failed_nodes;
  /// Their statuses as runs, in the same order: run i covers failed_runs[i].num_nodes nodes.
  std::vector<FailedStatus> failed_runs;
  std::vector<StrId> failed_reasons;  ///< the reasons of every run, in order
  /// The status of every node that was not filtered (a PreFilter rejection or a PreFilterResult
  /// that left it out: NodeToStatus.AbsentNodesStatus).
  std::optional<Status> absent;
  std::string pre_filter_msg;
  std::string post_filter_msg;
  /// A PreFilter or Filter plugin's Error, as the framework wraps it (`running "<plugin>" filter
  /// plugin: <error>`): the cycle stopped there, with no FitError and no PostFilter.
  std::optional<std::string> error;
  std::set<std::string, std::less<>> unschedulable_plugins;
  std::set<std::string, std::less<>> pending_plugins;
  /// How many nodes may fail, when known: room for them is made at the first failure, rather
  /// than by a dozen reallocations of ever larger blocks.
  std::size_t expected_failures = 0;

  void clear();
  /// Records a node's failure (AddPluginStatus included). Inline: the Filter loop records most
  /// failed nodes, and most extend the last run.
  void add(const NodeInfo& node, const Status& status) {
    if (extends_last_run(status)) {
      failed_nodes.push_back(&node);
      ++failed_runs.back().num_nodes;
      return;
    }
    if (failed_nodes.empty()) failed_nodes.reserve(expected_failures);
    failed_nodes.push_back(&node);
    start_run(status, 1);
  }
  /// Records the same failure for each of `nodes`, in order (add, once per node).
  void add_run(std::span<const NodeInfo* const> nodes, const Status& status);
  /// The reasons of failed_runs[i].
  [[nodiscard]] std::span<const StrId> reasons(std::size_t i) const {
    return std::span(failed_reasons)
        .subspan(failed_runs[i].first_reason, failed_runs[i].num_reasons);
  }
  /// Calls visit(node, status, reasons) for each failed node, in evaluation order.
  template <class Visit>
  void for_each_failed(Visit&& visit) const {
    std::size_t node = 0;
    for (std::size_t i = 0; i < failed_runs.size(); ++i) {
      const std::span<const StrId> why = reasons(i);
      for (std::uint32_t k = 0; k < failed_runs[i].num_nodes; ++k)
        visit(*failed_nodes[node++], failed_runs[i], why);
    }
  }

 private:
  /// Whether `status` is the last run's: the same code, the same plugin name object (plugins
  /// name their statuses with one string each) and the same reasons.
  [[nodiscard]] bool extends_last_run(const Status& status) const {
    if (failed_runs.empty()) return false;
    const FailedStatus& last = failed_runs.back();
    if (last.code != status.code || last.plugin.data() != status.plugin.data() ||
        last.plugin.size() != status.plugin.size() || last.num_reasons != status.reasons.size())
      return false;
    const StrId* kept = failed_reasons.data() + last.first_reason;
    for (std::size_t i = 0; i < status.reasons.size(); ++i) {
      if (kept[i] != status.reasons[i]) return false;
    }
    return true;
  }
  /// Starts a run of `count` nodes with `status`, which does not extend the last one (recording
  /// its plugin: AddPluginStatus).
  void start_run(const Status& status, std::uint32_t count);
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
