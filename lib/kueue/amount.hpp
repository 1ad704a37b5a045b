#pragma once
// Kueue's quota arithmetic (pkg/resources/amount.go, Kueue v0.19.2): an int64 in the resource's
// Kueue unit (milli-CPU for cpu, whole units for everything else, Quantity.Value() rounding
// up), where INT64_MAX stands for "unlimited" and sums saturate instead of wrapping.

#include <compare>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "gpusched/model/quantity.hpp"

namespace gpusched::kueue {

class Amount {
 public:
  constexpr Amount() = default;
  constexpr explicit Amount(std::int64_t value) : value_(value) {}
  static constexpr Amount unlimited() { return Amount(kMax); }

  /// AmountFromQuantity: cpu in milli-units, other resources in whole units (rounded up).
  [[nodiscard]] static Amount from_quantity(std::string_view resource, const Quantity& q);

  [[nodiscard]] constexpr std::int64_t value() const { return value_; }
  [[nodiscard]] constexpr bool is_unlimited() const { return value_ == kMax; }

  [[nodiscard]] constexpr Amount operator+(Amount b) const {
    if (is_unlimited() || b.is_unlimited()) return unlimited();
    return Amount(saturating_add(value_, b.value_));
  }
  [[nodiscard]] constexpr Amount operator-(Amount b) const {
    if (is_unlimited() && b.is_unlimited()) return Amount();
    if (is_unlimited()) return unlimited();
    if (b.is_unlimited()) return Amount(std::numeric_limits<std::int64_t>::min());
    return Amount(saturating_sub(value_, b.value_));
  }
  Amount& operator+=(Amount b) { return *this = *this + b; }
  Amount& operator-=(Amount b) { return *this = *this - b; }
  friend constexpr auto operator<=>(Amount a, Amount b) { return a.value_ <=> b.value_; }
  friend constexpr bool operator==(Amount a, Amount b) = default;

 private:
  static constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  static constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
      return b > 0 ? kMax : std::numeric_limits<std::int64_t>::min();
    return r;
  }
  static constexpr std::int64_t saturating_sub(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
      return b < 0 ? kMax : std::numeric_limits<std::int64_t>::min();
    return r;
  }
  std::int64_t value_ = 0;
};

[[nodiscard]] constexpr Amount min(Amount a, Amount b) {
  return a < b ? a : b;
}
[[nodiscard]] constexpr Amount max(Amount a, Amount b) {
  return a > b ? a : b;
}

/// ResourceFormatter.ResourceQuantityString / AmountQuantityString: cpu as milli, memory,
/// ephemeral-storage and hugepages-* in canonical binary form, everything else decimal;
/// "<unlimited>" for the unlimited amount (Amount.String).
[[nodiscard]] std::string amount_text(std::string_view resource, Amount a);

/// The Quantity an amount of `resource` stands for (ResourceFormatter.ResourceQuantity).
[[nodiscard]] Quantity amount_quantity(std::string_view resource, Amount a);

}  // namespace gpusched::kueue
