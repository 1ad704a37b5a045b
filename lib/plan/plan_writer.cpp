#include <set>

#include <nlohmann/json.hpp>

#include "gpusched/plan/plan.hpp"
#include "model/decimal.hpp"
#include "report/json_records.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::plan {
namespace {

using Json = nlohmann::ordered_json;

/// The objectives' metrics, then the figures every plan shows, each once.
std::vector<std::string> shown_metrics(const std::vector<report::Objective>& objectives) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const report::Objective& objective : objectives) {
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

std::string objectives_text(const std::vector<report::Objective>& objectives) {
  std::string text;
  for (const report::Objective& objective : objectives)
    text += (text.empty() ? "" : ", ") + objective.text;
  return text;
}

/// The table's columns after the parameters: MET, the shown metrics, UNMET.
std::string outcome_header(const std::vector<std::string>& names) {
  std::string text = "MET\t";
  for (const std::string& name : names) text += upper(name) + "\t";
  return text + "UNMET\t\n";
}

std::string outcome_cells(bool met, const std::vector<report::Metric>& metrics,
                          const std::vector<std::string>& unmet,
                          const std::vector<std::string>& names) {
  std::string text = std::string(met ? "yes" : "no") + "\t";
  for (const std::string& name : names) {
    auto metric = report::find_metric(metrics, name);
    text += (metric ? report::format_metric(*metric) : std::string("-")) + "\t";
  }
  std::string missed;
  for (const std::string& objective : unmet) missed += (missed.empty() ? "" : ", ") + objective;
  return text + (missed.empty() ? std::string("-") : missed) + "\t\n";
}

Json outcome_json(Json entry, bool met, const std::vector<std::string>& unmet,
                  const std::vector<report::Metric>& metrics) {
  entry["met"] = met;
  entry["unmet"] = unmet;
  entry["metrics"] = report::metrics_json(metrics);
  return entry;
}

/// Exact in JSON and CSV; in cents in the table, as the cost metric is.
std::string price_text(std::int64_t micros) {
  return decimal_text(micros, 6);
}

std::string price_cents(std::int64_t micros) {
  return fixed_text(static_cast<double>(micros) / 1e6, 2);
}

std::string sizes_text(const MixPlanRequest& request, const std::vector<std::int32_t>& sizes) {
  std::string text;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    text += (i ? ", " : "") + request.pools[i].pool + "=" + std::to_string(sizes[i]);
  return text;
}

std::string queue_label(const QuotaRange& range) {
  return range.flavor.empty() ? range.cluster_queue : range.cluster_queue + ":" + range.flavor;
}

std::string quotas_text(const QuotaPlanRequest& request, const std::vector<std::int32_t>& quotas) {
  std::string text;
  for (std::size_t i = 0; i < quotas.size(); ++i)
    text += (i ? ", " : "") + queue_label(request.queues[i]) + "=" + std::to_string(quotas[i]);
  return text;
}

}  // namespace

void write_quota_table(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan) {
  if (plan.answer) {
    out << "nominalQuota of nvidia.com/gpu: "
        << quotas_text(request, plan.trials[*plan.answer].quotas) << " meets "
        << objectives_text(request.objectives) << "\n\n";
  } else {
    out << "No nominalQuota of nvidia.com/gpu in range meets "
        << objectives_text(request.objectives) << "\n\n";
  }
  const std::vector<std::string> names = shown_metrics(request.objectives);
  std::string text;
  for (const QuotaRange& range : request.queues) text += upper(queue_label(range)) + "\t";
  text += outcome_header(names);
  for (const QuotaTrial& trial : plan.trials) {
    for (std::int32_t quota : trial.quotas) text += std::to_string(quota) + "\t";
    text += outcome_cells(trial.met, trial.metrics, trial.unmet, names);
  }
  out << report::align_tabs(text, report::kGetSettings);
}

