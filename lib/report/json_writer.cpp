// The machine-readable result (scenario-format.md §2). Keys follow the contract's order; keys
// beyond it are additions the contract allows. ordered_json keeps insertion order, so identical
// results print byte-identical documents.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "gpusched/model/time.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/queue_metrics.hpp"
#include "gpusched/report/writers.hpp"
#include "model/decimal.hpp"
#include "report/json_records.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

Json time_or_null(const std::optional<TimeMs>& time) {
  return time ? Json(format_duration(*time)) : Json();
}

Json resources(const ResourceList& list) {
  Json object = Json::object();
  for (const auto& [name, quantity] : list) object[name] = quantity.to_string();
  return object;
}

Json pod_json(const PodRecord& record) {
  const Pod& pod = record.pod;
  Json json;
  json["namespace"] = pod.metadata.namespace_;
  json["name"] = pod.metadata.name;
  json["phase"] = std::string(to_string(pod.status.phase));
  json["nodeName"] = string_or_null(pod.spec.node_name);
  // The kubelet's status.reason / message, else the PodScheduled condition's (null when none).
  json["reason"] = pod.reason() != nullptr ? Json(*pod.reason()) : Json();
  json["message"] = pod.message() != nullptr ? Json(*pod.message()) : Json();
  json["nominatedNodeName"] = string_or_null(pod.status.nominated_node_name);
  json["requests"] = resources(record.requests);
  json["terminating"] = record.terminating;
  json["createdAt"] = time_or_null(record.created);
  json["scheduledAt"] = time_or_null(record.scheduled);
  json["finishedAt"] = time_or_null(record.finished);
  json["devices"] = record.devices;
  json["visibleDevices"] = string_or_null(record.visible_devices);
  json["wait"] = time_or_null(record.wait());
  json["preemptions"] = record.preemptions;
  json["preemptedBy"] = string_or_null(record.preempted_by);
  return json;
}

Json node_json(const NodeRecord& record) {
  Json json;
  json["name"] = record.node.metadata.name;
  json["capacity"] = resources(record.node.capacity);
  json["allocatable"] = resources(record.node.allocatable);
  json["allocated"] = resources(record.allocated);
  json["pods"] = record.pods;
  if (!record.gpus.empty()) {
    Json gpus = Json::array();
    for (const GpuRecord& gpu : record.gpus) {
      Json item;
      item["index"] = gpu.index;
      item["uuid"] = gpu.uuid;
      item["healthy"] = gpu.healthy;
      item["pods"] = gpu.pods;
      gpus.push_back(std::move(item));
    }
    json["gpus"] = std::move(gpus);
  }
  if (!record.shared_gpus.empty()) {
    Json gpus = Json::array();
    for (const SharedGpuRecord& gpu : record.shared_gpus) {
      Json item;
      item["index"] = gpu.index;
      item["usedMilli"] = gpu.used_milli;
      Json pods = Json::array();
      for (const auto& [pod, milli] : gpu.pods)
        pods.push_back(Json{{"pod", pod}, {"milli", milli}});
      item["pods"] = std::move(pods);
      gpus.push_back(std::move(item));
    }
    json["sharedGpus"] = std::move(gpus);
  }
  return json;
}

Json event_json(const EventRecord& event) {
  Json json;
  json["time"] = format_duration(event.time);
  json["type"] = event.type;
  json["reason"] = event.reason;
  json["object"] = event.object;
  json["message"] = event.message;
  json["count"] = event.count;
  json["lastTime"] = format_duration(event.last_time);
  return json;
}

/// `count`: what the percentiles are over ("pods", "waits").
Json wait_json(const WaitStats& stats, const char* count = "pods") {
  Json json;
  json[count] = stats.pods;
  json["p50"] = format_duration(stats.p50);
  json["p95"] = format_duration(stats.p95);
  json["p99"] = format_duration(stats.p99);
  json["max"] = format_duration(stats.max);
  return json;
}

// Queue wait (report/metrics.hpp), per priority class and namespace.
Json queue_wait_json(const QueueWait& wait) {
  Json json = wait_json(wait.all);
  json["byPriorityClass"] = Json::object();
  for (const auto& [name, stats] : wait.by_priority_class)
    json["byPriorityClass"][name] = wait_json(stats);
  json["byNamespace"] = Json::object();
  for (const auto& [name, stats] : wait.by_namespace) json["byNamespace"][name] = wait_json(stats);
  json["neverBound"] = wait.never_bound;
  json["longestPending"] = format_duration(wait.longest_pending);
  return json;
}

