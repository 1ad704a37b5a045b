#include "gpusched/plan/compare.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/go_text.hpp"
#include "plan/parallel.hpp"
#include "report/json_records.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::plan {
namespace {

using Json = nlohmann::ordered_json;

/// The claims reserved for each consumer ("Pod/ns/name"), in the result's order.
using ClaimsByConsumer =
    std::map<std::string, std::vector<const ResourceClaimRecord*>, std::less<>>;

ClaimsByConsumer claims_by_consumer(const std::vector<ResourceClaimRecord>& claims) {
  ClaimsByConsumer out;
  for (const ResourceClaimRecord& claim : claims) {
    for (const std::string& consumer : claim.reserved_for) {
      std::vector<const ResourceClaimRecord*>& held = out[consumer];
      // A consumer listed twice in one claim still holds it once.
      if (held.empty() || held.back() != &claim) held.push_back(&claim);
    }
  }
  return out;
}

std::string detail(const PodRecord& record, const ClaimsByConsumer& claims) {
  std::vector<std::string> parts;
  if (!record.preempted_by.empty()) parts.push_back("preempted by " + record.preempted_by);
  if (record.pod.spec.node_name.empty() || record.pod.status.phase == PodPhase::Failed) {
    if (const std::string* message = record.pod.message(); message && !message->empty())
      parts.push_back(*message);
  }
  for (const auto& [resource, ids] : record.devices) parts.push_back(resource + ": " + joined(ids, ","));
  if (const auto held = claims.find("Pod/" + record.pod.key()); held != claims.end()) {
    for (const ResourceClaimRecord* claim : held->second) {
      std::vector<std::string> devices;
      for (const ClaimDeviceRecord& d : claim->devices)
        devices.push_back(d.driver + "/" + d.pool + "/" + d.device);
      parts.push_back("claim " + claim->name + ": " + joined(devices, ","));
    }
  }
  return joined(parts, "; ");
}

}  // namespace

std::string pod_outcome(const PodRecord& record) {
  std::string out = record.terminating ? std::string("Terminating")
                                       : std::string(to_string(record.pod.status.phase));
  if (!record.pod.spec.node_name.empty()) out += " on " + record.pod.spec.node_name;
  if (record.scheduled) out += " from " + format_duration(*record.scheduled);
  return out;
}

std::string pod_detail(const PodRecord& record, const std::vector<ResourceClaimRecord>& claims) {
  return detail(record, claims_by_consumer(claims));
}

Comparison compare(const std::vector<Variant>& variants, unsigned jobs,
                   const SimulationOptions& options) {
  SimulationOptions quiet = options;
  quiet.progress = nullptr;
  Comparison out;
  out.metrics.resize(variants.size());
  // Per pod, its outcome and detail in each variant; a replay's records are dropped as soon as
  // read.
  std::vector<std::map<std::string, std::pair<std::string, std::string>>> outcomes(
      variants.size());
  for_each_parallel(variants.size(), jobs, [&](std::size_t i) {
    Scenario scenario = variants[i].scenario;
    scenario.expect.clear();
    const SimulationResult result = simulate(scenario, quiet);
    out.metrics[i] = report::summary_metrics(result);
    const ClaimsByConsumer claims = claims_by_consumer(result.resource_claims);
    for (const PodRecord& record : result.pods)
      outcomes[i][record.pod.key()] = {pod_outcome(record), detail(record, claims)};
  });
  for (const Variant& variant : variants) out.names.push_back(variant.name);
  std::map<std::string, PodOutcomes> by_pod;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    for (auto& [pod, outcome] : outcomes[i]) {
      PodOutcomes& row = by_pod[pod];
      row.outcomes.resize(variants.size(), "absent");
      row.details.resize(variants.size());
      row.outcomes[i] = std::move(outcome.first);
      row.details[i] = std::move(outcome.second);
    }
  }
  for (auto& [pod, row] : by_pod) {
    const std::vector<std::string>& o = row.outcomes;
    if (std::adjacent_find(o.begin(), o.end(), std::not_equal_to<>()) == o.end()) continue;
    row.pod = pod;
    out.differing.push_back(std::move(row));
  }
  return out;
}

void write_comparison_table(std::ostream& out, const Comparison& comparison) {
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::string>> cells;
  for (std::size_t i = 0; i < comparison.metrics.size(); ++i) {
    for (const report::Metric& metric : comparison.metrics[i]) {
      auto [it, added] = cells.try_emplace(metric.name, comparison.names.size(), "-");
      if (added) names.push_back(metric.name);
      it->second[i] = report::format_metric(metric);
    }
  }
  std::string text = "METRIC\t";
  for (const std::string& name : comparison.names) text += name + "\t";
  text += "\n";
  for (const std::string& name : names) {
    text += name + "\t";
    for (const std::string& cell : cells[name]) text += cell + "\t";
    text += "\n";
  }
  out << report::align_tabs(text, report::kGetSettings);
  out << "\nPods whose outcome differs: " << comparison.differing.size() << "\n";
  if (comparison.differing.empty()) return;
  text = "POD\t";
  for (const std::string& name : comparison.names) text += name + "\t";
  text += "\n";
  for (const PodOutcomes& pod : comparison.differing) {
    text += pod.pod + "\t";
    for (const std::string& outcome : pod.outcomes) text += outcome + "\t";
    text += "\n";
  }
  out << report::align_tabs(text, report::kGetSettings);
  // Why, a line per pod and variant: messages are too long for a column each.
  text = "POD\tVARIANT\tDETAIL\n";
  bool any = false;
  for (const PodOutcomes& pod : comparison.differing) {
    for (std::size_t i = 0; i < pod.details.size(); ++i) {
      if (pod.details[i].empty()) continue;
      any = true;
      text += pod.pod + "\t" + comparison.names[i] + "\t" + pod.details[i] + "\n";
    }
  }
  if (any) out << "\n" << report::align_tabs(text, report::kGetSettings);
}

void write_comparison_json(std::ostream& out, const Comparison& comparison) {
  Json json;
  json["variants"] = Json::array();
  for (std::size_t i = 0; i < comparison.names.size(); ++i) {
    Json variant;
    variant["name"] = comparison.names[i];
    variant["metrics"] = report::metrics_json(comparison.metrics[i]);
    json["variants"].push_back(std::move(variant));
  }
  json["differing"] = Json::array();
  for (const PodOutcomes& pod : comparison.differing) {
    Json entry;
    entry["pod"] = pod.pod;
    entry["outcomes"] = Json::object();
    for (std::size_t i = 0; i < comparison.names.size(); ++i)
      entry["outcomes"][comparison.names[i]] = pod.outcomes[i];
    entry["details"] = Json::object();
    for (std::size_t i = 0; i < comparison.names.size(); ++i)
      entry["details"][comparison.names[i]] = pod.details[i];
    json["differing"].push_back(std::move(entry));
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_comparison_csv(std::ostream& out, const Comparison& comparison) {
  std::vector<report::RunRow> rows;
  for (std::size_t i = 0; i < comparison.names.size(); ++i)
    rows.push_back({{comparison.names[i]}, comparison.metrics[i]});
  report::write_runs_csv(out, {"variant"}, rows);
}

}  // namespace gpusched::plan
