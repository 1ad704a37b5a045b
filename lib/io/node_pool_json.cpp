#include "io/node_pool_json.hpp"

#include <map>
#include <set>
#include <string>
#include <variant>

#include "io/api_validation.hpp"
#include "io/object_json.hpp"

namespace gpusched::io {

std::vector<NodePool> parse_node_pools(const JsonNode& node) {
  std::vector<NodePool> pools;
  std::map<std::string, std::string> seen;
  std::int64_t total = 0;
  for (const JsonNode& entry : node.elements()) {
    entry.reject_unknown_keys({"count", "node"});
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
    if (auto [it, inserted] = seen.emplace(pool.name, entry.pointer()); !inserted) {
      manifest.fail("duplicate node pool \"" + pool.name + "\": also defined at " + it->second);
    }
    // The template's name is a valid node name; the longest suffixed one must stay valid.
    if (pool.count > 0) {
      const std::string last = pool_node_name(pool, pool.count - 1);
      if (const auto errors = dns1123_subdomain_errors(last); !errors.empty()) {
        count.fail("node name \"" + last + "\" would be invalid: " + errors.front());
      }
    }
    total += pool.count;
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
    for (std::int32_t i = 0; i < pool.count; ++i) made.emplace(pool_node_name(pool, i), &pool);
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
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace gpusched::io
