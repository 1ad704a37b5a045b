#include "plugins/open_gpu_share.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "plugins/fgd_score.hpp"
#include "plugins/gpu_share_view.hpp"
#include "plugins/random_score.hpp"

namespace gpusched::plugins {
namespace {

std::string milli_text(std::int32_t milli) {
  return std::to_string(milli) + " milli";
}

}  // namespace

OpenGpuShare::OpenGpuShare(Handle& handle)
    : handle_(handle),
      no_gpus_(handle.cluster.pool().intern("node(s) didn't have alibabacloud.com GPUs")),
      model_mismatch_(
          handle.cluster.pool().intern("node(s) didn't have the GPU model the pod asks for")),
      insufficient_(handle.cluster.pool().intern("Insufficient alibabacloud.com/gpu-milli")) {}

// The artifact rejects with the status "Node:<name>" in each case; gpusched says why, in the
// words of the diagnosis, and leaves preemption out where removing pods cannot help.
Code OpenGpuShare::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                          Reasons& reasons) const {
  const GpuShareRequest& share = pod.gpu_share->request;
  if (share.gpu_milli <= 0) return Code::Success;
  if (node.gpu_free.empty()) {
    reasons.push_back(no_gpus_);
    return Code::UnschedulableAndUnresolvable;
  }
  if (!gpu_share::type_accepts(share.gpu_type, node.gpu_model)) {
    reasons.push_back(model_mismatch_);
    return Code::UnschedulableAndUnresolvable;
  }
  if (!gpu_share::gpus_fit(node.gpu_free, share_shape(pod))) {
    reasons.push_back(insufficient_);
    return Code::Unschedulable;
  }
  return Code::Success;
}

bool OpenGpuShare::append_node_dynamic_key(const PodInfo& pod, std::string& key) const {
  const GpuShareRequest& share = pod.gpu_share->request;
  key.append(std::to_string(share.gpu_milli))
      .append("/")
      .append(std::to_string(share.gpu_count))
      .append("/")
      .append(share.gpu_type)
      .push_back('\0');
  return true;
}

std::string OpenGpuShare::explain_rejection(const CycleState&, const PodInfo& pod,
                                            const NodeInfo& node) const {
  const GpuShareRequest& want = pod.gpu_share->request;
  if (node.gpu_free.empty()) return "no alibabacloud.com/gpu-count GPUs";
  if (!gpu_share::type_accepts(want.gpu_type, node.gpu_model))
    return "GPU model " + node.gpu_model + ", need " + want.gpu_type;
  if (want.gpu_count == 1) {
    // The GPU with the most room, the lowest index on a tie.
    const auto most = std::max_element(node.gpu_free.begin(), node.gpu_free.end());
    return "free " + milli_text(std::max(*most, 0)) + " on GPU " +
           std::to_string(most - node.gpu_free.begin()) + ", need " +
           std::to_string(want.gpu_milli);
  }
  const auto room = std::count_if(node.gpu_free.begin(), node.gpu_free.end(),
                                  [&](std::int32_t f) { return f >= want.gpu_milli; });
  return std::to_string(room) + " of " + std::to_string(node.gpu_free.size()) + " GPUs with " +
         milli_text(want.gpu_milli) + " free, need " + std::to_string(want.gpu_count);
}

std::string_view OpenGpuShare::gpu_chooser() {
  if (chooser_) return *chooser_;
  chooser_ = std::string_view();
  std::int64_t heaviest = 0;
  if (handle_.framework != nullptr) {
    for (const auto& [plugin, weight] : handle_.framework->score_plugins()) {
      if (names::is_gpu_share(plugin->name()) && weight > heaviest) {
        heaviest = weight;
        chooser_ = plugin->name();
      }
    }
  }
  return *chooser_;
}

Code OpenGpuShare::reserve(CycleState&, const PodInfo& pod, NodeInfo& node) {
  if (pod.gpu_share->request.gpu_milli <= 0 || node.gpu_free.empty()) return Code::Success;
  PodInfo* live = handle_.cluster.find_pod(pod.pod.metadata.namespace_, pod.pod.metadata.name);
  if (live == nullptr) return Code::Success;
  // A pod of a group is assumed on the node before Reserve (assumeAndReserve): the GPUs are
  // chosen on the node without it.
  const auto held = std::find_if(node.gpu_holds.begin(), node.gpu_holds.end(),
                                 [&](const GpuShareHold& h) { return h.pod == live; });
  if (held != node.gpu_holds.end()) {
    for (const std::int32_t gpu : held->gpus)
      node.gpu_free[static_cast<std::size_t>(gpu)] += held->milli;
  }
  const gpu_share::Shape shape = share_shape(pod);
  int chosen = -1;
  if (shape.is_share()) {
    const std::string_view by = gpu_chooser();
    Plugin* plugin = by.empty() ? nullptr : handle_.framework->find_plugin(by);
    if (const auto* fgd = dynamic_cast<const FgdScore*>(plugin)) {
      chosen = fgd->choose_gpu(pod, node);
    } else if (auto* random = dynamic_cast<RandomScore*>(plugin)) {
      chosen = random->choose_gpu(pod, node);
    }
  }
  std::vector<std::int32_t> gpus = gpu_share::take_gpus(node.gpu_free, shape, chosen);
  if (held != node.gpu_holds.end()) {
    held->gpus = gpus;
    for (const std::int32_t gpu : held->gpus)
      node.gpu_free[static_cast<std::size_t>(gpu)] -= held->milli;
    node.bump();
  }
  if (std::ssize(gpus) != shape.gpu_count) return Code::Error;
  PodGpuShare& choice = live->gpu_share.mut();
  choice.index = std::move(gpus);
  choice.index_node = node.name;
  return Code::Success;
}

void OpenGpuShare::unreserve(CycleState&, const PodInfo& pod, NodeInfo&) {
  // The node's GPUs follow the pods holding it (NodeInfo::remove_pod); only the choice goes.
  if (PodInfo* live =
          handle_.cluster.find_pod(pod.pod.metadata.namespace_, pod.pod.metadata.name)) {
    if (live->gpu_share->index_node != kNotInterned) {
      PodGpuShare& share = live->gpu_share.mut();
      share.index.clear();
      share.index_node = kNotInterned;
    }
  }
}

Status OpenGpuShare::pre_bind(CycleState&, const PodInfo& pod, const NodeInfo& node) {
  PodInfo* live = handle_.cluster.find_pod(pod.pod.metadata.namespace_, pod.pod.metadata.name);
  if (pod.gpu_share->request.gpu_milli <= 0 || node.gpu_free.empty() || live == nullptr ||
      live->gpu_share->index_node != node.name)
    return Status{Code::Skip};
  // updatePodGpuAnno, patched onto the pod before it binds.
  live->pod.metadata.annotations.mut()[std::string(gpu_share_names::kGpuIndexAnnotation)] =
      format_gpu_index(live->gpu_share->index);
  return Status{};
}

std::vector<ClusterEventWithHint> OpenGpuShare::events_to_register() const {
  return {{{EventResource::Pod, action::kDelete, "Pod"}, false},
          {{EventResource::Node,
            action::kAdd | action::kUpdateNodeAllocatable | action::kUpdateNodeLabel, "Node"},
           false}};
}

}  // namespace gpusched::plugins
