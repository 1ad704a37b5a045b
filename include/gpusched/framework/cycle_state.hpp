#pragma once
/// Per-cycle plugin data (upstream framework.CycleState): one slot per plugin of the profile, plus
/// which plugins' Filter and Score were skipped by their PreFilter / PreScore.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace gpusched {

/// Data a plugin computes in PreFilter / PreScore for the rest of the cycle.
class StateData {
 public:
  virtual ~StateData() = default;
  /// A copy for preemption dry-runs, which modify it through AddPod / RemovePod.
  [[nodiscard]] virtual std::unique_ptr<StateData> clone() const = 0;
};

/// Copies are values, as upstream's CycleState.Clone(), but copy on write: a copy shares each
/// slot's data until get_mut() on either side clones it. Dry-runs copy the state for every node
/// with nominated pods and every preemption candidate, and mostly change no slot at all.
class CycleState {
 public:
  CycleState() = default;
  explicit CycleState(std::size_t plugins);
  CycleState(const CycleState& other);
  CycleState& operator=(const CycleState& other);
  CycleState(CycleState&& other) noexcept;
  CycleState& operator=(CycleState&& other) noexcept;
  ~CycleState() = default;

  /// Drops every slot's data and skip flag; keeps the capacity.
  void reset(std::size_t plugins);
  /// Drops every slot's data, keeping the slots and skip flags: a copy kept as scratch lets go
  /// of what it shares, so that the original's next write need not clone.
  void clear_data() noexcept;

  void set(std::size_t slot, std::unique_ptr<StateData> data) {
    const std::uint64_t bit = std::uint64_t{1} << slot;
    has_data_ = data ? has_data_ | bit : has_data_ & ~bit;
    data_[slot] = std::move(data);
  }
  template <class T>
  [[nodiscard]] const T* get(std::size_t slot) const {
    return static_cast<const T*>(data_[slot].get());
  }
  /// The slot's data for writing, cloned first when a copy shares it.
  template <class T>
  [[nodiscard]] T* get_mut(std::size_t slot) {
    std::shared_ptr<StateData>& data = data_[slot];
    if (data && data.use_count() > 1) data = data->clone();
    return static_cast<T*>(data.get());
  }

  void skip_filter(std::size_t slot) { skip_filter_ |= std::uint64_t{1} << slot; }
  [[nodiscard]] bool filter_skipped(std::size_t slot) const { return (skip_filter_ >> slot) & 1; }
  /// Bit `slot` set when that plugin's Filter is skipped.
  [[nodiscard]] std::uint64_t filter_skip_flags() const { return skip_filter_; }
  void skip_score(std::size_t slot) { skip_score_ |= std::uint64_t{1} << slot; }
  [[nodiscard]] bool score_skipped(std::size_t slot) const { return (skip_score_ >> slot) & 1; }

  /// The positions in ClusterState::node_list() of the nodes the Score plugins are given, in
  /// their order, while the scheduler scores a cycle's nodes it found by position; empty
  /// otherwise. A plugin may read per-node values from the cluster's arrays by position
  /// (node_versions(), node_slots()) instead of reading each node: a cycle scores hundreds.
  void set_node_positions(std::span<const std::uint32_t> positions) noexcept {
    positions_ = positions;
  }
  [[nodiscard]] std::span<const std::uint32_t> node_positions() const noexcept {
    return positions_;
  }

  /// Slots are bits of a word: the Filter loop tests them for every plugin and node.
  static constexpr std::size_t kMaxPlugins = 64;

 private:
  std::vector<std::shared_ptr<StateData>> data_;
  /// Bit `slot` set when data_[slot] holds data: few slots do, and copies visit only those.
  std::uint64_t has_data_ = 0;
  std::uint64_t skip_filter_ = 0;
  std::uint64_t skip_score_ = 0;
  std::span<const std::uint32_t> positions_;
};

}  // namespace gpusched
