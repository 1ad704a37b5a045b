// explain's answer for a Kueue Workload, as text and as JSON.
#include <nlohmann/json.hpp>

#include "gpusched/model/time.hpp"
#include "gpusched/report/explain_writer.hpp"
#include "report/json_records.hpp"
#include "report/kubectl_cells.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

std::string joined_reasons(const std::vector<std::string>& reasons) {
  std::string out;
  for (const std::string& r : reasons) out += (out.empty() ? "" : ", ") + r;
  return out.empty() ? "fits" : out;
}

std::string condition_text(const kueue::Condition& c) {
  return c.type + "=" + c.status + " " + c.reason + (c.message.empty() ? "" : ": " + c.message);
}

}  // namespace

void write_kueue_explanation_text(std::ostream& out, const KueueExplanation& e) {
  std::string text = "Workload " + e.workload;
  if (!e.job.empty()) text += " (Job " + e.job + ")";
  text += ": " +
          std::string(e.finished   ? "finished"
                      : e.admitted ? "admitted"
                                   : "pending") +
          " (as of " + format_duration(e.time) + ")\n";
  text += "Queue: LocalQueue " + e.local_queue + " -> ClusterQueue " + or_none(e.cluster_queue) +
          (e.cohort.empty() ? "" : " (cohort " + e.cohort + ")") + ", priority " +
          std::to_string(e.priority) + "\n";
  if (e.condition) text += "Condition: " + condition_text(*e.condition) + "\n";
  text += "Diagnosis: " + e.diagnosis + "\n";
  std::string pod_set;
  std::string table;
  auto flush = [&] {
    if (table.empty()) return;
    text += "\nQuota of pod set " + pod_set + ", per resource and flavor in ClusterQueue " +
            e.cluster_queue + "'s order:\n" + align_tabs(table, kGetSettings);
    table.clear();
  };
  for (const KueueResourceQuota& row : e.quota) {
    if (row.pod_set != pod_set) {
      flush();
      pod_set = row.pod_set;
    }
    if (table.empty()) {
      table =
          "RESOURCE\tREQUESTED\tFLAVOR\tNOMINAL\tBORROWING LIMIT\tUSAGE\tAVAILABLE\tCOHORT "
          "UNUSED\tFLAVOR ASSIGNER\n";
    }
    if (row.flavors.empty()) {
      table += row.resource + '\t' + row.requested +
               "\t<none>\t<none>\t<none>\t<none>\t<none>\t<none>\tresource " + row.resource +
               " unavailable in ClusterQueue\n";
    }
    for (const KueueFlavorQuota& f : row.flavors) {
      table += row.resource + '\t' + row.requested + '\t' + f.flavor + '\t' + f.nominal_quota +
               '\t' + f.borrowing_limit.value_or("<none>") + '\t' + f.usage + '\t' + f.available +
               '\t' + f.cohort_unused.value_or("<none>") + '\t' + joined_reasons(f.reasons) + '\n';
    }
  }
  flush();
  if (!e.would_preempt.empty()) {
    text += "\nKueue's preemptor would evict, to admit it now:\n";
    for (const KueueVictim& v : e.would_preempt) {
      text += "  Workload " + v.workload + " of ClusterQueue " + v.cluster_queue + " (" + v.reason +
              ")\n";
    }
  }
  if (!e.remedies.empty()) {
    text += "\nRemedies, each verified by replaying the scenario with it:\n";
    for (const Remedy& r : e.remedies) {
      text += "  " + r.change + ": its pods all bound at " + format_duration(*r.scheduled_at) +
              (r.node.empty() ? "" : " on " + r.node) + "\n";
    }
  }
  out << text;
}

void write_kueue_explanation_json(std::ostream& out, const KueueExplanation& e) {
  using Json = nlohmann::ordered_json;
  Json json;
  json["job"] = string_or_null(e.job);
  json["workload"] = e.workload;
  json["time"] = format_duration(e.time);
  json["localQueue"] = e.local_queue;
  json["clusterQueue"] = string_or_null(e.cluster_queue);
  json["cohort"] = string_or_null(e.cohort);
  json["priority"] = e.priority;
  json["admitted"] = e.admitted;
  json["finished"] = e.finished;
  if (e.condition) {
    json["condition"] = {{"type", e.condition->type},
                         {"status", e.condition->status},
                         {"reason", e.condition->reason},
                         {"message", e.condition->message}};
  } else {
    json["condition"] = nullptr;
  }
  json["flavors"] = e.flavors;
  json["diagnosis"] = e.diagnosis;
  Json quota = Json::array();
  for (const KueueResourceQuota& row : e.quota) {
    Json item;
    item["podSet"] = row.pod_set;
    item["resource"] = row.resource;
    item["requested"] = row.requested;
    Json flavors = Json::array();
    for (const KueueFlavorQuota& f : row.flavors) {
      Json flavor;
      flavor["flavor"] = f.flavor;
      flavor["nominalQuota"] = f.nominal_quota;
      flavor["borrowingLimit"] = f.borrowing_limit ? Json(*f.borrowing_limit) : Json(nullptr);
      flavor["usage"] = f.usage;
      flavor["available"] = f.available;
      flavor["cohortUnused"] = f.cohort_unused ? Json(*f.cohort_unused) : Json(nullptr);
      flavor["reasons"] = f.reasons;
      flavors.push_back(std::move(flavor));
    }
    item["flavors"] = std::move(flavors);
    quota.push_back(std::move(item));
  }
  json["quota"] = std::move(quota);
  Json victims = Json::array();
  for (const KueueVictim& v : e.would_preempt) {
    victims.push_back(
        Json{{"workload", v.workload}, {"clusterQueue", v.cluster_queue}, {"reason", v.reason}});
  }
  json["wouldPreempt"] = std::move(victims);
  Json remedies = Json::array();
  for (const Remedy& r : e.remedies) remedies.push_back(remedy_json(r));
  json["remedies"] = std::move(remedies);
  out << json.dump(2) << '\n';
}

}  // namespace gpusched::report
