#include "sim/pool_provisioner.hpp"

#include <algorithm>

#include "devices/node_devices.hpp"
#include "gpusched/devices/template_gpus.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/well_known.hpp"

namespace gpusched::sim {
namespace {

constexpr std::int64_t kPartsPerMillion = 1'000'000;

/// The node before its device plugin has registered: no NVIDIA resources (stated as 0, so that
/// none are derived from its hardware either), and Ready as given.
Node without_devices(Node node, bool ready) {
  for (ResourceList* list : {&node.capacity, &node.allocatable}) {
    for (auto& [name, quantity] : *list) {
      if (name.starts_with("nvidia.com/")) quantity = Quantity();
    }
  }
  node.capacity.insert_or_assign(std::string(resource::kGpu), Quantity());
  node.allocatable.insert_or_assign(std::string(resource::kGpu), Quantity());
  // The kubelet reports NotReady until its runtime and network are up; the node lifecycle
  // controller taints such a node node.kubernetes.io/not-ready (Node::effective_taints).
  std::erase_if(node.conditions, [](const NodeCondition& c) { return c.type == "Ready"; });
  node.conditions.push_back(
      ready ? NodeCondition{"Ready", "True", "KubeletReady", "kubelet is posting ready status"}
            : NodeCondition{"Ready", "False", "KubeletNotReady",
                            "container runtime network not ready"});
  return node;
}

}  // namespace

Node PoolProvisioner::pool_node(const NodePool& pool, std::int32_t index) {
  Node node = pool.node;
  node.metadata.name = pool_node_name(pool, index);
  node.metadata.labels.insert_or_assign(std::string(well_known::kNodePoolLabel), pool.name);
  // Each copy's kubelet registers its own hostname.
  if (node.metadata.labels.contains(well_known::kHostnameLabel)) {
    node.metadata.labels.insert_or_assign(std::string(well_known::kHostnameLabel),
                                          node.metadata.name);
  }
  return node;
}

void PoolProvisioner::start() {
  for (std::size_t p = 0; p < scenario_.node_pools.size(); ++p) {
    const NodePool& pool = scenario_.node_pools[p];
    PoolRecord record{pool.name,
                      pool.count,
                      template_gpus(pool, scenario_.device_plugin),
                      pool.price_micros_per_gpu_hour,
                      std::nullopt,
                      std::nullopt};
    if (pool.reservation) {
      record.reserved_from = pool.reservation->start;
      record.reserved_to = pool.reservation->end;
    }
    pool_records_.push_back(record);
    if (!pool.staged()) {
      for (std::int32_t i = 0; i < pool.count; ++i)
        host_.apply_node(pool_node(pool, i), pool.pointer);
      continue;
    }
    // A reservation's nodes are asked for at its start.
    const TimeMs start = pool.reservation ? pool.reservation->start : 0;
    for (std::int32_t i = 0; i < pool.count; ++i) launch(p, start);
    if (pool.reservation && pool.reservation->end)
      clock_.push(*pool.reservation->end, ReservationEnd{p});
  }
}

void PoolProvisioner::launch(std::size_t pool_index, TimeMs at) {
  const NodePool& pool = scenario_.node_pools[pool_index];
  if (next_pool_index_.size() <= pool_index) next_pool_index_.resize(scenario_.node_pools.size());
  const std::int32_t index = next_pool_index_[pool_index]++;
  staged_.push_back(StagedNode{pool_index, index, 0, Stage::Launching});
  provisioning_.push_back(NodeProvisioning{
      pool_node_name(pool, index), pool.name, pool_records_[pool_index].gpus_per_node, at, 0,
      std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  request_launch(staged_.size() - 1, at);
}

void PoolProvisioner::request_launch(std::size_t staged, TimeMs at) {
  const NodePool& pool = scenario_.node_pools[staged_[staged].pool];
  clock_.push(at + (pool.provisioning ? pool.provisioning->launch_delay : 0), Provision{staged});
}

void PoolProvisioner::advance(std::size_t staged) {
  StagedNode& node = staged_[staged];
  NodeProvisioning& record = provisioning_[staged];
  const NodePool& pool = scenario_.node_pools[node.pool];
  const NodePool::Provisioning steps = pool.provisioning.value_or(NodePool::Provisioning{});
  // A step whose delay is 0 follows at once: the node is applied once, in the state it reaches.
  if (node.stage == Stage::Launching) {
    ++node.attempts;
    // Only a pool that can fail draws from the random source, so that other scenarios' draws
    // (the scheduler's tie-breaks) stay as they were.
    if (steps.launch_failure_ppm > 0 && rng_.intn(kPartsPerMillion) < steps.launch_failure_ppm) {
      ++record.failed_launches;
      if (node.attempts < steps.launch_attempts) {
        request_launch(staged, now_);
      } else {
        node.stage = Stage::Gone;
        record.removed = now_;
      }
      return;
    }
    record.billed_from = now_ - steps.launch_delay;
    record.registered = now_;
    node.stage = Stage::Booting;
    if (steps.boot_delay > 0) {
      host_.apply_node(without_devices(pool_node(pool, node.index), false), pool.pointer);
      clock_.push(now_ + steps.boot_delay, Provision{staged});
      return;
    }
  }
  if (node.stage == Stage::Booting) {
    record.ready = now_;
    node.stage = Stage::Driver;
    if (steps.driver_delay > 0) {
      host_.apply_node(without_devices(pool_node(pool, node.index), true), pool.pointer);
      clock_.push(now_ + steps.driver_delay, Provision{staged});
      return;
    }
  }
  if (node.stage == Stage::Driver) {
    record.gpus_advertised = now_;
    node.stage = Stage::Up;
    host_.apply_node(pool_node(pool, node.index), pool.pointer);
  }
  // Up or Gone: a step of a node already up, or whose reservation ended, does nothing.
}

void PoolProvisioner::end_reservation(std::size_t pool) {
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    StagedNode& node = staged_[i];
    if (node.pool != pool || node.stage == Stage::Gone) continue;
    if (NodeInfo* info = cluster_.find_node(provisioning_[i].node)) host_.remove_node(*info);
    node.stage = Stage::Gone;
    provisioning_[i].removed = now_;
  }
}

void PoolProvisioner::remove(std::size_t staged) {
  staged_[staged].stage = Stage::Gone;
  provisioning_[staged].removed = now_;
}

std::vector<std::int32_t> PoolProvisioner::pool_sizes() const {
  std::vector<std::int32_t> sizes(scenario_.node_pools.size(), 0);
  for (const StagedNode& staged : staged_) sizes[staged.pool] += staged.stage != Stage::Gone;
  return sizes;
}

}  // namespace gpusched::sim
