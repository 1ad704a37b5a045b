// group_verdicts: at thousands of nodes the per-node table is read by groups of nodes that the
// cycle rejected alike ("4,812 nodes: Insufficient nvidia.com/gpu (free 0, need 1)").
#include <algorithm>
#include <map>

#include "explain/explain_parts.hpp"
#include "gpusched/explain/explain.hpp"
#include "model/go_text.hpp"

namespace gpusched {

std::vector<VerdictGroup> group_verdicts(const CycleReport& cycle) {
  std::vector<VerdictGroup> groups;
  // The key spells out every failing verdict, its parts apart by tabs and lines (reasons are
  // one-line messages).
  std::map<std::string, std::size_t> index;
  for (const NodeReport& node : cycle.nodes) {
    if (node.feasible) continue;
    std::string key;
    VerdictGroup group;
    for (const FilterVerdict& v : node.filters) {
      if (!v.failed()) continue;
      key += v.plugin + '\t' + v.code + '\t' + joined(v.reasons) + '\t' + v.detail + '\n';
      if (group.plugin.empty()) {
        group.plugin = v.plugin;
        group.reasons = v.reasons;
        group.detail = v.detail;
      } else {
        group.also.push_back(v.plugin + ": " + joined(v.reasons));
      }
    }
    auto [it, added] = index.try_emplace(key, groups.size());
    if (added) groups.push_back(std::move(group));
    groups[it->second].nodes.push_back(node.name);
  }
  // Nodes come by name, so each group's first node is its smallest.
  std::stable_sort(groups.begin(), groups.end(), [](const VerdictGroup& a, const VerdictGroup& b) {
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
    return a.nodes.front() < b.nodes.front();
  });
  return groups;
}

namespace explain_detail {

const NodeReport* report_of(const CycleReport& cycle, const std::string& node) {
  const auto it =
      std::lower_bound(cycle.nodes.begin(), cycle.nodes.end(), node,
                       [](const NodeReport& r, const std::string& name) { return r.name < name; });
  return it != cycle.nodes.end() && it->name == node ? &*it : nullptr;
}

std::vector<std::string> failing_plugins(const NodeReport& report) {
  std::vector<std::string> out;
  for (const FilterVerdict& v : report.filters) {
    if (v.failed()) out.push_back(v.plugin);
  }
  return out;
}

}  // namespace explain_detail
}  // namespace gpusched
