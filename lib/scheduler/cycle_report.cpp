// Scheduler::report_cycle: explain's full account of one cycle. evaluate()'s cycle runs with a
// sink that asks every plugin, where RunFilterPlugins stops at the first failure
// (framework/runtime/framework.go) and DryRunPreemption at enough candidates
// (framework/preemption/preemption.go).
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "framework/string_pool.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/error.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/model/quantity.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "model/go_text.hpp"
#include "plugins/default_preemption.hpp"
#include "scheduler/cycle.hpp"

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

FilterVerdict verdict_of(const Status& status, const PodInfo& pod, const NodeInfo& node,
                         const ClusterState& cluster) {
  FilterVerdict v{std::string(status.plugin),
                  std::string(to_string(status.code)),
                  reason_texts(status.reasons, cluster.pool()),
                  {}};
  if (status.plugin == names::kNodeResourcesFit)
    v.detail = insufficient_detail(v.reasons, pod, node, cluster.resources());
  return v;
}

// explain's listener: the cycle's every Filter verdict and Score becomes a NodeReport, and when
// no node fits, preemption's dry run on every node.
class ReportSink final : public Scheduler::CycleSink {
 public:
  ReportSink(const ClusterState& cluster, const PodInfo& pod, CycleReport& out)
      : cluster_(cluster), pod_(pod), out_(out) {
    reports_.reserve(cluster.node_list().size());
  }

  void filtered(const NodeInfo& node, std::span<const Status> verdicts,
                std::span<const std::string> explanations, bool nominated_pods_counted,
                bool feasible) override {
    NodeReport report{node.node.metadata.name, feasible, {}, nominated_pods_counted, {}, 0};
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      FilterVerdict v = verdict_of(verdicts[i], pod_, node, cluster_);
      if (v.detail.empty() && i < explanations.size()) v.detail = explanations[i];
      report.filters.push_back(std::move(v));
    }
    if (feasible) feasible_at_.push_back(reports_.size());
    reports_.push_back(std::move(report));
  }

  void scored(std::span<const std::int64_t> totals,
              const std::vector<Framework::PluginScores>& per_plugin) override {
    for (const Framework::PluginScores& p : per_plugin)
      out_.score_weights.emplace_back(std::string(p.plugin), p.weight);
    for (std::size_t i = 0; i < totals.size(); ++i) {
      NodeReport& report = reports_[feasible_at_[i]];
      report.total = totals[i];
      for (const Framework::PluginScores& p : per_plugin)
        report.scores.emplace_back(std::string(p.plugin), p.scores[i]);
    }
  }

  void finished(const Scheduler::Cycle& cycle) override {
    const Diagnosis& diagnosis = cycle.diagnosis;
    // Nodes PreFilter rejected or left out share the absent status.
    if (diagnosis.absent) {
      std::unordered_set<std::string_view> filtered;
      for (const NodeReport& r : reports_) filtered.insert(r.name);
      const FilterVerdict verdict{std::string(diagnosis.absent->plugin),
                                  std::string(to_string(diagnosis.absent->code)),
                                  reason_texts(diagnosis.absent->reasons, cluster_.pool()),
                                  {}};
      for (const NodeInfo* node : cluster_.node_list()) {
        if (!filtered.contains(node->node.metadata.name))
          reports_.push_back(NodeReport{node->node.metadata.name, false, {verdict}, false, {}, 0});
      }
    }
    std::sort(reports_.begin(), reports_.end(),
              [](const NodeReport& a, const NodeReport& b) { return a.name < b.name; });
    if (cycle.feasible.empty()) preemption(cycle);
    out_.nodes = std::move(reports_);
  }

 private:
  // DefaultPreemption's eligibility, then its victim search on every node whose status is
  // Unschedulable, where the real PostFilter stops at enough candidates; the others say why not.
  void preemption(const Scheduler::Cycle& cycle) {
    auto* plugin = dynamic_cast<plugins::DefaultPreemption*>(
        cycle.fwk.find(plugins::DefaultPreemption::kName));
    if (plugin == nullptr) return;
    out_.preemption_refused = plugin->eligibility(pod_, cycle.diagnosis);
    if (!out_.preemption_refused.empty()) return;
    // Each node's status as PostFilter reads it: its own, else the absent nodes' one.
    Status status;
    for (const NodeInfo* node : cluster_.node_list()) {
      PreemptionReport r{node->node.metadata.name, false, {}, 0, {}};
      const auto found = std::lower_bound(
          reports_.begin(), reports_.end(), r.node,
          [](const NodeReport& n, const std::string& name) { return n.name < name; });
      // The cycle ran over every node (Search::AllNodes): each has a verdict.
      GPUSCHED_CHECK(found != reports_.end() && found->name == r.node,
                     "every node of the cluster has a report in a full cycle");
      const NodeReport& report = *found;
      const auto failed = std::find_if(report.filters.begin(), report.filters.end(),
                                       [](const FilterVerdict& v) { return v.failed(); });
      const std::string why =
          failed == report.filters.end() ? "" : failed->plugin + ": " + joined(failed->reasons);
      if (failed == report.filters.end() || failed->code != "Unschedulable") {
        r.why_not = "removing pods would not help (" + why + ")";
      } else {
        plugins::DefaultPreemption::Candidate candidate;
        const Code code = plugin->select_victims(cycle.state, pod_, *node, candidate, status);
        if (code == Code::Success && !candidate.victims.empty()) {
          r.candidate = true;
          for (const PodInfo* v : candidate.victims) r.victims.push_back(v->pod.key());
          r.pdb_violations = candidate.pdb_violations;
        } else if (code == Code::Success) {
          r.why_not = "it fits without evicting anyone";
        } else {
          const std::vector<std::string> reasons = reason_texts(status.reasons, cluster_.pool());
          r.why_not = status.plugin == plugins::DefaultPreemption::kName
                          ? "no pod of lower priority runs there (" + joined(reasons) + ")"
                          : "still no room with every lower-priority pod removed (" +
                                std::string(status.plugin) + ": " + joined(reasons) + ")";
        }
      }
      out_.preemption.push_back(std::move(r));
    }
    std::sort(out_.preemption.begin(), out_.preemption.end(),
              [](const PreemptionReport& a, const PreemptionReport& b) { return a.node < b.node; });
  }

  const ClusterState& cluster_;
  const PodInfo& pod_;
  CycleReport& out_;
  std::vector<NodeReport> reports_;
  std::vector<std::size_t> feasible_at_;  // the feasible nodes' reports, in scoring order
};

}  // namespace

CycleReport Scheduler::report_cycle(const PodInfo& pod) {
  CycleReport out;
  ReportSink sink(cluster_, pod, out);
  out.placement = evaluate(pod, true, &sink);  // the decision, its message and its preemption
  return out;
}

}  // namespace gpusched
