#include "gpusched/framework/cycle_state.hpp"

#include <bit>
#include <utility>

namespace gpusched {
namespace {

// Calls f(slot) for every bit set in `bits`.
template <class F>
void for_each_slot(std::uint64_t bits, F f) {
  for (; bits != 0; bits &= bits - 1) f(static_cast<std::size_t>(std::countr_zero(bits)));
}

}  // namespace

CycleState::CycleState(std::size_t plugins) {
  reset(plugins);
}

CycleState::CycleState(const CycleState& other)
    : data_(other.data_.size()),
      has_data_(other.has_data_),
      skip_filter_(other.skip_filter_),
      skip_score_(other.skip_score_),
      positions_(other.positions_) {
  for_each_slot(has_data_, [&](std::size_t slot) { data_[slot] = other.data_[slot]; });
}

CycleState& CycleState::operator=(const CycleState& other) {
  if (this == &other) return *this;
  // Assigned in place, so that a state reused as scratch keeps its storage.
  clear_data();
  data_.resize(other.data_.size());
  has_data_ = other.has_data_;
  for_each_slot(has_data_, [&](std::size_t slot) { data_[slot] = other.data_[slot]; });
  skip_filter_ = other.skip_filter_;
  skip_score_ = other.skip_score_;
  positions_ = other.positions_;
  return *this;
}

CycleState::CycleState(CycleState&& other) noexcept
    : data_(std::move(other.data_)),
      has_data_(std::exchange(other.has_data_, 0)),
      skip_filter_(std::exchange(other.skip_filter_, 0)),
      skip_score_(std::exchange(other.skip_score_, 0)),
      positions_(std::exchange(other.positions_, {})) {}

CycleState& CycleState::operator=(CycleState&& other) noexcept {
  if (this == &other) return *this;
  data_ = std::move(other.data_);
  has_data_ = std::exchange(other.has_data_, 0);
  skip_filter_ = std::exchange(other.skip_filter_, 0);
  skip_score_ = std::exchange(other.skip_score_, 0);
  positions_ = std::exchange(other.positions_, {});
  return *this;
}

void CycleState::reset(std::size_t plugins) {
  clear_data();
  data_.resize(plugins);
  skip_filter_ = 0;
  skip_score_ = 0;
  positions_ = {};
}

void CycleState::clear_data() noexcept {
  for_each_slot(has_data_, [&](std::size_t slot) { data_[slot].reset(); });
  has_data_ = 0;
}

}  // namespace gpusched
