// Scheduler::evaluate: one scheduling cycle without its effects (schedule_one.go's
// schedulePod and RunPostFilterPlugins, up to the point where a cycle would assume the pod), as
// the cycle's own steps (cycle.cpp) run over every node.
#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_set>

#include "framework/string_pool.hpp"
#include "gpusched/error.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "scheduler/cycle.hpp"

namespace gpusched {

Placement Scheduler::evaluate(const PodInfo& pod, bool post_filter) {
  return evaluate(pod, post_filter, nullptr);
}

Placement Scheduler::evaluate(const PodInfo& pod, bool run_post_filter, CycleSink* sink) {
  Framework* fwk = framework_for(pod.pod);
  if (fwk == nullptr) {
    // A bad argument of the call, worded and placed as Simulation's one-shot questions do.
    throw InputError(
        "pod " + pod.pod.key(), "/spec/schedulerName",
        "no scheduler profile has schedulerName \"" + pod.pod.spec.scheduler_name + "\"");
  }
  Placement out;
  const auto& all_nodes = cluster_.node_list();
  if (all_nodes.empty()) {
    out.message = "no nodes available to schedule pods";  // ErrNoNodesAvailable
    return out;
  }
  const StringPool& strings = cluster_.pool();
  Cycle cycle(*fwk, pod);
  find_nodes_that_fit(cycle, Search::AllNodes, sink);
  const Diagnosis& diagnosis = cycle.diagnosis;
  const std::vector<const NodeInfo*>& feasible = cycle.feasible;

  std::unordered_set<const NodeInfo*> verdict_given;
  auto rejected = [&](const NodeInfo& node, std::string_view plugin, std::span<const StrId> why) {
    NodeVerdict verdict{node.node.metadata.name, false, std::string(plugin), {}, 0};
    for (StrId reason : why) verdict.reasons.push_back(strings.str(reason));
    out.nodes.push_back(std::move(verdict));
    verdict_given.insert(&node);
  };
  diagnosis.for_each_failed(
      [&](const NodeInfo& node, const FailedStatus& status, std::span<const StrId> why) {
        rejected(node, status.plugin, why);
      });
  if (!feasible.empty()) {
    std::vector<std::int64_t> totals(feasible.size());
    if (fwk->has_score_plugins()) prioritize_nodes(cycle, totals, sink);
    const std::int64_t top = *std::max_element(totals.begin(), totals.end());
    for (std::size_t i = 0; i < feasible.size(); ++i) {
      const std::string& name = feasible[i]->node.metadata.name;
      out.nodes.push_back(NodeVerdict{name, true, {}, {}, totals[i]});
      verdict_given.insert(feasible[i]);
      if (totals[i] == top) out.best.push_back(name);
    }
    std::sort(out.best.begin(), out.best.end());
  }
  // The nodes PreFilter rejected or left out share the absent status.
  if (diagnosis.absent) {
    for (const NodeInfo* node : all_nodes) {
      if (!verdict_given.contains(node))
        rejected(*node, diagnosis.absent->plugin, diagnosis.absent->reasons);
    }
  }
  std::sort(out.nodes.begin(), out.nodes.end(),
            [](const NodeVerdict& a, const NodeVerdict& b) { return a.node < b.node; });
  if (feasible.empty()) {
    if (run_post_filter && fwk->has_post_filter_plugins()) {
      const PostFilterResult post = post_filter(cycle);
      if (post.code == Code::Success && post.nominated_node)
        out.nominated_node = *post.nominated_node;
    }
    out.message = fit_error_message(all_nodes.size(), diagnosis, strings);
  }
  if (sink != nullptr) sink->finished(cycle);
  return out;
}

}  // namespace gpusched
