#pragma once
/// Per-cycle plugin data (upstream framework.CycleState): one slot per plugin of the profile, plus
/// which plugins' Filter and Score were skipped by their PreFilter / PreScore.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpusched {

/// Data a plugin computes in PreFilter / PreScore for the rest of the cycle.
class StateData {
 public:
  virtual ~StateData() = default;
  /// A copy for preemption dry-runs, which modify it through AddPod / RemovePod.
  [[nodiscard]] virtual std::unique_ptr<StateData> clone() const = 0;
};

class CycleState {
 public:
  CycleState() = default;
  explicit CycleState(std::size_t plugins);
  CycleState(const CycleState& other);
  CycleState& operator=(const CycleState& other);
  CycleState(CycleState&&) noexcept = default;
  CycleState& operator=(CycleState&&) noexcept = default;

  /// Drops every slot's data and skip flag; keeps the capacity.
  void reset(std::size_t plugins);

  void set(std::size_t slot, std::unique_ptr<StateData> data) { data_[slot] = std::move(data); }
  template <class T>
  [[nodiscard]] const T* get(std::size_t slot) const {
    return static_cast<const T*>(data_[slot].get());
  }
  template <class T>
  [[nodiscard]] T* get_mut(std::size_t slot) {
    return static_cast<T*>(data_[slot].get());
  }

  void skip_filter(std::size_t slot) { skip_filter_ |= std::uint64_t{1} << slot; }
  [[nodiscard]] bool filter_skipped(std::size_t slot) const { return (skip_filter_ >> slot) & 1; }
  void skip_score(std::size_t slot) { skip_score_ |= std::uint64_t{1} << slot; }
  [[nodiscard]] bool score_skipped(std::size_t slot) const { return (skip_score_ >> slot) & 1; }

  /// Slots are bits of a word: the Filter loop tests them for every plugin and node.
  static constexpr std::size_t kMaxPlugins = 64;

 private:
  std::vector<std::unique_ptr<StateData>> data_;
  std::uint64_t skip_filter_ = 0;
  std::uint64_t skip_score_ = 0;
};

}  // namespace gpusched