// A Kueue queue's waits for quota (report/queue_metrics.hpp).
Json quota_waits_json(const QuotaWaits& waits) {
  Json json = wait_json(waits.all, "waits");
  json["reserved"] = waits.reserved;
  json["waiting"] = waits.waiting;
  json["longestWaiting"] = format_duration(waits.longest_waiting);
  return json;
}

// Per ClusterQueue its waits and quotas, per LocalQueue its waits (scenario-format.md §6).
Json queue_metrics_json(const KueueMetrics& metrics) {
  Json json;
  json["clusterQueues"] = Json::object();
  for (const auto& [name, cq] : metrics.cluster_queues) {
    Json entry = quota_waits_json(cq.waits);
    entry["quota"] = Json::array();
    for (const QuotaUse& use : cq.quota) {
      Json quota;
      quota["flavor"] = use.flavor;
      quota["resource"] = use.resource;
      quota["nominalQuota"] = use.nominal.to_string();
      quota["usageHours"] = Json::parse(fixed_text(use.usage_hours, 3));
      quota["borrowedHours"] = Json::parse(fixed_text(use.borrowed_hours, 3));
      quota["meanUsage"] =
          use.nominal.milli() > 0 ? Json::parse(fixed_text(use.mean_ratio, 4)) : Json();
      entry["quota"].push_back(std::move(quota));
    }
    json["clusterQueues"][name] = std::move(entry);
  }
  json["localQueues"] = Json::object();
  for (const auto& [name, waits] : metrics.local_queues)
    json["localQueues"][name] = quota_waits_json(waits);
  return json;
}

Json expectation_json(const ExpectationResult& expectation) {
  Json json;
  json["index"] = expectation.index;
  json["ok"] = expectation.ok;
  json["message"] = expectation.message;
  json["at"] = expectation.at;
  return json;
}

nlohmann::ordered_json conditions_json(const std::vector<Condition>& conditions) {
  Json json = Json::array();
  for (const Condition& c : conditions) {
    Json condition;
    condition["type"] = c.type;
    condition["status"] = c.status;
    condition["reason"] = c.reason;
    condition["message"] = c.message;
    condition["lastTransitionTime"] = format_duration(c.last_transition_time);
    json.push_back(std::move(condition));
  }
  return json;
}

nlohmann::ordered_json pod_group_json(const PodGroupRecord& group) {
  Json json;
  json["namespace"] = group.namespace_;
  json["name"] = group.name;
  json["minCount"] = group.min_count ? Json(*group.min_count) : Json();
  json["conditions"] = conditions_json(group.conditions);
  return json;
}

}  // namespace

nlohmann::ordered_json resource_claim_json(const ResourceClaimRecord& claim) {
  Json json;
  json["namespace"] = claim.namespace_;
  json["name"] = claim.name;
  json["owner"] = claim.owner ? Json(*claim.owner) : Json();
  json["allocated"] = claim.allocated;
  json["node"] = claim.node ? Json(*claim.node) : Json();
  json["devices"] = Json::array();
  for (const ClaimDeviceRecord& d : claim.devices) {
    Json device;
    device["request"] = d.request;
    device["driver"] = d.driver;
    device["pool"] = d.pool;
    device["device"] = d.device;
    json["devices"].push_back(std::move(device));
  }
  json["reservedFor"] = claim.reserved_for;
  return json;
}

nlohmann::ordered_json metrics_json(const std::vector<Metric>& metrics) {
  Json json = Json::object();
  for (const Metric& metric : metrics) {
    // Integral values print as integers; the others keep the decimals plain_metric rounds to.
    json[metric.name] = Json::parse(plain_metric(metric));
  }
  return json;
}

nlohmann::ordered_json string_or_null(const std::string& value) {
  return value.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

nlohmann::ordered_json remedy_json(const Remedy& remedy) {
  nlohmann::ordered_json out;
  out["change"] = remedy.change;
  out["verified"] = remedy.verified;
  out["scheduledAt"] = remedy.scheduled_at
                           ? nlohmann::ordered_json(format_duration(*remedy.scheduled_at))
                           : nlohmann::ordered_json();
  out["node"] = string_or_null(remedy.node);
  return out;
}

nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption) {
  Json json;
  json["time"] = format_duration(preemption.time);
  json["preemptor"] = preemption.preemptor;
  json["node"] = preemption.node;
  json["victims"] = Json::array();
  for (const VictimRecord& v : preemption.victims) {
    Json victim;
    victim["pod"] = v.pod;
    victim["priority"] = v.priority;
    victim["gpus"] = v.gpus;
    victim["ran"] = format_duration(v.ran);
    victim["lostGpuTime"] = format_duration(v.lost_gpu_ms());
    json["victims"].push_back(std::move(victim));
  }
  return json;
}

