#include "devices/device_manager.hpp"

#include <algorithm>
#include <set>

#include "devices/gpu_allocator.hpp"
#include "devices/topology_manager.hpp"

namespace gpusched::devices {
namespace {

/// The physical ID a container sees for a device: a replica's GPU ("<UUID>::<k>" -> "<UUID>"),
/// or its index with deviceIDStrategy index (MIG: "<gpu>:<k>").
std::string visible_id(const NodeDevices& node, const Device& device) {
  if (node.plugin.device_id_strategy == "index") {
    if (!device.mig) return std::to_string(device.gpu);
    const auto& mig = node.gpus[static_cast<std::size_t>(device.gpu)].mig;
    for (std::size_t k = 0; k < mig.size(); ++k) {
      if (mig[k].uuid == device.id) return std::to_string(device.gpu) + ":" + std::to_string(k);
    }
  }
  const auto separator = device.id.find("::");
  return separator == std::string::npos ? device.id : device.id.substr(0, separator);
}

Admission rejected(std::string reason, std::string message) {
  Admission out;
  out.admitted = false;
  out.reason = std::move(reason);
  out.message = std::move(message);
  return out;
}

/// The kubelet's wrapping of a device manager or plugin error (lifecycle.PodAdmitResult in
/// kubelet.go canAdmitPod): reason UnexpectedAdmissionError.
Admission unexpected(const std::string& error) {
  return rejected("UnexpectedAdmissionError",
                  "Allocate failed due to " + error + ", which is unexpected");
}

/// Whole devices a container asks for per advertised resource (limits equal requests for
/// extended resources), in resource-name order.
std::vector<std::pair<std::string, int>> device_requests(const Container& container,
                                                         const NodeDevices& node) {
  std::vector<std::pair<std::string, int>> out;
  // Plain names, not structured bindings, since lambdas capture them (clang 14 cannot).
  for (const auto& limit : container.limits) {
    const std::string& name = limit.first;
    const Quantity& quantity = limit.second;
    const bool advertised = std::any_of(node.devices.begin(), node.devices.end(),
                                        [&](const Device& d) { return d.resource == name; });
    const auto count = static_cast<int>(quantity.milli() / 1000);
    if (advertised && count > 0) out.emplace_back(name, count);
  }
  return out;
}

}  // namespace

DeviceManager::DeviceManager(NodeDevices node) {
  reconfigure(std::move(node));
}

void DeviceManager::reconfigure(NodeDevices node) {
  node_ = std::move(node);
  index_.clear();
  for (std::size_t i = 0; i < node_.devices.size(); ++i) index_.emplace(node_.devices[i].id, i);
  std::erase_if(owner_, [&](const auto& entry) { return !index_.contains(entry.first); });
}

const Device& DeviceManager::device(const std::string& id) const {
  return node_.devices[index_.at(id)];
}

Admission DeviceManager::admit(const Pod& pod) {
  const std::string& uid = pod.metadata.uid;
  std::vector<const Container*> containers;
  for (const Container& c : pod.spec.init_containers) containers.push_back(&c);
  for (const Container& c : pod.spec.containers) containers.push_back(&c);

  std::vector<int> numa_nodes;
  for (const PhysicalGpu& gpu : node_.gpus) numa_nodes.push_back(gpu.numa_node);
  std::sort(numa_nodes.begin(), numa_nodes.end());
  numa_nodes.erase(std::unique(numa_nodes.begin(), numa_nodes.end()), numa_nodes.end());

  std::set<std::string> taken;                               // by this pod, so far
  std::map<std::string, std::vector<std::string>> reusable;  // regular init containers' devices
  Holder holder;
  holder.pod_key = pod.key();
  auto free = [&](const Device& d) {
    return node_.gpus[static_cast<std::size_t>(d.gpu)].healthy && !owner_.contains(d.id) &&
           !taken.contains(d.id);
  };
  auto numa_of = [&](const Device& d) {
    return node_.gpus[static_cast<std::size_t>(d.gpu)].numa_node;
  };

  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    const Container& container = *containers[ci];
    const bool regular_init =
        ci < pod.spec.init_containers.size() && container.restart_policy != "Always";
    const auto requests = device_requests(container, node_);
    if (requests.empty()) continue;

    // Topology Manager, container scope: one hint over every device resource it asks for.
    std::vector<std::vector<TopologyHint>> hints;
    for (const auto& request : requests) {
      const std::string& resource = request.first;
      const int count = request.second;
      ResourceDemand demand;
      demand.request = count;
      for (const Device& d : node_.devices) {
        if (d.resource != resource) continue;
        demand.all_numa.push_back(numa_of(d));
        const auto& reuse = reusable[resource];
        if (free(d) || std::find(reuse.begin(), reuse.end(), d.id) != reuse.end()) {
          demand.available_numa.push_back(numa_of(d));
        }
      }
      hints.push_back(device_topology_hints(numa_nodes, demand));
    }
    const TopologyAdmission topology =
        merge_hints(node_.topology_manager_policy, numa_nodes, hints);
    if (!topology.admit) return rejected(kTopologyAffinityReason, kTopologyAffinityMessage);

    for (const auto& request : requests) {
      const std::string& resource = request.first;
      const int count = request.second;
      // devicesToAllocate: reusable devices first, then the aligned ones with the plugin's
      // preference, then the rest.
      std::vector<std::string> allocated;
      auto& reuse = reusable[resource];
      while (!reuse.empty() && static_cast<int>(allocated.size()) < count) {
        allocated.push_back(reuse.front());
        reuse.erase(reuse.begin());
      }
      std::vector<const Device*> available;
      for (const Device& d : node_.devices) {
        if (d.resource == resource && free(d) &&
            std::find(allocated.begin(), allocated.end(), d.id) == allocated.end()) {
          available.push_back(&d);
        }
      }
      const int needed = count - static_cast<int>(allocated.size());
      if (static_cast<int>(available.size()) < needed) {
        return unexpected("requested number of devices unavailable for " + resource +
                          ". Requested: " + std::to_string(needed) +
                          ", Available: " + std::to_string(available.size()));
      }
      std::vector<const Device*> aligned;
      std::vector<const Device*> rest;
      for (const Device* d : available) {
        const bool in_hint =
            topology.hint.affinity && (*topology.hint.affinity >> numa_of(*d) & 1U) != 0;
        (in_hint ? aligned : rest).push_back(d);
      }
      auto take_from = [&](const std::vector<const Device*>& devices) {
        for (const Device* d : devices) {
          if (static_cast<int>(allocated.size()) == count) return;
          if (std::find(allocated.begin(), allocated.end(), d->id) == allocated.end()) {
            allocated.push_back(d->id);
          }
        }
      };
      // GetPreferredAllocation (internal/rm/allocate.go): best-effort over whole GPUs,
      // greedy over replicas and MIG devices.
      auto preferred = [&](const std::vector<const Device*>& pool) {
        std::vector<const Device*> out;
        const bool whole = std::none_of(pool.begin(), pool.end(),
                                        [](const Device* d) { return d->replica || d->mig; });
        if (whole) {
          // The kubelet passes the pool together with what is already allocated, which the
          // answer must include.
          std::set<int> gpus;
          std::vector<int> required;
          for (const Device* d : pool) gpus.insert(d->gpu);
          for (const std::string& id : allocated) {
            gpus.insert(device(id).gpu);
            required.push_back(device(id).gpu);
          }
          const std::vector<int> candidates(gpus.begin(), gpus.end());
          for (int gpu : best_effort_allocate(node_.topology, candidates, required, count)) {
            for (const Device* d : pool) {
              if (d->gpu == gpu) out.push_back(d);
            }
          }
          return out;
        }
        std::vector<SharedDevice> shared;
        for (const std::string& id : allocated) shared.push_back({id, device(id).gpu});
        for (const Device* d : pool) {
          if (std::find(allocated.begin(), allocated.end(), d->id) == allocated.end()) {
            shared.push_back({d->id, d->gpu});
          }
        }
        std::vector<int> per_gpu(node_.gpus.size(), 0);
        for (const auto& [id, owner] : owner_) ++per_gpu[static_cast<std::size_t>(device(id).gpu)];
        const auto picked = greedy_allocate(shared, allocated, count, per_gpu,
                                            node_.plugin.shared_allocation_policy == "packed");
        if (!picked) return out;
        for (const std::string& id : *picked) {
          for (const Device* d : pool) {
            if (d->id == id) out.push_back(d);
          }
        }
        return out;
      };
      if (needed < static_cast<int>(aligned.size())) {
        take_from(preferred(aligned));
        take_from(aligned);
      } else {
        take_from(aligned);
        take_from(preferred(available));
        take_from(rest);
      }
      // The plugin's Allocate (internal/rm/rm.go ValidateRequest): shared replicas may be
      // requested one at a time when failRequestsGreaterThanOne is set.
      const bool replicas =
          std::any_of(allocated.begin(), allocated.end(),
                      [](const std::string& id) { return id.find("::") != std::string::npos; });
      if (replicas && node_.plugin.fail_requests_greater_than_one && allocated.size() > 1) {
        return unexpected("rpc error: code = Unknown desc = invalid allocation request for \"" +
                          resource +
                          "\": invalid request: maximum request size for shared resources is 1; "
                          "found " +
                          std::to_string(allocated.size()));
      }
      for (const std::string& id : allocated) taken.insert(id);
      if (regular_init) {
        reuse.insert(reuse.end(), allocated.begin(), allocated.end());
      }
      auto& ids = holder.devices.by_resource[resource];
      for (const std::string& id : allocated) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
      }
    }
  }
  // Devices in plugin order, and what the container runtime is told to expose.
  std::vector<std::string> visible;
  for (const Device& d : node_.devices) {
    if (!taken.contains(d.id)) continue;
    holder.ids.push_back(d.id);
    if (std::find(holder.devices.gpus.begin(), holder.devices.gpus.end(), d.gpu) ==
        holder.devices.gpus.end()) {
      holder.devices.gpus.push_back(d.gpu);
    }
    const std::string id = visible_id(node_, d);
    if (std::find(visible.begin(), visible.end(), id) == visible.end()) visible.push_back(id);
  }
  std::sort(holder.devices.gpus.begin(), holder.devices.gpus.end());
  // Reported in device order; a shared replica as its GPU's UUID (scenario-format.md §3).
  for (auto& [resource, ids] : holder.devices.by_resource) {
    std::vector<std::string> ordered;
    for (const Device& d : node_.devices) {
      if (std::find(ids.begin(), ids.end(), d.id) != ids.end()) {
        ordered.push_back(d.id.substr(0, d.id.find("::")));
      }
    }
    ids = std::move(ordered);
  }
  for (std::size_t i = 0; i < visible.size(); ++i) {
    holder.devices.visible_devices += (i == 0 ? "" : ",") + visible[i];
  }
  Admission out;
  out.devices = holder.devices;
  if (holder.ids.empty()) return out;
  for (const std::string& id : holder.ids) owner_[id] = uid;
  holders_[uid] = std::move(holder);
  return out;
}

void DeviceManager::release(const std::string& pod_uid) {
  auto it = holders_.find(pod_uid);
  if (it == holders_.end()) return;
  for (const std::string& id : it->second.ids) owner_.erase(id);
  holders_.erase(it);
}

void DeviceManager::set_health(int gpu, bool healthy) {
  node_.gpus.at(static_cast<std::size_t>(gpu)).healthy = healthy;
}

std::vector<std::vector<std::string>> DeviceManager::pods_per_gpu() const {
  std::vector<std::vector<std::string>> out(node_.gpus.size());
  for (const Device& d : node_.devices) {
    auto owner = owner_.find(d.id);
    if (owner == owner_.end()) continue;
    const std::string& key = holders_.at(owner->second).pod_key;
    auto& pods = out[static_cast<std::size_t>(d.gpu)];
    if (std::find(pods.begin(), pods.end(), key) == pods.end()) pods.push_back(key);
  }
  return out;
}

const PodDevices* DeviceManager::devices_of(const std::string& pod_uid) const {
  auto it = holders_.find(pod_uid);
  return it == holders_.end() ? nullptr : &it->second.devices;
}

}  // namespace gpusched::devices
