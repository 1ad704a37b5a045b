#include "gpusched/io/node_pools.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <variant>

#include "gpusched/model/well_known.hpp"
#include "io/object_json.hpp"

namespace gpusched::io {
namespace {

/// The node with what names it removed: equal shapes give equal texts.
std::string shape_of(Node node) {
  node.metadata.name.clear();
  node.metadata.labels.erase(std::string(well_known::kHostnameLabel));
  return to_json_text(Object(std::move(node)));
}

/// The names a scenario refers to nodes by, outside the nodes themselves.
std::set<std::string> named_nodes(const Scenario& scenario) {
  std::set<std::string> out;
  auto pod_node = [&](const Object& object) {
    if (const auto* pod = std::get_if<Pod>(&object); pod && !pod->spec.node_name.empty())
      out.insert(pod->spec.node_name);
  };
  for (const Object& object : scenario.cluster) pod_node(object);
  for (const Action& action : scenario.timeline) {
    for (const Object& object : action.objects) pod_node(object);
    if (action.target.kind == "Node") out.insert(action.target.name);
  }
  for (const Expectation& expectation : scenario.expect) {
    if (const auto* node = std::get_if<NodeExpectation>(&expectation.check)) out.insert(node->node);
    if (const auto* pod = std::get_if<PodExpectation>(&expectation.check);
        pod && pod->node && *pod->node)
      out.insert(**pod->node);
  }
  return out;
}

/// "NVIDIA-A100 80GB" -> "nvidia-a100-80gb": a DNS label's characters.
std::string dns_label(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.substr(0, 40);
}

}  // namespace

std::size_t group_nodes_into_pools(Scenario& scenario) {
  const std::set<std::string> named = named_nodes(scenario);
  // A pool's name must not be an existing pool's, nor make a node name that a Node left in the
  // cluster has.
  std::set<std::string> node_names;
  for (const Object& object : scenario.cluster) {
    if (const auto* node = std::get_if<Node>(&object)) node_names.insert(node->metadata.name);
  }
  auto taken = [&](const std::string& name) {
    if (std::any_of(scenario.node_pools.begin(), scenario.node_pools.end(),
                    [&](const NodePool& pool) { return pool.name == name; })) {
      return true;
    }
    auto it = node_names.lower_bound(name + "-");
    return it != node_names.end() && it->starts_with(name + "-");
  };
  std::map<std::string, std::size_t> pool_of_shape;  // shape -> index in `pools`
  std::vector<NodePool> pools;
  std::map<std::string, int> per_prefix;
  std::vector<Object> cluster;
  std::vector<std::string> pointers;
  std::size_t moved = 0;
  for (std::size_t i = 0; i < scenario.cluster.size(); ++i) {
    const auto* node = std::get_if<Node>(&scenario.cluster[i]);
    const std::string pointer =
        i < scenario.cluster_pointers.size() ? scenario.cluster_pointers[i] : "";
    if (node == nullptr || named.contains(node->metadata.name)) {
      cluster.push_back(std::move(scenario.cluster[i]));
      pointers.push_back(pointer);
      continue;
    }
    const std::string shape = shape_of(*node);
    auto [it, added] = pool_of_shape.try_emplace(shape, pools.size());
    if (added) {
      auto product = node->metadata.labels.find(std::string(well_known::kGpuProductLabel));
      std::string prefix = dns_label(product == node->metadata.labels.end() ? "" : product->second);
      if (prefix.empty()) prefix = "cpu";
      NodePool pool;
      pool.node = *node;
      do {
        pool.name = prefix + "-" + std::to_string(per_prefix[prefix]++);
      } while (taken(pool.name));
      pool.node.metadata.name = pool.name;
      pool.pointer = pointer;
      pools.push_back(std::move(pool));
    }
    ++pools[it->second].count;
    ++moved;
  }
  scenario.cluster = std::move(cluster);
  scenario.cluster_pointers = std::move(pointers);
  for (NodePool& pool : pools) scenario.node_pools.push_back(std::move(pool));
  return moved;
}

}  // namespace gpusched::io
