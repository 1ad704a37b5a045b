// explain's JSON (scenario-format.md §4). Keys follow the contract's order; the additions the
// contract allows come after them in each object: feasible and nominatedPodsCounted for a node,
// detail for a verdict, detail and also for a group, candidate and whyNot for a preemption dry
// run, and the cycle's best nodes and nomination.
#include <nlohmann/json.hpp>

#include "gpusched/report/explain_writer.hpp"
#include "report/json_records.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

Json node_json(const NodeReport& node) {
  Json json;
  json["name"] = node.name;
  Json filters = Json::array();
  for (const FilterVerdict& v : node.filters) {
    Json f;
    f["plugin"] = v.plugin;
    f["code"] = v.code;
    f["reasons"] = v.reasons;
    if (!v.detail.empty()) f["detail"] = v.detail;
    filters.push_back(std::move(f));
  }
  json["filters"] = std::move(filters);
  Json scores = Json::object();
  for (const auto& [plugin, score] : node.scores) scores[plugin] = score;
  json["scores"] = std::move(scores);
  json["total"] = node.feasible ? Json(node.total) : Json();
  json["feasible"] = node.feasible;
  json["nominatedPodsCounted"] = node.nominated_pods_counted;
  return json;
}

}  // namespace

void write_explanation_json(std::ostream& out, const Explanation& e) {
  Json json;
  json["pod"] = e.pod;
  json["time"] = format_duration(e.time);
  json["phase"] = e.phase;
  json["message"] = string_or_null(e.message);
  json["layer"] = std::string(to_string(e.layer));
  json["diagnosis"] = e.diagnosis;
  Json nodes = Json::array();
  for (const NodeReport& node : e.cycle.nodes) nodes.push_back(node_json(node));
  json["nodes"] = std::move(nodes);
  Json groups = Json::array();
  for (const VerdictGroup& g : e.groups) {
    Json group;
    group["count"] = g.nodes.size();
    group["plugin"] = g.plugin;
    group["reasons"] = g.reasons;
    group["nodes"] = g.nodes;
    if (!g.detail.empty()) group["detail"] = g.detail;
    if (!g.also.empty()) group["also"] = g.also;
    groups.push_back(std::move(group));
  }
  json["groups"] = std::move(groups);
  Json preemption = Json::array();
  for (const PreemptionReport& p : e.cycle.preemption) {
    Json node;
    node["node"] = p.node;
    node["victims"] = p.victims;
    node["pdbViolations"] = p.pdb_violations;
    node["candidate"] = p.candidate;
    if (!p.why_not.empty()) node["whyNot"] = p.why_not;
    preemption.push_back(std::move(node));
  }
  json["preemption"] = std::move(preemption);
  Json remedies = Json::array();
  for (const Remedy& r : e.remedies) {
    Json remedy = remedy_json(r);
    remedy["whyNot"] = string_or_null(r.why_not);
    remedies.push_back(std::move(remedy));
  }
  json["remedies"] = std::move(remedies);
  json["node"] = string_or_null(e.node);
  json["best"] = e.cycle.placement.best;
  json["nominatedNode"] = string_or_null(e.cycle.placement.nominated_node);
  json["preemptionRefused"] = string_or_null(e.cycle.preemption_refused);
  out << json.dump(2) << '\n';
}

}  // namespace gpusched::report
