// The what-if answer: kubectl-like tables, then why each unbound pod waits and whom each
// preemption evicts.

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "gpusched/model/time.hpp"
#include "gpusched/report/whatif.hpp"
#include "report/json_records.hpp"
#include "report/kubectl_cells.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

std::size_t victim_count(const WhatIfPod& pod) {
  std::size_t count = 0;
  for (const PreemptionRecord& p : pod.preemptions) count += p.victims.size();
  return count;
}

void write_pods(std::string& out, const WhatIf& whatif, bool added, std::string_view title) {
  std::string table = "NAMESPACE\tNAME\tSTATUS\tNODE\tNOMINATED NODE\tVICTIMS\n";
  std::size_t rows = 0;
  for (const WhatIfPod& pod : whatif.pods) {
    if (pod.added != added) continue;
    const auto slash = pod.pod.find('/');
    table += pod.pod.substr(0, slash) + '\t' + pod.pod.substr(slash + 1) + '\t' + pod.status +
             '\t' + or_none(pod.node) + '\t' + or_none(pod.nominated_node) + '\t' +
             std::to_string(victim_count(pod)) + '\n';
    ++rows;
  }
  if (rows == 0 && !added) return;
  out.append("\n").append(title).append("\n");
  out += rows == 0 ? std::string("<none>\n") : align_tabs(table, kGetSettings);
}

// A pod whose schedulerName no profile serves is never queued (eventhandlers.go
// responsibleForPod): kube-scheduler writes it no condition and no event. Empty when a profile
// serves it.
std::string unserved_message(const std::string& name, const std::vector<std::string>& schedulers) {
  if (schedulers.empty() ||
      std::find(schedulers.begin(), schedulers.end(), name) != schedulers.end())
    return {};
  std::string served;
  for (const std::string& s : schedulers) served += (served.empty() ? "" : ", ") + s;
  return "no scheduler profile serves its schedulerName \"" + name + "\" (this replay runs " +
         served +
         "): kube-scheduler never tries it and leaves it Pending without a condition or event";
}

std::string gpus(std::int64_t count) {
  return std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
}

}  // namespace

bool WhatIf::all_added_bound() const noexcept {
  for (const WhatIfPod& pod : pods) {
    if (pod.added && pod.node.empty()) return false;
  }
  return true;
}

WhatIf what_if(const SimulationResult& result, std::string cluster,
               const std::set<std::string>& existing, const std::set<std::string>& waiting,
               const std::vector<std::string>& schedulers) {
  WhatIf out;
  out.cluster = std::move(cluster);
  out.settled_at = result.time;
  std::map<std::string, std::vector<PreemptionRecord>> preemptions;
  for (const PreemptionRecord& p : result.preemptions) preemptions[p.preemptor].push_back(p);
  std::vector<WhatIfPod> waited;
  for (const PodRecord& record : result.pods) {
    const std::string key = record.pod.key();
    const bool added = !existing.contains(key);
    if (!added && !waiting.contains(key)) continue;
    WhatIfPod pod;
    pod.pod = key;
    pod.added = added;
    pod.status = pod_status(record);
    pod.node = record.pod.spec.node_name;
    pod.nominated_node = record.pod.status.nominated_node_name;
    if (const PodCondition* scheduled = record.pod.status.condition("PodScheduled");
        scheduled != nullptr && scheduled->status == "False" && pod.node.empty()) {
      pod.reason = scheduled->reason;
      pod.message = scheduled->message;
    } else if (pod.node.empty()) {
      pod.message = unserved_message(record.pod.spec.scheduler_name, schedulers);
    }
    if (auto it = preemptions.find(key); it != preemptions.end()) pod.preemptions = it->second;
    (added ? out.pods : waited).push_back(std::move(pod));
  }
  out.pods.insert(out.pods.end(), waited.begin(), waited.end());
  return out;
}

void write_whatif_table(std::ostream& out, const WhatIf& whatif) {
  std::string text =
      "What if on " + whatif.cluster + ", settled at " + format_duration(whatif.settled_at) + "\n";
  write_pods(text, whatif, true, "ADDED PODS");
  write_pods(text, whatif, false, "PODS WAITING IN THE SNAPSHOT");

  std::string why;
  for (const WhatIfPod& pod : whatif.pods) {
    if (pod.node.empty()) {
      why += pod.pod + ": " + (pod.message.empty() ? "not scheduled yet" : pod.message) + '\n';
    }
  }
  if (!why.empty()) text += "\nWHY NOT SCHEDULED\n" + why;

  std::string preempted;
  for (const WhatIfPod& pod : whatif.pods) {
    for (const PreemptionRecord& p : pod.preemptions) {
      for (const VictimRecord& v : p.victims) {
        preempted += pod.pod + "\ton " + p.node + "\tevicts " + v.pod + "\t(priority " +
                     std::to_string(v.priority) + ", " + gpus(v.gpus) + ", ran " +
                     format_duration(v.ran) + ")\n";
      }
    }
  }
  if (!preempted.empty()) text += "\nPREEMPTIONS\n" + align_tabs(preempted, kDescribeSettings);

  std::size_t added = 0;
  std::size_t bound = 0;
  for (const WhatIfPod& pod : whatif.pods) {
    if (!pod.added) continue;
    ++added;
    if (!pod.node.empty()) ++bound;
  }
  text += "\n" + std::to_string(bound) + " of " + std::to_string(added) +
          " added pods would get a node\n";
  out << text;
}

void write_whatif_json(std::ostream& out, const WhatIf& whatif) {
  using Json = nlohmann::ordered_json;
  Json pods = Json::array();
  for (const WhatIfPod& pod : whatif.pods) {
    Json item;
    item["pod"] = pod.pod;
    item["added"] = pod.added;
    item["status"] = pod.status;
    item["node"] = string_or_null(pod.node);
    item["nominatedNode"] = string_or_null(pod.nominated_node);
    item["reason"] = string_or_null(pod.reason);
    item["message"] = string_or_null(pod.message);
    Json preemptions = Json::array();
    for (const PreemptionRecord& p : pod.preemptions) preemptions.push_back(preemption_json(p));
    item["preemptions"] = std::move(preemptions);
    pods.push_back(std::move(item));
  }
  Json root;
  root["cluster"] = whatif.cluster;
  root["settledAt"] = format_duration(whatif.settled_at);
  root["allAddedBound"] = whatif.all_added_bound();
  root["pods"] = std::move(pods);
  out << root.dump(2) << '\n';
}

}  // namespace gpusched::report
