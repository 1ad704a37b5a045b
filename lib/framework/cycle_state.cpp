#include "gpusched/framework/cycle_state.hpp"

namespace gpusched {

CycleState::CycleState(std::size_t plugins) {
  reset(plugins);
}

CycleState::CycleState(const CycleState& other)
    : skip_filter_(other.skip_filter_), skip_score_(other.skip_score_) {
  data_.reserve(other.data_.size());
  for (const auto& d : other.data_) data_.push_back(d ? d->clone() : nullptr);
}

CycleState& CycleState::operator=(const CycleState& other) {
  if (this != &other) {
    CycleState copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void CycleState::reset(std::size_t plugins) {
  data_.clear();
  data_.resize(plugins);
  skip_filter_ = 0;
  skip_score_ = 0;
}

}  // namespace gpusched