nlohmann::ordered_json workload_json(const WorkloadRecord& wl) {
  Json json;
  json["apiVersion"] = kueue::kApiVersion;
  json["namespace"] = wl.namespace_;
  json["name"] = wl.name;
  json["owner"] = wl.owner;
  json["queueName"] = wl.queue_name;
  json["clusterQueue"] = wl.cluster_queue ? Json(*wl.cluster_queue) : Json();
  json["priority"] = wl.priority;
  json["admitted"] = wl.admitted;
  json["admittedAt"] = wl.admitted_at ? Json(format_duration(*wl.admitted_at)) : Json();
  json["flavors"] = Json::object();
  for (const auto& [pod_set, flavors] : wl.flavors) {
    Json resources = Json::object();
    for (const auto& [resource, flavor] : flavors) resources[resource] = flavor;
    json["flavors"][pod_set] = std::move(resources);
  }
  json["conditions"] = conditions_json(wl.conditions);
  // Only for a workload with admission checks: results without them keep their keys.
  for (const kueue::AdmissionCheckState& c : wl.admission_checks) {
    Json check;
    check["name"] = c.name;
    check["state"] = c.state;
    check["message"] = c.message;
    check["lastTransitionTime"] = format_duration(c.last_transition_time);
    json["admissionChecks"].push_back(std::move(check));
  }
  return json;
}

nlohmann::ordered_json cluster_queue_json(const ClusterQueueRecord& cq) {
  Json json;
  json["name"] = cq.name;
  json["cohort"] = cq.cohort ? Json(*cq.cohort) : Json();
  json["usage"] = Json::object();
  for (const auto& [flavor, resources] : cq.usage) {
    Json usage = Json::object();
    for (const auto& [resource, q] : resources) usage[resource] = q.to_string();
    json["usage"][flavor] = std::move(usage);
  }
  json["pendingWorkloads"] = cq.pending_workloads;
  json["reservingWorkloads"] = cq.reserving_workloads;
  json["admittedWorkloads"] = cq.admitted_workloads;
  if (cq.weighted_share) json["weightedShare"] = *cq.weighted_share;
  return json;
}

void write_json(std::ostream& out, const SimulationResult& result) {
  Json json;
  json["scenario"] = result.scenario;
  json["time"] = format_duration(result.time);
  json["pods"] = Json::array();
  for (const PodRecord& record : result.pods) json["pods"].push_back(pod_json(record));
  json["nodes"] = Json::array();
  for (const NodeRecord& record : result.nodes) json["nodes"].push_back(node_json(record));
  // Kueue's objects (scenario-format.md §6), when the replay ran Kueue.
  if (!result.workloads.empty() || !result.cluster_queues.empty()) {
    json["workloads"] = Json::array();
    for (const WorkloadRecord& wl : result.workloads)
      json["workloads"].push_back(workload_json(wl));
    json["clusterQueues"] = Json::array();
    for (const ClusterQueueRecord& cq : result.cluster_queues)
      json["clusterQueues"].push_back(cluster_queue_json(cq));
    json["queueMetrics"] = queue_metrics_json(kueue_metrics(result));
  }
  // scheduling.k8s.io PodGroups (Kubernetes 1.36), when the scenario has any.
  if (!result.pod_groups.empty()) {
    json["podGroups"] = Json::array();
    for (const PodGroupRecord& group : result.pod_groups)
      json["podGroups"].push_back(pod_group_json(group));
  }
  // resource.k8s.io ResourceClaims (scenario-format.md §7), when the scenario has any.
  if (!result.resource_claims.empty()) {
    json["resourceClaims"] = Json::array();
    for (const ResourceClaimRecord& claim : result.resource_claims)
      json["resourceClaims"].push_back(resource_claim_json(claim));
  }
  json["events"] = Json::array();
  for (const EventRecord& event : result.events) json["events"].push_back(event_json(event));
  json["preemptions"] = Json::array();
  std::int64_t lost = 0;
  for (const PreemptionRecord& preemption : result.preemptions) {
    json["preemptions"].push_back(preemption_json(preemption));
    for (const VictimRecord& v : preemption.victims) lost += v.lost_gpu_ms();
  }
  json["preemptionCount"] = result.preemptions.size();
  json["lostGpuTime"] = format_duration(lost);
  json["queueWait"] = queue_wait_json(queue_wait(result));
  json["metrics"] = metrics_json(summary_metrics(result));
  json["expectations"] = Json::array();
  for (const ExpectationResult& expectation : result.expectations) {
    json["expectations"].push_back(expectation_json(expectation));
  }
  json["passed"] = result.passed;
  // Messages quote user input; invalid UTF-8 is replaced rather than allowed to throw.
  out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace gpusched::report
