// The document the page's script draws. Records that a big replay has by the ten thousand
// (spans, events) are arrays rather than objects, and name pods and nodes by their index in
// `pods` and `nodes`, so that a 20,000-pod page stays a few megabytes:
//
//   scenario, source, end (ms), passed
//   metrics      [[name, value as printed]]              summary_metrics, in its order
//   resources    [[resource, allocatable h, requested h]] the fleet's resource-hours
//   gpu          {bucketMs, schedulable: [milli-GPUs], allocated: [milli-GPUs]} per bucket
//   pods         ["ns/name"]                              every pod named below
//   nodes        [[name, pool, [[gpu index or -1, uuid]]]] by name
//   spans        [[pod, created, scheduled|null, finished|null, node|-1, [gpu rows]]]
//   preemptions  [[time, preemptor, node|-1, [victims]]]
//   events       [[time, last time, count, type, reason, object, message]]
//   pending      [[pod, created, last FailedScheduling message, nominated node, layer,
//                  diagnosis, [remedies]]]                 explanation fields empty when none
//   claims       [["ns/name", owner "Kind/ns/name"|"", node|"", [[request, driver, pool,
//                  device]], [reserved for: pod], [named by: pod]]]   the ResourceClaims at the
//                                                          end, in the result's order

#include "report/html_report_data.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "gpusched/model/well_known.hpp"
#include "gpusched/report/metrics.hpp"
#include "report/pod_claims.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

Json time_or_null(const std::optional<TimeMs>& time) {
  return time ? Json(*time) : Json();
}

