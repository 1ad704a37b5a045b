#include "dra/consumable_capacity.hpp"

namespace gpusched::dra {

namespace {

// Quantity.Value(): whole units, rounded up.
std::int64_t units(const Quantity& q) {
  return q.value();
}

// roundUpRange: below min is min; otherwise min + k * step, the smallest at least the request.
Quantity round_up_range(const Quantity& requested, const CapacityRequestPolicyRange& range) {
  if (requested < *range.min) return *range.min;
  if (!range.step) return requested;
  const std::int64_t step = units(*range.step);
  const std::int64_t min = units(*range.min);
  const std::int64_t added = units(requested) - min;
  std::int64_t n = added / step;
  if (added % step != 0) ++n;
  return Quantity::from_units(min + step * n, QuantityFormat::BinarySI);
}

// roundUpValidValues: the first valid value at least the request, else the request itself.
Quantity round_up_valid_values(const Quantity& requested, const std::vector<Quantity>& values) {
  for (const Quantity& v : values) {
    if (requested <= v) return v;
  }
  return requested;
}

// calculateConsumedCapacity.
Quantity consumed_for(const Quantity* requested, const DeviceCapacity& capacity) {
  if (requested == nullptr) {
    // fillEmptyRequest: the policy's default, else the whole capacity.
    if (capacity.request_policy && capacity.request_policy->default_value) {
      return *capacity.request_policy->default_value;
    }
    return capacity.value;
  }
  if (!capacity.request_policy) return *requested;
  const CapacityRequestPolicy& policy = *capacity.request_policy;
  if (policy.valid_range && policy.valid_range->min) {
    return round_up_range(*requested, *policy.valid_range);
  }
  if (!policy.valid_values.empty()) return round_up_valid_values(*requested, policy.valid_values);
  return *requested;
}

// violatesPolicy. Upstream compares the default with Go's == on the Quantity struct, which
// holds for values written the same way; gpusched compares values.
bool violates_policy(const Quantity& value, const std::optional<CapacityRequestPolicy>& policy) {
  if (!policy) return false;
  if (policy->default_value && value == *policy->default_value) return false;
  if (policy->valid_range) {
    const CapacityRequestPolicyRange& range = *policy->valid_range;
    if (range.max && value > *range.max) return true;
    if (range.step) {
      const std::int64_t added = units(value) - units(range.min.value_or(Quantity{}));
      if (added % units(*range.step) != 0) return true;
    }
    return false;
  }
  if (!policy->valid_values.empty()) {
    for (const Quantity& v : policy->valid_values) {
      if (v == value) return false;
    }
    return true;
  }
  return false;
}

const Quantity* requested_value(const std::optional<CapacityRequests>& requests,
                                std::string_view name) {
  if (!requests) return nullptr;
  const auto it = requests->find(name);
  return it == requests->end() ? nullptr : &it->second;
}

}  // namespace

std::optional<bool> request_fits_capacity(const ConsumedCapacity& consumed,
                                          const std::optional<CapacityRequests>& requests,
                                          const CapacityMap& capacity,
                                          const ConsumedCapacity* allocating) {
  if (requests) {
    for (const auto& [name, value] : *requests) {
      if (!capacity.contains(name)) return std::nullopt;
    }
  }
  for (const auto& [name, cap] : capacity) {
    const Quantity wanted = consumed_for(requested_value(requests, name), cap);
    if (violates_policy(wanted, cap.request_policy)) return false;
    Quantity total = wanted;
    if (const auto it = consumed.find(name); it != consumed.end()) total = it->second.plus(total);
    if (allocating != nullptr) {
      if (const auto it = allocating->find(name); it != allocating->end()) {
        total = total.plus(it->second);
      }
    }
    if (total > cap.value) return false;
  }
  return true;
}

ConsumedCapacity consumed_capacity_from_request(const std::optional<CapacityRequests>& requests,
                                                const CapacityMap& capacity) {
  ConsumedCapacity out;
  for (const auto& [name, cap] : capacity) {
    out.emplace(name, consumed_for(requested_value(requests, name), cap));
  }
  return out;
}

}  // namespace gpusched::dra
