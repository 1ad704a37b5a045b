#pragma once
// Open-Gpu-Share, the FGD artifact's GPU-sharing plugin (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/open_gpu_share.go; ../shared/reference/fgd-artifact.md §2.3, §2.4).

#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class OpenGpuShare final : public FilterPlugin,
                           public ReservePlugin,
                           public PreBindPlugin,
                           public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kOpenGpuShare;
  explicit OpenGpuShare(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// A pod asking GPU milli needs a node with GPUs of a model it accepts and, for a share, one
  /// GPU with that much free; for whole GPUs, that many free GPUs. Other pods pass.
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  /// Filter reads the pod's GPU request and the node's GPUs, which its pods change.
  [[nodiscard]] bool append_node_dynamic_key(const PodInfo& pod, std::string& key) const override;
  /// "free 300 milli on GPU 2, need 500".
  [[nodiscard]] std::string explain_rejection(const CycleState& state, const PodInfo& pod,
                                              const NodeInfo& node) const override;
  /// allocateGpuId: the GPUs the pod takes, by the profile's GPU choice (gpuSelMethod): FGD's
  /// when FGDScore is its heaviest GPU-sharing score, a random one when RandomScore is, else
  /// the best fit; whole GPUs the first free ones.
  [[nodiscard]] Code reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  /// The chosen GPUs as the pod's `alibabacloud.com/gpu-index` annotation.
  [[nodiscard]] Status pre_bind(CycleState& state, const PodInfo& pod,
                                const NodeInfo& node) override;
  /// Pods leaving and nodes coming or changing free GPUs; no hints.
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;

 private:
  /// The profile's heaviest GPU-sharing score plugin, looked up at the first Reserve (the
  /// artifact's generate_config_and_run.py sets gpuSelMethod from it).
  [[nodiscard]] std::string_view gpu_chooser();

  Handle& handle_;
  std::optional<std::string_view> chooser_;
  StrId no_gpus_;
  StrId model_mismatch_;
  StrId insufficient_;
};

}  // namespace gpusched::plugins
