// explain's report for people: the answer first (layer, diagnosis, message), then the evidence
// (groups of nodes rejected alike, each node's Filter verdicts while the cluster is small, the
// feasible nodes' scores, preemption per node), then the remedies the replays confirmed.
#include <algorithm>

#include "gpusched/report/explain_writer.hpp"
#include "model/decimal.hpp"
#include "model/go_text.hpp"

namespace gpusched::report {
namespace {

// Node lists are cut here unless every member is asked for.
constexpr std::size_t kMembersShown = 5;
// Up to this many nodes, each node's verdicts are listed one per line.
constexpr std::size_t kPerNodeLines = 20;

std::string verdict_text(const std::vector<std::string>& reasons, const std::string& detail) {
  return joined(reasons) + (detail.empty() ? "" : " (" + detail + ")");
}

std::string members(const std::vector<std::string>& nodes, bool all) {
  if (all || nodes.size() <= kMembersShown) return joined(nodes);
  const std::vector<std::string> first(nodes.begin(), nodes.begin() + kMembersShown);
  return joined(first) + " and " + grouped_count(nodes.size() - kMembersShown) + " more";
}

void write_node_verdicts(std::ostream& out, const NodeReport& node) {
  std::vector<std::string> passed, skipped;
  out << "  " << node.name << ": ";
  bool any_failure = false;
  for (const FilterVerdict& v : node.filters) {
    if (v.code == "Success") {
      passed.push_back(v.plugin);
    } else if (v.code == "Skip") {
      skipped.push_back(v.plugin);
    } else {
      out << (any_failure ? "; " : "") << v.plugin << " " << v.code << ": "
          << verdict_text(v.reasons, v.detail);
      any_failure = true;
    }
  }
  if (!any_failure) out << "feasible";
  if (!passed.empty()) out << (any_failure ? "; " : ", ") << "passed " << joined(passed);
  if (!skipped.empty()) out << "; nothing to check for " << joined(skipped);
  if (node.nominated_pods_counted) out << " (counting the pods nominated to it)";
  out << '\n';
}

void write_scores(std::ostream& out, const Explanation& e, const ExplainTextOptions& options) {
  std::vector<const NodeReport*> feasible;
  for (const NodeReport& n : e.cycle.nodes) {
    if (n.feasible) feasible.push_back(&n);
  }
  if (feasible.empty()) return;
  std::stable_sort(feasible.begin(), feasible.end(),
                   [](const NodeReport* a, const NodeReport* b) { return a->total > b->total; });
  out << "\nFeasible nodes: " << grouped_count(feasible.size())
      << " (weighted total = sum of score x weight";
  for (const auto& [plugin, weight] : e.cycle.score_weights)
    out << ", " << plugin << " x" << weight;
  out << ")\n";
  const std::size_t shown =
      options.members ? feasible.size() : std::min(feasible.size(), options.feasible_shown);
  for (std::size_t i = 0; i < shown; ++i) {
    const NodeReport& n = *feasible[i];
    out << "  " << n.name << "  total " << n.total;
    for (const auto& [plugin, score] : n.scores) out << "  " << plugin << " " << score;
    out << '\n';
  }
  if (shown < feasible.size())
    out << "  and " << grouped_count(feasible.size() - shown) << " more\n";
  if (!e.cycle.placement.best.empty()) {
    out << "  The scheduler picks " << (e.cycle.placement.best.size() == 1 ? "" : "one of ")
        << members(e.cycle.placement.best, options.members) << ".\n";
  }
}

void write_preemption(std::ostream& out, const Explanation& e, bool all) {
  const CycleReport& cycle = e.cycle;
  if (!cycle.preemption_refused.empty()) {
    out << "\nPreemption: the pod may not preempt: " << cycle.preemption_refused << '\n';
    return;
  }
  if (cycle.preemption.empty()) return;
  out << "\nPreemption, dry run on every node:\n";
  // Nodes that are not candidates, grouped by why.
  std::vector<std::pair<std::string, std::vector<std::string>>> why_not;
  for (const PreemptionReport& p : cycle.preemption) {
    if (p.candidate) {
      out << "  " << p.node << ": would evict " << joined(p.victims) << " (" << p.pdb_violations
          << " PodDisruptionBudget violation" << (p.pdb_violations == 1 ? "" : "s") << ")"
          << (p.node == cycle.placement.nominated_node ? " <- chosen: the pod is nominated here"
                                                       : "")
          << '\n';
      continue;
    }
    auto it = std::find_if(why_not.begin(), why_not.end(),
                           [&](const auto& w) { return w.first == p.why_not; });
    if (it == why_not.end()) it = why_not.insert(why_not.end(), {p.why_not, {}});
    it->second.push_back(p.node);
  }
  for (const auto& [why, nodes] : why_not) {
    out << "  " << grouped_count(nodes.size()) << (nodes.size() == 1 ? " node" : " nodes")
        << " not a candidate: " << why << ": " << members(nodes, all) << '\n';
  }
}

}  // namespace

void write_explanation_text(std::ostream& out, const Explanation& e,
                            const ExplainTextOptions& options) {
  out << "Pod " << e.pod << ": " << e.phase;
  if (!e.node.empty()) out << " on " << e.node;
  out << " (" << (e.node.empty() ? "last scheduling attempt at " : "as of ")
      << format_duration(e.time) << ")\n";
  out << "Layer: " << to_string(e.layer) << '\n';
  out << "Diagnosis: " << e.diagnosis << '\n';
  if (!e.message.empty()) out << "Message: " << e.message << '\n';
  if (!e.groups.empty()) {
    out << "\nNodes rejected, by verdict (the first failing plugin is the one the message "
           "counts):\n";
    for (const VerdictGroup& g : e.groups) {
      out << "  " << grouped_count(g.nodes.size()) << (g.nodes.size() == 1 ? " node: " : " nodes: ")
          << g.plugin << ": " << verdict_text(g.reasons, g.detail) << '\n';
      for (const std::string& also : g.also) out << "      also " << also << '\n';
      out << "      " << members(g.nodes, options.members) << '\n';
    }
  }
  if (!e.cycle.nodes.empty() && (options.members || e.cycle.nodes.size() <= kPerNodeLines)) {
    out << "\nEvery Filter plugin, per node:\n";
    for (const NodeReport& node : e.cycle.nodes) write_node_verdicts(out, node);
  }
  write_scores(out, e, options);
  write_preemption(out, e, options.members);
  if (!e.remedies.empty()) {
    out << "\nRemedies, each replayed:\n";
    for (const Remedy& r : e.remedies) {
      out << "  " << (r.verified ? "[works] " : "[fails] ") << r.change;
      if (r.verified) {
        out << ": scheduled at " << format_duration(*r.scheduled_at) << " on " << r.node;
      } else {
        out << ": " << (r.why_not.empty() ? "the pod still does not run" : r.why_not);
      }
      out << '\n';
    }
  }
}

}  // namespace gpusched::report
