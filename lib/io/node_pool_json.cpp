#include "io/node_pool_json.hpp"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "io/api_validation.hpp"
#include "io/object_json.hpp"
#include "io/time_json.hpp"
#include "model/decimal.hpp"

namespace gpusched::io {
namespace {

/// A price as a JSON number or a decimal string ("2.50"), in millionths.
std::int64_t parse_price_micros(const JsonNode& node) {
  const std::string text = node.json().is_number() ? node.json().dump() : node.string();
  const std::optional<std::int64_t> micros = parse_decimal(text, 6);
  if (!micros) {
    node.fail(
        "a price must be a non-negative decimal with at most 6 decimals and 9 digits before "
        "the point, got " +
        node.json().dump());
  }
  return *micros;
}

NodePool::Reservation parse_reservation(const JsonNode& node) {
  node.reject_unknown_keys({"start", "end"});
  NodePool::Reservation out;
  if (auto start = node.get("start")) out.start = parse_time(*start);
  if (auto end = node.get("end")) {
    out.end = parse_time(*end);
    if (*out.end <= out.start) end->fail("a reservation must end after it starts");
  }
  return out;
}

NodePool::Provisioning parse_provisioning(const JsonNode& node) {
  node.reject_unknown_keys(
      {"launchDelay", "bootDelay", "driverDelay", "launchFailureProbability", "launchAttempts"});
  NodePool::Provisioning out;
  if (auto delay = node.get("launchDelay")) out.launch_delay = parse_time(*delay);
  if (auto delay = node.get("bootDelay")) out.boot_delay = parse_time(*delay);
  if (auto delay = node.get("driverDelay")) out.driver_delay = parse_time(*delay);
  if (auto probability = node.get("launchFailureProbability")) {
    const nlohmann::json& value = probability->json();
    if (!value.is_number() || !(value.get<double>() >= 0 && value.get<double>() <= 1)) {
      probability->fail("must be a number from 0 to 1, got " + value.dump());
    }
    out.launch_failure_ppm = std::llround(value.get<double>() * 1'000'000);
  }
  if (auto attempts = node.get("launchAttempts")) {
    out.launch_attempts = static_cast<std::int32_t>(attempts->integer_in(1, 100));
  }
  return out;
}

NodePool::Autoscaling parse_autoscaling(const JsonNode& node, std::int32_t count) {
  node.reject_unknown_keys({"minCount", "maxCount"});
  NodePool::Autoscaling out;
  if (auto min = node.get("minCount"))
    out.min = static_cast<std::int32_t>(min->integer_in(0, kMaxPoolNodes));
  const JsonNode max = node.required("maxCount");
  out.max = static_cast<std::int32_t>(max.integer_in(0, kMaxPoolNodes));
  // cluster-autoscaler refuses a node group whose size is outside its bounds.
  if (out.min > out.max) max.fail("maxCount must be at least minCount");
  if (count < out.min || count > out.max) {
    node.fail("the pool's count " + std::to_string(count) + " must be from minCount to maxCount");
  }
  return out;
}

}  // namespace

ClusterAutoscalerSettings parse_cluster_autoscaler(const JsonNode& node) {
  node.reject_unknown_keys({"scanInterval", "newPodScaleUpDelay", "scaleDownUnneededTime",
                            "scaleDownDelayAfterAdd", "scaleDownEnabled"});
  ClusterAutoscalerSettings out;
  if (auto v = node.get("scanInterval")) {
    out.scan_interval = parse_time(*v);
    if (out.scan_interval <= 0) v->fail("scanInterval must be above 0");
  }
  if (auto v = node.get("newPodScaleUpDelay")) out.new_pod_scale_up_delay = parse_time(*v);
  if (auto v = node.get("scaleDownUnneededTime")) out.scale_down_unneeded_time = parse_time(*v);
  if (auto v = node.get("scaleDownDelayAfterAdd")) out.scale_down_delay_after_add = parse_time(*v);
  if (auto v = node.get("scaleDownEnabled")) out.scale_down_enabled = v->boolean();
  return out;
}

nlohmann::ordered_json cluster_autoscaler_json(const ClusterAutoscalerSettings& settings) {
  nlohmann::ordered_json out;
  out["scanInterval"] = format_duration(settings.scan_interval);
  out["newPodScaleUpDelay"] = format_duration(settings.new_pod_scale_up_delay);
  out["scaleDownUnneededTime"] = format_duration(settings.scale_down_unneeded_time);
  out["scaleDownDelayAfterAdd"] = format_duration(settings.scale_down_delay_after_add);
  out["scaleDownEnabled"] = settings.scale_down_enabled;
  return out;
}

std::vector<NodePool> parse_node_pools(const JsonNode& node) {
  std::vector<NodePool> pools;
  std::map<std::string, std::string> seen;
  std::int64_t total = 0;
  for (const JsonNode& entry : node.elements()) {
    entry.reject_unknown_keys(
        {"count", "node", "pricePerGpuHour", "reservation", "provisioning", "autoscaling"});
    NodePool pool;
    const JsonNode count = entry.required("count");
    pool.count = static_cast<std::int32_t>(count.integer_in(0, kMaxPoolNodes));
    const JsonNode manifest = entry.required("node");
    Object object = parse_object(manifest.rebased());
    auto* template_node = std::get_if<Node>(&object);
    if (template_node == nullptr) {
      manifest.fail("a node pool's \"node\" must be a Node, got " + ref_of(object).kind);
    }
    pool.node = std::move(*template_node);
    pool.name = pool.node.metadata.name;
    pool.pointer = entry.pointer();
    if (auto price = entry.get("pricePerGpuHour"))
      pool.price_micros_per_gpu_hour = parse_price_micros(*price);
    if (auto reservation = entry.get("reservation"))
      pool.reservation = parse_reservation(*reservation);
    if (auto provisioning = entry.get("provisioning"))
      pool.provisioning = parse_provisioning(*provisioning);
    if (auto autoscaling = entry.get("autoscaling")) {
      pool.autoscaling = parse_autoscaling(*autoscaling, pool.count);
      // A reservation is a fixed size paid whole; the autoscaler buys nodes one by one.
      if (pool.reservation) autoscaling->fail("a pool with a reservation does not autoscale");
    }
    if (auto [it, inserted] = seen.emplace(pool.name, entry.pointer()); !inserted) {
      manifest.fail("duplicate node pool \"" + pool.name + "\": also defined at " + it->second);
    }
    // The template's name is a valid node name; the longest suffixed one must stay valid.
    if (pool.max_count() > 0) {
      const std::string last = pool_node_name(pool, pool.max_count() - 1);
      if (const auto errors = dns1123_subdomain_errors(last); !errors.empty()) {
        count.fail("node name \"" + last + "\" would be invalid: " + errors.front());
      }
    }
    total += pool.max_count();
    if (total > kMaxPoolNodes) {
      count.fail("the node pools hold more than " + std::to_string(kMaxPoolNodes) +
                 " nodes (gpusched limit)");
    }
    pools.push_back(std::move(pool));
  }
  return pools;
}

void check_pool_node_names(const std::vector<NodePool>& pools, const Scenario& scenario,
                           const std::vector<JsonNode>& cluster_items) {
  if (pools.empty()) return;
  std::map<std::string, const NodePool*, std::less<>> made;
  for (const NodePool& pool : pools) {
    for (std::int32_t i = 0; i < pool.max_count(); ++i)
      made.emplace(pool_node_name(pool, i), &pool);
  }
  for (std::size_t i = 0; i < scenario.cluster.size() && i < cluster_items.size(); ++i) {
    const auto* node = std::get_if<Node>(&scenario.cluster[i]);
    if (node == nullptr) continue;
    if (auto it = made.find(node->metadata.name); it != made.end()) {
      cluster_items[i].fail("duplicate Node \"" + node->metadata.name +
                            "\": also made by the node pool at " + it->second->pointer);
    }
  }
}

nlohmann::ordered_json node_pools_json(const std::vector<NodePool>& pools) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NodePool& pool : pools) {
    nlohmann::ordered_json entry;
    entry["count"] = pool.count;
    entry["node"] = to_json(Object(pool.node));
    if (pool.price_micros_per_gpu_hour != 0)
      entry["pricePerGpuHour"] = decimal_text(pool.price_micros_per_gpu_hour, 6);
    if (pool.reservation) {
      entry["reservation"]["start"] = format_duration(pool.reservation->start);
      if (pool.reservation->end)
        entry["reservation"]["end"] = format_duration(*pool.reservation->end);
    }
    if (const auto& p = pool.provisioning) {
      auto& out_p = entry["provisioning"];
      out_p["launchDelay"] = format_duration(p->launch_delay);
      out_p["bootDelay"] = format_duration(p->boot_delay);
      out_p["driverDelay"] = format_duration(p->driver_delay);
      out_p["launchFailureProbability"] = static_cast<double>(p->launch_failure_ppm) / 1'000'000;
      out_p["launchAttempts"] = p->launch_attempts;
    }
    if (pool.autoscaling) {
      entry["autoscaling"]["minCount"] = pool.autoscaling->min;
      entry["autoscaling"]["maxCount"] = pool.autoscaling->max;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace gpusched::io
