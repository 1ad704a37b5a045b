#include "dra/pools.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "dra/allocator.hpp"

namespace gpusched::dra {

namespace {

bool term_matches(const NodeSelectorTerm& term, const Node& node, const Labels& fields) {
  // nodeaffinity.nodeSelectorTerm: a term without requirements matches nothing.
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const SelectorRequirement& r : term.match_expressions) {
    if (!node_requirement_matches(r, node.metadata.labels)) return false;
  }
  for (const SelectorRequirement& r : term.match_fields) {
    if (!node_requirement_matches(r, fields)) return false;
  }
  return true;
}

using PoolKey = std::pair<std::string, std::string>;  // (driver, pool)

// addSlice: the newest generation of a pool replaces older ones; older slices are dropped.
void add_slice(std::map<PoolKey, std::vector<const ResourceSlice*>>& pools,
               const ResourceSlice* slice) {
  std::vector<const ResourceSlice*>& slices = pools[{slice->driver, slice->pool.name}];
  if (slices.empty() || slice->pool.generation > slices.front()->pool.generation) {
    slices.assign(1, slice);
  } else if (slice->pool.generation == slices.front()->pool.generation) {
    slices.push_back(slice);
  }
}

// checkSlicesInPool: whether a newer generation exists (the pool is obsolete), else all slices
// of this generation.
bool slices_in_pool(std::span<const ResourceSlice* const> all, const PoolKey& id,
                    std::int64_t generation, std::vector<const ResourceSlice*>& out) {
  for (const ResourceSlice* s : all) {
    if (s->driver != id.first || s->pool.name != id.second) continue;
    if (s->pool.generation == generation) {
      out.push_back(s);
    } else if (s->pool.generation > generation) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> duplicate_device_name(const std::vector<const ResourceSlice*>& slices) {
  std::set<std::string_view> names;
  for (const ResourceSlice* s : slices) {
    for (const Device& d : s->devices) {
      if (!names.insert(d.name).second) return "duplicate device name " + d.name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> invalid_counter_consumption(
    const std::map<std::string, const CounterSet*, std::less<>>& sets,
    const std::vector<const ResourceSlice*>& slices) {
  for (const ResourceSlice* s : slices) {
    for (const Device& d : s->devices) {
      for (const DeviceCounterConsumption& c : d.consumes_counters) {
        const auto set = sets.find(c.counter_set);
        if (set == sets.end()) return "counter set " + c.counter_set + " not found";
        for (const auto& [name, value] : c.counters) {
          if (!set->second->counters.contains(name)) {
            return "counter " + name + " not found in counter set " + set->second->name;
          }
        }
      }
    }
  }
  return std::nullopt;
}

Pool invalid_pool(const PoolKey& id, std::string reason) {
  Pool p;
  p.driver = id.first;
  p.name = id.second;
  p.invalid = true;
  p.invalid_reason = std::move(reason);
  return p;
}

// buildPool.
Pool build_pool(const PoolKey& id, std::vector<const ResourceSlice*> slices,
                const AllocatorFeatures& features,
                const std::vector<const ResourceSlice*>* all_slices_for_pool) {
  // Sorted by name: a first-fit search lets driver authors order devices by naming slices.
  std::sort(slices.begin(), slices.end(), [](const ResourceSlice* a, const ResourceSlice* b) {
    return a->metadata.name < b->metadata.name;
  });
  std::vector<const ResourceSlice*> device_slices;
  std::vector<const ResourceSlice*> counter_set_slices;
  for (const ResourceSlice* s : slices) {
    (features.partitionable_devices && !s->shared_counters.empty() ? counter_set_slices
                                                                   : device_slices)
        .push_back(s);
  }
  if (auto error = duplicate_device_name(device_slices)) return invalid_pool(id, *error);
  Pool pool;
  pool.driver = id.first;
  pool.name = id.second;
  pool.device_slices_targeting_node = device_slices;
  if (!features.partitionable_devices) return pool;

  // getAndValidateCounterSets.
  for (const ResourceSlice* s : counter_set_slices) {
    for (const CounterSet& set : s->shared_counters) {
      if (!pool.counter_sets.emplace(set.name, &set).second) {
        return invalid_pool(id, "duplicate counter set name " + set.name);
      }
    }
  }
  if (auto error = invalid_counter_consumption(pool.counter_sets, slices)) {
    return invalid_pool(id, *error);
  }
  if (all_slices_for_pool == nullptr || slices.size() == all_slices_for_pool->size()) return pool;

  // Slices of the pool that do not target this node may still consume its counters.
  std::set<std::string_view> targeting;
  for (const ResourceSlice* s : slices) targeting.insert(s->metadata.name);
  for (const ResourceSlice* s : *all_slices_for_pool) {
    if (!targeting.contains(s->metadata.name)) pool.device_slices_not_targeting_node.push_back(s);
  }
  if (auto error =
          invalid_counter_consumption(pool.counter_sets, pool.device_slices_not_targeting_node)) {
    return invalid_pool(id, *error);
  }
  return pool;
}

bool has_binding_conditions(const Pool& pool) {
  return std::any_of(pool.device_slices_targeting_node.begin(),
                     pool.device_slices_targeting_node.end(), [](const ResourceSlice* s) {
                       return std::any_of(
                           s->devices.begin(), s->devices.end(),
                           [](const Device& d) { return !d.binding_conditions.empty(); });
                     });
}

}  // namespace

bool node_matches(const Node& node, const std::optional<std::string>& node_name, bool all_nodes,
                  const std::optional<NodeSelector>& selector) {
  if (node_name && !node_name->empty()) return node.metadata.name == *node_name;
  if (all_nodes) return true;
  if (!selector) return false;
  const Labels fields(
      std::map<std::string, std::string, std::less<>>{{"metadata.name", node.metadata.name}});
  return std::any_of(selector->terms.begin(), selector->terms.end(),
                     [&](const NodeSelectorTerm& t) { return term_matches(t, node, fields); });
}

std::vector<Pool> gather_pools(std::span<const ResourceSlice* const> slices_for_node,
                               const Node& node, const AllocatorFeatures& features,
                               std::span<const ResourceSlice* const> all_slices) {
  std::map<PoolKey, std::vector<const ResourceSlice*>> pools;
  for (const ResourceSlice* slice : slices_for_node) {
    if (!features.partitionable_devices &&
        (slice->per_device_node_selection || !slice->shared_counters.empty())) {
      continue;
    }
    bool relevant = false;
    if (!slice->shared_counters.empty()) {
      // Always included: a pool cannot be used without its counters.
      relevant = true;
    } else if ((slice->node_name && !slice->node_name->empty()) || slice->all_nodes ||
               slice->node_selector) {
      relevant = node_matches(node, slice->node_name, slice->all_nodes, slice->node_selector);
    } else if (slice->per_device_node_selection) {
      relevant = std::any_of(slice->devices.begin(), slice->devices.end(), [&](const Device& d) {
        return node_matches(node, d.node_name, d.all_nodes, d.node_selector);
      });
    } else {
      continue;  // a node selection of some future kind: not usable
    }
    if (relevant) add_slice(pools, slice);
  }

  std::vector<Pool> result;
  std::vector<Pool> with_binding_conditions;
  auto keep = [&](Pool pool) {
    (has_binding_conditions(pool) ? with_binding_conditions : result).push_back(std::move(pool));
  };
  for (auto& [id, slices] : pools) {
    const std::int64_t wanted = slices.front()->pool.resource_slice_count;
    if (static_cast<std::int64_t>(slices.size()) == wanted) {
      keep(build_pool(id, slices, features, nullptr));
      continue;
    }
    // Slices that did not look relevant for the node still count towards completeness.
    std::vector<const ResourceSlice*> all_for_pool;
    if (slices_in_pool(all_slices, id, slices.front()->pool.generation, all_for_pool)) {
      continue;  // the driver is replacing this generation: ignore the pool
    }
    if (static_cast<std::int64_t>(all_for_pool.size()) != wanted) {
      Pool incomplete;
      incomplete.driver = id.first;
      incomplete.name = id.second;
      incomplete.incomplete = true;
      result.push_back(std::move(incomplete));
      continue;
    }
    keep(build_pool(id, slices, features, &all_for_pool));
  }
  // std::map already iterates in (driver, pool) order: sortPoolsByID's order.
  result.insert(result.end(), std::make_move_iterator(with_binding_conditions.begin()),
                std::make_move_iterator(with_binding_conditions.end()));
  return result;
}

}  // namespace gpusched::dra
