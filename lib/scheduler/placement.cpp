// Scheduler::evaluate: one scheduling cycle without its effects (schedule_one.go's
// schedulePod and RunPostFilterPlugins, up to the point where a cycle would assume the pod).
#include <algorithm>
#include <span>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/scheduler/scheduler.hpp"

namespace gpusched {

Placement Scheduler::evaluate(const PodInfo& pod, bool post_filter) {
  Framework* fwk = framework_for(pod.pod);
  if (fwk == nullptr) {
    throw std::invalid_argument("no scheduler profile has schedulerName \"" +
                                pod.pod.spec.scheduler_name + "\"");
  }
  Placement out;
  const auto& all_nodes = cluster_.node_list();
  if (all_nodes.empty()) {
    out.message = "no nodes available to schedule pods";  // ErrNoNodesAvailable
    return out;
  }
  const StringPool& strings = cluster_.pool();
  CycleState state(fwk->num_plugins());
  Diagnosis diagnosis;
  std::vector<NodeInfo*> subset;
  std::vector<const NodeInfo*> feasible;
  const std::vector<NodeInfo*>* nodes = pre_filter(*fwk, state, pod, diagnosis, subset);
  if (nodes != nullptr) {
    // Every node, where a cycle stops at numFeasibleNodesToFind: the verdicts are complete, and
    // when none fits a cycle has filtered every node too.
    NodeStatus status;
    for (const NodeInfo* node : *nodes) {
      if (fwk->run_filter_with_nominated(state, pod, *node, status) == Code::Success) {
        feasible.push_back(node);
      } else {
        diagnosis.add(*node, status);
      }
    }
  }

  std::unordered_set<const NodeInfo*> verdict_given;
  auto rejected = [&](const NodeInfo& node, std::string_view plugin, std::span<const StrId> why) {
    NodeVerdict verdict{node.node.metadata.name, false, std::string(plugin), {}, 0};
    for (StrId reason : why) verdict.reasons.push_back(strings.str(reason));
    out.nodes.push_back(std::move(verdict));
    verdict_given.insert(&node);
  };
  for (std::size_t i = 0; i < diagnosis.failed_nodes.size(); ++i)
    rejected(*diagnosis.failed_nodes[i], diagnosis.failed_statuses[i].plugin, diagnosis.reasons(i));
  if (!feasible.empty()) {
    std::vector<std::int64_t> totals(feasible.size());
    if (fwk->has_score_plugins()) fwk->run_score(state, pod, feasible, totals);
    const std::int64_t top = *std::max_element(totals.begin(), totals.end());
    for (std::size_t i = 0; i < feasible.size(); ++i) {
      const std::string& name = feasible[i]->node.metadata.name;
      out.nodes.push_back(NodeVerdict{name, true, {}, {}, totals[i]});
      verdict_given.insert(feasible[i]);
      if (totals[i] == top) out.best.push_back(name);
    }
    std::sort(out.best.begin(), out.best.end());
  }
  // The nodes PreFilter rejected or left out share the absent status; a rejection names its
  // plugin in the diagnosis only.
  if (diagnosis.absent) {
    std::string_view plugin = diagnosis.absent->plugin;
    if (plugin.empty() && !diagnosis.pre_filter_msg.empty()) {
      plugin = diagnosis.unschedulable_plugins.empty() ? *diagnosis.pending_plugins.begin()
                                                       : *diagnosis.unschedulable_plugins.begin();
    }
    for (const NodeInfo* node : all_nodes) {
      if (!verdict_given.contains(node)) rejected(*node, plugin, diagnosis.absent->reasons);
    }
  }
  std::sort(out.nodes.begin(), out.nodes.end(),
            [](const NodeVerdict& a, const NodeVerdict& b) { return a.node < b.node; });
  if (!feasible.empty()) return out;

  if (post_filter && fwk->has_post_filter_plugins()) {
    const PostFilterResult post = fwk->run_post_filter(state, pod, diagnosis);
    if (post.code != Code::Success) diagnosis.post_filter_msg = post.message;
    if (post.code == Code::Success && post.nominated_node)
      out.nominated_node = *post.nominated_node;
  }
  out.message = fit_error_message(all_nodes.size(), diagnosis, strings);
  return out;
}

}  // namespace gpusched
