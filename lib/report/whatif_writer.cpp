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
#include "report/pod_claims.hpp"
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

// The claims of the pods listed, with the devices each got: a claim is in its pod's namespace.
void write_claims(std::string& out, const WhatIf& whatif) {
  std::string table = "POD\tCLAIM\tALLOCATED\tNODE\tDEVICES\n";
  bool any = false;
  for (const WhatIfPod& pod : whatif.pods) {
    for (const ResourceClaimRecord& claim : pod.claims) {
      table += pod.pod + '\t' + claim.name + '\t' + (claim.allocated ? "true" : "false") + '\t' +
               or_none(claim.node.value_or("")) + '\t' + or_none(devices_text(claim)) + '\n';
      any = true;
    }
  }
  if (any) out += "\nRESOURCE CLAIMS\n" + align_tabs(table, kGetSettings);
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

// "main: nvidia.com/gpu=h100, cpu=default; other: ...", or "<none>".
std::string flavors_text(const std::map<std::string, std::map<std::string, std::string>>& flavors) {
  std::string out;
  for (const auto& [pod_set, resources] : flavors) {
    std::string list;
    for (const auto& [resource, flavor] : resources)
      list += (list.empty() ? "" : ", ") + resource + "=" + flavor;
    out += (out.empty() ? "" : "; ") + pod_set + ": " + list;
  }
  return or_none(out);
}

// Whether the pod is one of the Job's (its controller's ownerReference).
bool owned_by_job(const Pod& pod, const std::string& job) {
  for (const OwnerReference& owner : *pod.metadata.owner_references) {
    if (owner.kind == "Job" && pod.metadata.namespace_ + "/" + owner.name == job) return true;
  }
  return false;
}

// The Kueue part of the answer: each added Job's Workload, as Kueue left it at the snapshot's
// instant and as the replay went on.
std::vector<WhatIfWorkload> added_workloads(const SimulationResult& result,
                                            const std::set<std::string>& added_jobs,
                                            const std::vector<WorkloadRecord>& at_start) {
  std::vector<WhatIfWorkload> out;
  for (const WorkloadRecord& record : result.workloads) {
    if (!record.owner.starts_with("Job/")) continue;
    WhatIfWorkload w;
    w.job = record.owner.substr(4);
    if (!added_jobs.contains(w.job)) continue;
    w.workload = record.namespace_ + "/" + record.name;
    w.cluster_queue = record.cluster_queue.value_or("");
    w.priority = record.priority;
    w.flavors = record.flavors;
    for (const WorkloadRecord& start : at_start) {
      if (start.namespace_ != record.namespace_ || start.name != record.name) continue;
      w.admitted_now = start.admitted;
      // Admitted says it is; while it is not, QuotaReserved carries Kueue's reason (the flavor
      // assigner's or the queue's message).
      for (const kueue::Condition& c : start.conditions) {
        if (c.type == (start.admitted ? "Admitted" : "QuotaReserved")) w.condition = c;
      }
    }
    for (const QuotaSpan& span : result.quota_spans) {
      if (span.workload == w.workload && span.reserved) {
        w.quota_reserved = span.reserved;
        break;
      }
    }
    for (const EventRecord& e : result.events) {
      if (e.reason == "PreemptedWorkload" && e.object == "Workload/" + w.workload)
        w.preemptions.push_back(e);
    }
    for (const PodRecord& pod : result.pods) {
      if (!owned_by_job(pod.pod, w.job)) continue;
      ++w.pods;
      w.pod_names.push_back(pod.pod.key());
      if (pod.scheduled) {
        ++w.pods_bound;
        if (!w.started || *pod.scheduled < *w.started) w.started = pod.scheduled;
      }
    }
    out.push_back(std::move(w));
  }
  std::sort(out.begin(), out.end(),
            [](const WhatIfWorkload& a, const WhatIfWorkload& b) { return a.job < b.job; });
  return out;
}

void write_workloads(std::string& out, const WhatIf& whatif) {
  if (whatif.workloads.empty()) return;
  std::string table =
      "JOB\tWORKLOAD\tCLUSTERQUEUE\tADMITTED NOW\tQUOTA RESERVED\tFLAVORS\tPODS BOUND\tSTARTED\n";
  std::string now;
  for (const WhatIfWorkload& w : whatif.workloads) {
    table += w.job + '\t' + w.workload + '\t' + or_none(w.cluster_queue) + '\t' +
             (w.admitted_now ? "true" : "false") + '\t' +
             (w.quota_reserved ? format_duration(*w.quota_reserved) : "never") + '\t' +
             flavors_text(w.flavors) + '\t' + std::to_string(w.pods_bound) + "/" +
             std::to_string(w.pods) + '\t' +
             (w.started ? format_duration(*w.started) : std::string("<none>")) + '\n';
    now += w.workload + ": ";
    if (w.condition) {
      now += w.condition->type + "=" + w.condition->status + " " + w.condition->reason + ": " +
             w.condition->message + '\n';
    } else {
      now += "no QuotaReserved or Admitted condition yet\n";
    }
  }
  out += "\nADDED KUEUE WORKLOADS\n" + align_tabs(table, kGetSettings);
  out += "\nKUEUE AT THE SNAPSHOT'S INSTANT\n" + now;
  std::string evicted;
  for (const WhatIfWorkload& w : whatif.workloads) {
    for (const EventRecord& e : w.preemptions)
      evicted += w.workload + " at " + format_duration(e.time) + ": " + e.message + '\n';
  }
  if (!evicted.empty()) out += "\nKUEUE PREEMPTIONS\n" + evicted;
}

}  // namespace

