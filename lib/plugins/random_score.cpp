#include "plugins/random_score.hpp"

#include <memory>

#include "gpusched/framework/rng.hpp"
#include "plugins/gpu_share_view.hpp"

namespace gpusched::plugins {
namespace {

/// The node PreScore drew, by slot.
struct Drawn final : StateData {
  std::uint32_t slot = 0;
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<Drawn>(*this);
  }
};

}  // namespace

Code RandomScore::pre_score(CycleState& state, const PodInfo&,
                            std::span<const NodeInfo* const> nodes) {
  if (nodes.empty()) return Code::Skip;
  auto drawn = std::make_unique<Drawn>();
  drawn->slot =
      nodes[static_cast<std::size_t>(rng_.intn(static_cast<std::int64_t>(nodes.size())))]->slot;
  state.set(slot(), std::move(drawn));
  return Code::Success;
}

std::int64_t RandomScore::score(const CycleState& state, const PodInfo&,
                                const NodeInfo& node) const {
  const Drawn* drawn = state.get<Drawn>(slot());
  return drawn != nullptr && drawn->slot == node.slot ? gpu_share::kMaxNodeScore : 0;
}

int RandomScore::choose_gpu(const PodInfo& pod, const NodeInfo& node) {
  return gpu_share::random_share_gpu(node.gpu_free, share_shape(pod),
                                     [&](std::int32_t n) { return rng_.intn(n); });
}

}  // namespace gpusched::plugins
