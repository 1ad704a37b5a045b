// Scheduler::report_cycle: explain's full account of one cycle. It runs the cycle's extension
// points as evaluate() does, but asks every plugin, where RunFilterPlugins stops at the first
// failure (framework/runtime/framework.go) and DryRunPreemption at enough candidates
// (framework/preemption/preemption.go).
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/model/quantity.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "model/go_text.hpp"
#include "plugins/default_preemption.hpp"

namespace gpusched {
namespace {

constexpr std::string_view kInsufficient = "Insufficient ";

std::vector<std::string> reason_texts(const Reasons& reasons, const StringPool& strings) {
  std::vector<std::string> out;
  out.reserve(reasons.size());
  for (StrId r : reasons) out.push_back(strings.str(r));
  return out;
}

// "free 0, need 1" for each "Insufficient <resource>" of NodeResourcesFit (fitsRequest compares
// the pod's request with allocatable minus the requests of the pods holding the node).
std::string insufficient_detail(const std::vector<std::string>& reasons, const PodInfo& pod,
                                const NodeInfo& node, const ResourceRegistry& resources) {
  std::vector<std::pair<std::string, std::string>> parts;  // resource, "free x, need y"
  for (const std::string& reason : reasons) {
    if (!reason.starts_with(kInsufficient)) continue;
    std::string name = reason.substr(kInsufficient.size());
    const auto id = resources.find(name);
    if (!id) continue;
    const QuantityFormat format = resource::default_format(name);
    const std::int64_t free = node.allocatable[*id] - node.requested[*id];
    parts.emplace_back(std::move(name),
                       "free " + Quantity(std::max<std::int64_t>(free, 0), format).to_string() +
                           ", need " + Quantity(pod.request(*id), format).to_string());
  }
  // One resource short reads as the "(free 0, need 1)"; several name theirs.
  if (parts.size() == 1) return parts.front().second;
  std::string out;
  for (const auto& [name, text] : parts) out += (out.empty() ? "" : "; ") + name + " " + text;
  return out;
}

FilterVerdict verdict_of(const NodeStatus& status, const PodInfo& pod, const NodeInfo& node,
                         const ClusterState& cluster) {
  FilterVerdict v{std::string(status.plugin),
                  std::string(to_string(status.code)),
                  reason_texts(status.reasons, cluster.pool()),
                  {}};
  if (status.plugin == names::kNodeResourcesFit)
    v.detail = insufficient_detail(v.reasons, pod, node, cluster.resources());
  return v;
}

}  // namespace

CycleReport Scheduler::report_cycle(const PodInfo& pod) {
  CycleReport out;
  out.placement = evaluate(pod, true);  // the decision, its message and its preemption
  Framework& fwk = *framework_for(pod.pod);
  const auto& all_nodes = cluster_.node_list();
  CycleState state(fwk.num_plugins());
  Diagnosis diagnosis;
  std::vector<NodeInfo*> subset;
  const std::vector<NodeInfo*>* nodes = pre_filter(fwk, state, pod, diagnosis, subset);

  std::vector<NodeReport> reports;
  reports.reserve(all_nodes.size());
  std::vector<const NodeInfo*> feasible;
  std::vector<std::size_t> feasible_at;
  if (nodes != nullptr) {
    std::vector<NodeStatus> verdicts;
    for (const NodeInfo* node : *nodes) {
      NodeReport report{node->node.metadata.name, true, {}, false, {}, 0};
      fwk.filter_verdicts(state, pod, *node, verdicts, report.nominated_pods_counted);
      const NodeStatus* first_failure = nullptr;
      for (const NodeStatus& v : verdicts) {
        report.filters.push_back(verdict_of(v, pod, *node, cluster_));
        if (first_failure == nullptr && v.code != Code::Success && v.code != Code::Skip)
          first_failure = &v;
      }
      if (first_failure != nullptr) {
        report.feasible = false;
        diagnosis.add(*node, *first_failure);
      } else {
        feasible.push_back(node);
        feasible_at.push_back(reports.size());
      }
      reports.push_back(std::move(report));
    }
  }
  if (!feasible.empty()) {
    std::vector<std::int64_t> totals(feasible.size());
    std::vector<Framework::PluginScores> per_plugin;
    if (fwk.has_score_plugins()) fwk.run_score(state, pod, feasible, totals, &per_plugin);
    for (const Framework::PluginScores& p : per_plugin)
      out.score_weights.emplace_back(std::string(p.plugin), p.weight);
    for (std::size_t i = 0; i < feasible.size(); ++i) {
      NodeReport& report = reports[feasible_at[i]];
      report.total = totals[i];
      for (const Framework::PluginScores& p : per_plugin)
        report.scores.emplace_back(std::string(p.plugin), p.scores[i]);
    }
  }
  // Nodes PreFilter rejected or left out: evaluate() named their plugin and reasons.
  if (diagnosis.absent) {
    const std::string code(to_string(diagnosis.absent->code));
    std::unordered_set<std::string_view> filtered;
    for (const NodeReport& r : reports) filtered.insert(r.name);
    std::vector<NodeReport> absent;
    for (const NodeVerdict& v : out.placement.nodes) {
      if (!filtered.contains(v.node))
        absent.push_back(
            NodeReport{v.node, false, {{v.plugin, code, v.reasons, {}}}, false, {}, 0});
    }
    reports.insert(reports.end(), std::make_move_iterator(absent.begin()),
                   std::make_move_iterator(absent.end()));
  }
  std::sort(reports.begin(), reports.end(),
            [](const NodeReport& a, const NodeReport& b) { return a.name < b.name; });

  if (feasible.empty()) {
    auto* preemption =
        dynamic_cast<plugins::DefaultPreemption*>(fwk.find(plugins::DefaultPreemption::kName));
    if (preemption != nullptr) {
      out.preemption_refused = preemption->eligibility(pod, diagnosis);
      if (out.preemption_refused.empty()) {
        // Each node's status as PostFilter reads it: its own, else the absent nodes' one.
        NodeStatus status;
        for (const NodeInfo* node : all_nodes) {
          PreemptionReport r{node->node.metadata.name, false, {}, 0, {}};
          const NodeReport& report = *std::lower_bound(
              reports.begin(), reports.end(), r.node,
              [](const NodeReport& n, const std::string& name) { return n.name < name; });
          const auto failed = std::find_if(report.filters.begin(), report.filters.end(),
                                           [](const FilterVerdict& v) { return v.failed(); });
          const std::string why =
              failed == report.filters.end() ? "" : failed->plugin + ": " + joined(failed->reasons);
          if (failed == report.filters.end() || failed->code != "Unschedulable") {
            r.why_not = "removing pods would not help (" + why + ")";
          } else {
            plugins::DefaultPreemption::Candidate candidate;
            const Code code = preemption->select_victims(state, pod, *node, candidate, status);
            if (code == Code::Success && !candidate.victims.empty()) {
              r.candidate = true;
              for (const PodInfo* v : candidate.victims) r.victims.push_back(v->pod.key());
              r.pdb_violations = candidate.pdb_violations;
            } else if (code == Code::Success) {
              r.why_not = "it fits without evicting anyone";
            } else {
              const std::vector<std::string> reasons =
                  reason_texts(status.reasons, cluster_.pool());
              r.why_not = status.plugin == plugins::DefaultPreemption::kName
                              ? "no pod of lower priority runs there (" + joined(reasons) + ")"
                              : "still no room with every lower-priority pod removed (" +
                                    std::string(status.plugin) + ": " + joined(reasons) + ")";
            }
          }
          out.preemption.push_back(std::move(r));
        }
        std::sort(
            out.preemption.begin(), out.preemption.end(),
            [](const PreemptionReport& a, const PreemptionReport& b) { return a.node < b.node; });
      }
    }
  }
  out.nodes = std::move(reports);
  return out;
}

}  // namespace gpusched
