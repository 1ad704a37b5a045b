#pragma once
// PrioritySort (pkg/scheduler/framework/plugins/queuesort/priority_sort.go).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class PrioritySort final : public QueueSortPlugin {
 public:
  static constexpr std::string_view kName = names::kPrioritySort;
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Higher priority first; equal priority: earlier queue timestamp first.
  [[nodiscard]] bool less(const PodInfo& a, std::int64_t a_timestamp, const PodInfo& b,
                          std::int64_t b_timestamp) const override {
    return a.priority > b.priority || (a.priority == b.priority && a_timestamp < b_timestamp);
  }
};

}  // namespace gpusched::plugins
