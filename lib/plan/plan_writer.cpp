#include <set>

#include <nlohmann/json.hpp>

#include "gpusched/plan/plan.hpp"
#include "report/json_records.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::plan {
namespace {

using Json = nlohmann::ordered_json;

/// The objectives' metrics, then the figures every plan shows, each once.
std::vector<std::string> shown_metrics(const PoolPlanRequest& request) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const report::Objective& objective : request.objectives) {
    if (seen.insert(objective.metric).second) names.push_back(objective.metric);
  }
  for (const char* name : {"pending", "wait.p95", "allocation.nvidia.com/gpu"}) {
    if (seen.insert(name).second) names.emplace_back(name);
  }
  return names;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return text;
}

std::string objectives_text(const PoolPlanRequest& request) {
  std::string text;
  for (const report::Objective& objective : request.objectives)
    text += (text.empty() ? "" : ", ") + objective.text;
  return text;
}

}  // namespace

void write_plan_table(std::ostream& out, const PoolPlanRequest& request, const PoolPlan& plan) {
  if (plan.answer) {
    out << "Pool " << request.pool << ": " << *plan.answer << " node(s) meet "
        << objectives_text(request) << "\n\n";
  } else {
    out << "Pool " << request.pool << ": no size from " << request.min << " to " << request.max
        << " meets " << objectives_text(request) << "\n\n";
  }
  const std::vector<std::string> names = shown_metrics(request);
  std::string text = "SIZE\tMET\t";
  for (const std::string& name : names) text += upper(name) + "\t";
  text += "UNMET\t\n";
  for (const PlanTrial& trial : plan.trials) {
    text += std::to_string(trial.size) + "\t" + (trial.met ? "yes" : "no") + "\t";
    for (const std::string& name : names) {
      auto metric = report::find_metric(trial.metrics, name);
      text += (metric ? report::format_metric(*metric) : std::string("-")) + "\t";
    }
    std::string unmet;
    for (const std::string& objective : trial.unmet)
      unmet += (unmet.empty() ? "" : ", ") + objective;
    text += (unmet.empty() ? std::string("-") : unmet) + "\t\n";
  }
  out << report::align_tabs(text, report::kGetSettings);
}

void write_plan_json(std::ostream& out, const PoolPlanRequest& request, const PoolPlan& plan) {
  Json json;
  json["pool"] = request.pool;
  json["min"] = request.min;
  json["max"] = request.max;
  json["objectives"] = Json::array();
  for (const report::Objective& objective : request.objectives)
    json["objectives"].push_back(objective.text);
  json["answer"] = plan.answer ? Json(*plan.answer) : Json();
  json["trials"] = Json::array();
  for (const PlanTrial& trial : plan.trials) {
    Json entry;
    entry["size"] = trial.size;
    entry["met"] = trial.met;
    entry["unmet"] = trial.unmet;
    entry["metrics"] = report::metrics_json(trial.metrics);
    json["trials"].push_back(std::move(entry));
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_plan_csv(std::ostream& out, const PoolPlan& plan) {
  std::vector<report::RunRow> rows;
  for (const PlanTrial& trial : plan.trials)
    rows.push_back({{std::to_string(trial.size), trial.met ? "true" : "false"}, trial.metrics});
  report::write_runs_csv(out, {"size", "met"}, rows);
}

}  // namespace gpusched::plan