/// Gives each name an index in order of first use.
class Names {
 public:
  std::size_t operator()(const std::string& name) {
    auto [it, added] = index_.emplace(name, list_.size());
    if (added) list_.push_back(name);
    return it->second;
  }
  [[nodiscard]] Json json() const { return Json(list_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<std::string> list_;
};

/// Every node the run had, by name, with its pool and its GPUs as rows to draw: those a node
/// left at the end reports, by index, then (for a node gone before the end) those its pods held.
class NodeRows {
 public:
  explicit NodeRows(const SimulationResult& result) {
    for (const NodeRecord& record : result.nodes) {
      Node& node = nodes_[record.node.metadata.name];
      auto pool = record.node.metadata.labels.find(std::string(well_known::kNodePoolLabel));
      if (pool != record.node.metadata.labels.end()) node.pool = pool->second;
      for (const GpuRecord& gpu : record.gpus) node.add_gpu(gpu.index, gpu.uuid);
      for (const SharedGpuRecord& gpu : record.shared_gpus)
        node.add_gpu(gpu.index, shared_gpu_row(gpu.index));
    }
    for (const NodeUsage& usage : result.usage) {
      Node& node = nodes_[usage.node];
      if (node.pool.empty()) node.pool = usage.pool;
    }
    for (const PodSpan& span : result.pod_spans) {
      if (span.node.empty()) continue;
      Node& node = nodes_[span.node];
      for (const std::string& uuid : span.gpus) node.gpu_row(uuid);
    }
    std::size_t index = 0;
    for (auto& [name, node] : nodes_) node.index = index++;
  }

  /// The node's index in json(), -1 for none.
  [[nodiscard]] std::int64_t index(const std::string& name) const {
    auto it = nodes_.find(name);
    return it == nodes_.end() ? -1 : static_cast<std::int64_t>(it->second.index);
  }
  [[nodiscard]] Json gpu_rows(const PodSpan& span) {
    Json rows = Json::array();
    if (span.gpus.empty()) return rows;
    Node& node = nodes_[span.node];
    for (const std::string& uuid : span.gpus) rows.push_back(node.gpu_row(uuid));
    return rows;
  }
  [[nodiscard]] Json json() const {
    Json out = Json::array();
    for (const auto& [name, node] : nodes_)
      out.push_back(Json::array({name, node.pool, node.gpus}));
    return out;
  }

 private:
  struct Node {
    std::size_t index = 0;
    std::string pool;
    Json gpus = Json::array();  // [index or -1, uuid]
    std::map<std::string, std::size_t> rows;

    void add_gpu(int gpu_index, const std::string& uuid) {
      rows.emplace(uuid, gpus.size());
      gpus.push_back(Json::array({gpu_index, uuid}));
    }
    std::size_t gpu_row(const std::string& uuid) {
      auto it = rows.find(uuid);
      if (it != rows.end()) return it->second;
      add_gpu(-1, uuid);
      return gpus.size() - 1;
    }
  };
  std::map<std::string, Node> nodes_;
};

/// The fleet's GPUs per bucket, as the average milli-GPUs over the bucket (integers, so that
/// the page does not depend on how a double prints).
Json gpu_series(const SimulationResult& result) {
  constexpr double kMilliMsPerHour = 1000.0 * 3'600'000.0;
  Json schedulable = Json::array();
  Json allocated = Json::array();
  for (const GpuBucket& bucket : result.gpu_series) {
    const auto width = static_cast<double>(std::max<TimeMs>(1, bucket.to - bucket.from));
    schedulable.push_back(std::llround(bucket.schedulable_hours * kMilliMsPerHour / width));
    allocated.push_back(std::llround(bucket.allocated_hours * kMilliMsPerHour / width));
  }
  return Json{{"bucketMs", result.gpu_bucket_ms},
              {"schedulable", std::move(schedulable)},
              {"allocated", std::move(allocated)}};
}

Json resources(const SimulationResult& result) {
  const Allocation fleet = allocation(result).fleet;
  Json out = Json::array();
  for (const auto& [resource, hours] : fleet.allocatable_hours) {
    auto requested = fleet.requested_hours.find(resource);
    out.push_back(Json::array(
        {resource, hours, requested == fleet.requested_hours.end() ? 0.0 : requested->second}));
  }
  return out;
}

/// Each pod's last FailedScheduling message, by "Pod/ns/name".
std::map<std::string, std::string> last_failures(const SimulationResult& result) {
  std::map<std::string, std::pair<TimeMs, std::string>> last;
  for (const EventRecord& event : result.events) {
    if (event.reason != "FailedScheduling") continue;
    auto [it, added] = last.try_emplace(event.object, event.last_time, event.message);
    if (!added && event.last_time >= it->second.first)
      it->second = {event.last_time, event.message};
  }
  std::map<std::string, std::string> out;
  for (auto& [object, failure] : last) out.emplace(object, std::move(failure.second));
  return out;
}

Json pending(const SimulationResult& result, const HtmlReportOptions& options, Names& pods) {
  std::map<std::string, const HtmlPendingExplanation*> explained;
  for (const HtmlPendingExplanation& e : options.explanations) explained.emplace(e.pod, &e);
  const std::map<std::string, std::string> failures = last_failures(result);
  Json out = Json::array();
  for (const PodRecord& record : result.pods) {
    const Pod& pod = record.pod;
    if (pod.status.phase != PodPhase::Pending || !pod.spec.node_name.empty()) continue;
    const std::string key = pod.key();
    auto failure = failures.find("Pod/" + key);
    Json row = Json::array({pods(key), record.created.value_or(result.time),
                            failure == failures.end() ? std::string() : failure->second,
                            pod.status.nominated_node_name});
    if (auto it = explained.find(key); it != explained.end()) {
      row.push_back(it->second->layer);
      row.push_back(it->second->diagnosis);
      row.push_back(it->second->remedies);
    } else {
      row.push_back("");
      row.push_back("");
      row.push_back(Json::array());
    }
    out.push_back(std::move(row));
  }
  return out;
}

/// The claims as the run left them, each with the pods whose spec names it, so that the page
/// can list a pod's claims where it shows the pod.
Json claims(const SimulationResult& result, Names& pods) {
  const ClaimsByName by_name = claims_by_name(result.resource_claims);
  std::map<std::string, Json> named_by;  // "ns/name" -> [pod]
  for (const PodRecord& record : result.pods) {
    for (const ResourceClaimRecord* claim : pod_claims(record.pod, by_name))
      named_by[claim->namespace_ + "/" + claim->name].push_back(pods(record.pod.key()));
  }
  Json out = Json::array();
  for (const ResourceClaimRecord& claim : result.resource_claims) {
    const std::string key = claim.namespace_ + "/" + claim.name;
    Json devices = Json::array();
    for (const ClaimDeviceRecord& d : claim.devices)
      devices.push_back(Json::array({d.request, d.driver, d.pool, d.device}));
    Json reserved_for = Json::array();
    for (const std::string& consumer : claim.reserved_for)  // "Pod/ns/name"
      reserved_for.push_back(pods(consumer.substr(consumer.find('/') + 1)));
    auto users = named_by.find(key);
    out.push_back(Json::array({key, claim.owner.value_or(""), claim.node.value_or(""),
                               std::move(devices), std::move(reserved_for),
                               users == named_by.end() ? Json::array() : users->second}));
  }
  return out;
}

}  // namespace

Json html_report_data(const SimulationResult& result, const HtmlReportOptions& options) {
  Names pods;
  NodeRows nodes(result);
  Json spans = Json::array();
  for (const PodSpan& span : result.pod_spans) {
    spans.push_back(
        Json::array({pods(span.pod), span.created, time_or_null(span.scheduled),
                     time_or_null(span.finished), nodes.index(span.node), nodes.gpu_rows(span)}));
  }
  Json preemptions = Json::array();
  for (const PreemptionRecord& preemption : result.preemptions) {
    Json victims = Json::array();
    for (const VictimRecord& victim : preemption.victims) victims.push_back(pods(victim.pod));
    preemptions.push_back(Json::array({preemption.time, pods(preemption.preemptor),
                                       nodes.index(preemption.node), std::move(victims)}));
  }
  Json events = Json::array();
  for (const EventRecord& e : result.events) {
    events.push_back(
        Json::array({e.time, e.last_time, e.count, e.type, e.reason, e.object, e.message}));
  }
  Json metrics = Json::array();
  for (const Metric& metric : summary_metrics(result)) {
    metrics.push_back(Json::array({metric.name, format_metric(metric)}));
  }
  Json data;
  data["scenario"] = result.scenario;
  data["source"] = result.source;
  data["end"] = result.time;
  data["passed"] = result.passed;
  data["metrics"] = std::move(metrics);
  data["resources"] = resources(result);
  data["gpu"] = gpu_series(result);
  data["pending"] = pending(result, options, pods);
  data["claims"] = claims(result, pods);
  data["spans"] = std::move(spans);
  data["preemptions"] = std::move(preemptions);
  data["events"] = std::move(events);
  data["nodes"] = nodes.json();
  data["pods"] = pods.json();
  return data;
}

}  // namespace gpusched::report
