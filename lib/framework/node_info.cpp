#include "gpusched/framework/node_info.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "model/gpu_share_policy.hpp"

namespace gpusched {

StrId NodeInfo::label(StrId key) const noexcept {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& entry, StrId k) { return entry.first < k; });
  return it != labels.end() && it->first == key ? it->second : StringPool::kMissing;
}

void NodeInfo::add_pod(PodInfo& pod) {
  bump();
  for (const ResAmount& r : pod.requests) requested.add(r.id, r.milli);
  nonzero_cpu += pod.nonzero_cpu;
  nonzero_memory += pod.nonzero_memory;
  pods.push_back(&pod);
  used_ports.insert(used_ports.end(), pod.host_ports.begin(), pod.host_ports.end());
  const PodGpuShare& share = *pod.gpu_share;
  if (share.request.gpu_milli <= 0 || gpu_free.empty()) return;
  const auto in_range = [&](std::int32_t gpu) { return gpu < std::ssize(gpu_free); };
  GpuShareHold hold{&pod, {}, share.request.gpu_milli};
  if (share.index_node == name && std::all_of(share.index.begin(), share.index.end(), in_range)) {
    hold.gpus = share.index;
  } else {
    hold.gpus = gpu_share::take_gpus(
        gpu_free, {0, share.request.gpu_milli, share.request.gpu_count, share.request.gpu_type});
  }
  for (const std::int32_t gpu : hold.gpus) gpu_free[static_cast<std::size_t>(gpu)] -= hold.milli;
  gpu_holds.push_back(std::move(hold));
}

void NodeInfo::remove_pod(const PodInfo& pod) {
  bump();
  for (const ResAmount& r : pod.requests) requested.add(r.id, -r.milli);
  nonzero_cpu -= pod.nonzero_cpu;
  nonzero_memory -= pod.nonzero_memory;
  std::erase(pods, &pod);
  for (const HostPort& p : pod.host_ports) {
    auto it = std::find(used_ports.begin(), used_ports.end(), p);
    if (it != used_ports.end()) used_ports.erase(it);
  }
  const auto hold = std::find_if(gpu_holds.begin(), gpu_holds.end(),
                                 [&](const GpuShareHold& h) { return h.pod == &pod; });
  if (hold == gpu_holds.end()) return;
  for (const std::int32_t gpu : hold->gpus) {
    if (gpu < std::ssize(gpu_free)) gpu_free[static_cast<std::size_t>(gpu)] += hold->milli;
  }
  gpu_holds.erase(hold);
}

ScopedNodeEdit::ScopedNodeEdit(const NodeInfo& node, NodeEditStorage& storage)
    : saved_(storage),
      node_(const_cast<NodeInfo&>(node)),
      num_pods_(node.pods.size()),
      num_ports_(node.used_ports.size()),
      num_holds_(node.gpu_holds.size()),
      requested_(node.requested),
      gpu_free_(node.gpu_free),
      nonzero_cpu_(node.nonzero_cpu),
      nonzero_memory_(node.nonzero_memory),
      version_(node.version) {}

void ScopedNodeEdit::remove_pod(const PodInfo& pod) {
  if (!saved_lists_) {
    // Only the pods and ports of the node as it was are kept: those added since are dropped.
    const auto& pods = node_.pods;
    const auto& ports = node_.used_ports;
    saved_.pods.assign(pods.begin(), pods.begin() + static_cast<std::ptrdiff_t>(num_pods_));
    saved_.used_ports.assign(ports.begin(),
                             ports.begin() + static_cast<std::ptrdiff_t>(num_ports_));
    saved_.gpu_holds.assign(node_.gpu_holds.begin(),
                            node_.gpu_holds.begin() + static_cast<std::ptrdiff_t>(num_holds_));
    saved_lists_ = true;
  }
  node_.remove_pod(pod);
}

ScopedNodeEdit::~ScopedNodeEdit() {
  if (saved_lists_) {
    // Copied back rather than moved: the storage stays with its owner for the next edit.
    node_.pods.assign(saved_.pods.begin(), saved_.pods.end());
    node_.used_ports.assign(saved_.used_ports.begin(), saved_.used_ports.end());
    node_.gpu_holds.assign(saved_.gpu_holds.begin(), saved_.gpu_holds.end());
  } else {
    node_.pods.resize(num_pods_);
    node_.used_ports.resize(num_ports_);
    node_.gpu_holds.resize(num_holds_);
  }
  node_.gpu_free = std::move(gpu_free_);
  node_.requested = std::move(requested_);
  node_.nonzero_cpu = nonzero_cpu_;
  node_.nonzero_memory = nonzero_memory_;
  // The node is as it was, and so is its version: what was kept for it still holds (a dry-run
  // of preemption must not make the next cycle judge and score its nodes afresh). The edited
  // states' versions are never named again (last_version).
  node_.version = version_;
  node_.mirror.follow(version_);
}

std::int64_t PodInfo::request(ResId id) const noexcept {
  for (const auto& r : requests) {
    if (r.id == id) return r.milli;
  }
  return 0;
}

}  // namespace gpusched