bool WhatIf::all_added_bound() const noexcept {
  for (const WhatIfPod& pod : pods) {
    if (pod.added && pod.node.empty()) return false;
  }
  for (const WhatIfWorkload& w : workloads) {
    if (!w.quota_reserved || w.pods_bound < w.pods) return false;
  }
  return true;
}

WhatIf what_if(const SimulationResult& result, std::string cluster,
               const std::set<std::string>& existing, const std::set<std::string>& waiting,
               const std::vector<std::string>& schedulers, const std::set<std::string>& added_jobs,
               const std::vector<WorkloadRecord>& at_start) {
  WhatIf out;
  out.cluster = std::move(cluster);
  out.settled_at = result.time;
  std::map<std::string, std::vector<PreemptionRecord>> preemptions;
  for (const PreemptionRecord& p : result.preemptions) preemptions[p.preemptor].push_back(p);
  const ClaimsByName claims = claims_by_name(result.resource_claims);
  // A pod the scheduler never tried may still have been told why by a controller: the
  // resourceclaim controller's FailedResourceClaimCreation (a template missing from the dump).
  std::map<std::string, const EventRecord*, std::less<>> claim_failures;
  for (const EventRecord& event : result.events) {
    if (event.reason == "FailedResourceClaimCreation" && event.object.starts_with("Pod/"))
      claim_failures.insert_or_assign(event.object.substr(4), &event);
  }
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
    if (pod.node.empty() && pod.message.empty()) {
      if (const auto it = claim_failures.find(key); it != claim_failures.end()) {
        pod.reason = it->second->reason;
        pod.message = "waits for its ResourceClaim: " + it->second->message;
      }
    }
    if (auto it = preemptions.find(key); it != preemptions.end()) pod.preemptions = it->second;
    for (const ResourceClaimRecord* claim : pod_claims(record.pod, claims))
      pod.claims.push_back(*claim);
    (added ? out.pods : waited).push_back(std::move(pod));
  }
  out.pods.insert(out.pods.end(), waited.begin(), waited.end());
  out.workloads = added_workloads(result, added_jobs, at_start);
  return out;
}

void write_whatif_table(std::ostream& out, const WhatIf& whatif) {
  std::string text =
      "What if on " + whatif.cluster + ", settled at " + format_duration(whatif.settled_at) + "\n";
  write_pods(text, whatif, true, "ADDED PODS");
  write_pods(text, whatif, false, "PODS WAITING IN THE SNAPSHOT");
  write_claims(text, whatif);
  write_workloads(text, whatif);

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
  if (!whatif.workloads.empty()) {
    std::size_t reserved = 0;
    for (const WhatIfWorkload& w : whatif.workloads) reserved += w.quota_reserved ? 1 : 0;
    text += std::to_string(reserved) + " of " + std::to_string(whatif.workloads.size()) +
            " added Kueue workloads would get quota\n";
  }
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
    if (!pod.claims.empty()) {
      Json claims = Json::array();
      for (const ResourceClaimRecord& claim : pod.claims)
        claims.push_back(resource_claim_json(claim));
      item["resourceClaims"] = std::move(claims);
    }
    pods.push_back(std::move(item));
  }
  Json root;
  root["cluster"] = whatif.cluster;
  root["settledAt"] = format_duration(whatif.settled_at);
  root["allAddedBound"] = whatif.all_added_bound();
  root["pods"] = std::move(pods);
  Json workloads = Json::array();
  for (const WhatIfWorkload& w : whatif.workloads) {
    Json item;
    item["job"] = w.job;
    item["workload"] = w.workload;
    item["clusterQueue"] = string_or_null(w.cluster_queue);
    item["priority"] = w.priority;
    item["admittedNow"] = w.admitted_now;
    if (w.condition) {
      item["condition"] = {{"type", w.condition->type},
                           {"status", w.condition->status},
                           {"reason", w.condition->reason},
                           {"message", w.condition->message}};
    } else {
      item["condition"] = nullptr;
    }
    item["quotaReservedAt"] =
        w.quota_reserved ? Json(format_duration(*w.quota_reserved)) : Json(nullptr);
    item["flavors"] = w.flavors;
    item["pods"] = w.pod_names;
    item["podsBound"] = w.pods_bound;
    item["startedAt"] = w.started ? Json(format_duration(*w.started)) : Json(nullptr);
    Json preemptions = Json::array();
    for (const EventRecord& e : w.preemptions)
      preemptions.push_back(Json{{"time", format_duration(e.time)}, {"message", e.message}});
    item["preemptions"] = std::move(preemptions);
    workloads.push_back(std::move(item));
  }
  root["workloads"] = std::move(workloads);
  out << root.dump(2) << '\n';
}

}  // namespace gpusched::report