void write_quota_json(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan) {
  auto quotas_json = [&](const std::vector<std::int32_t>& quotas) {
    Json json = Json::object();
    for (std::size_t i = 0; i < quotas.size(); ++i)
      json[queue_label(request.queues[i])] = quotas[i];
    return json;
  };
  Json json;
  json["resource"] = "nvidia.com/gpu";
  json["clusterQueues"] = Json::array();
  for (const QuotaRange& range : request.queues) {
    json["clusterQueues"].push_back({{"clusterQueue", range.cluster_queue},
                                     {"flavor", range.flavor.empty() ? Json() : Json(range.flavor)},
                                     {"min", range.min},
                                     {"max", range.max}});
  }
  json["objectives"] = Json::array();
  for (const report::Objective& objective : request.objectives)
    json["objectives"].push_back(objective.text);
  json["answer"] = Json();
  if (plan.answer) {
    const QuotaTrial& best = plan.trials[*plan.answer];
    json["answer"] = {{"quotas", quotas_json(best.quotas)},
                      {"metrics", report::metrics_json(best.metrics)}};
  }
  json["trials"] = Json::array();
  for (const QuotaTrial& trial : plan.trials) {
    Json entry;
    entry["quotas"] = quotas_json(trial.quotas);
    json["trials"].push_back(outcome_json(std::move(entry), trial.met, trial.unmet, trial.metrics));
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_quota_csv(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan) {
  std::vector<std::string> columns;
  for (const QuotaRange& range : request.queues) columns.push_back(queue_label(range));
  columns.emplace_back("met");
  std::vector<report::RunRow> rows;
  for (const QuotaTrial& trial : plan.trials) {
    report::RunRow row{{}, trial.metrics};
    for (std::int32_t quota : trial.quotas) row.params.push_back(std::to_string(quota));
    row.params.emplace_back(trial.met ? "true" : "false");
    rows.push_back(std::move(row));
  }
  report::write_runs_csv(out, columns, rows);
}

void write_plan_table(std::ostream& out, const PoolPlanRequest& request, const PoolPlan& plan) {
  if (plan.answer) {
    out << "Pool " << request.pool << ": " << *plan.answer << " node(s) meet "
        << objectives_text(request.objectives) << "\n\n";
  } else {
    out << "Pool " << request.pool << ": no size from " << request.min << " to " << request.max
        << " meets " << objectives_text(request.objectives) << "\n\n";
  }
  const std::vector<std::string> names = shown_metrics(request.objectives);
  std::string text = "SIZE\t" + outcome_header(names);
  for (const PlanTrial& trial : plan.trials) {
    text += std::to_string(trial.size) + "\t" +
            outcome_cells(trial.met, trial.metrics, trial.unmet, names);
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
    json["trials"].push_back(outcome_json(std::move(entry), trial.met, trial.unmet, trial.metrics));
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_plan_csv(std::ostream& out, const PoolPlan& plan) {
  std::vector<report::RunRow> rows;
  for (const PlanTrial& trial : plan.trials)
    rows.push_back({{std::to_string(trial.size), trial.met ? "true" : "false"}, trial.metrics});
  report::write_runs_csv(out, {"size", "met"}, rows);
}

void write_mix_table(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan) {
  if (plan.answer) {
    const MixTrial& best = plan.trials[*plan.answer];
    out << "Cheapest mix: " << sizes_text(request, best.sizes) << " at "
        << price_cents(best.price_micros_per_hour) << " per hour meets "
        << objectives_text(request.objectives) << "\n\n";
  } else {
    out << "No mix of the pools' sizes meets " << objectives_text(request.objectives) << "\n\n";
  }
  const std::vector<std::string> names = shown_metrics(request.objectives);
  std::string text;
  for (const PoolRange& range : request.pools) text += upper(range.pool) + "\t";
  text += "PRICE/HOUR\t" + outcome_header(names);
  for (const MixTrial& trial : plan.trials) {
    for (std::int32_t size : trial.sizes) text += std::to_string(size) + "\t";
    text += price_cents(trial.price_micros_per_hour) + "\t" +
            outcome_cells(trial.met, trial.metrics, trial.unmet, names);
  }
  out << report::align_tabs(text, report::kGetSettings);
}

void write_mix_json(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan) {
  auto sizes_json = [&](const std::vector<std::int32_t>& sizes) {
    Json json = Json::object();
    for (std::size_t i = 0; i < sizes.size(); ++i) json[request.pools[i].pool] = sizes[i];
    return json;
  };
  Json json;
  json["pools"] = Json::array();
  for (const PoolRange& range : request.pools)
    json["pools"].push_back({{"pool", range.pool}, {"min", range.min}, {"max", range.max}});
  json["objectives"] = Json::array();
  for (const report::Objective& objective : request.objectives)
    json["objectives"].push_back(objective.text);
  json["answer"] = Json();
  if (plan.answer) {
    const MixTrial& best = plan.trials[*plan.answer];
    json["answer"] = {{"sizes", sizes_json(best.sizes)},
                      {"pricePerHour", price_text(best.price_micros_per_hour)}};
  }
  json["trials"] = Json::array();
  for (const MixTrial& trial : plan.trials) {
    Json entry;
    entry["sizes"] = sizes_json(trial.sizes);
    entry["pricePerHour"] = price_text(trial.price_micros_per_hour);
    json["trials"].push_back(outcome_json(std::move(entry), trial.met, trial.unmet, trial.metrics));
  }
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_mix_csv(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan) {
  std::vector<std::string> columns;
  for (const PoolRange& range : request.pools) columns.push_back(range.pool);
  columns.insert(columns.end(), {"pricePerHour", "met"});
  std::vector<report::RunRow> rows;
  for (const MixTrial& trial : plan.trials) {
    report::RunRow row{{}, trial.metrics};
    for (std::int32_t size : trial.sizes) row.params.push_back(std::to_string(size));
    row.params.push_back(price_text(trial.price_micros_per_hour));
    row.params.emplace_back(trial.met ? "true" : "false");
    rows.push_back(std::move(row));
  }
  report::write_runs_csv(out, columns, rows);
}

}  // namespace gpusched::plan
