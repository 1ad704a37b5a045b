#pragma once
// 128-bit intermediates for quantity arithmetic: scoring's products (NodeResourcesFit,
// BalancedAllocation), resource-hours and price bounds, which can overflow 64 bits where Go's
// int64 arithmetic never meets such large values.

#include <cstdint>

namespace gpusched {

/// A 128-bit intermediate for products of quantities that may not fit 64 bits.
__extension__ using Int128 = __int128;

/// a * b / c for non-negative a, b and positive c, exactly (Go's int64 arithmetic never sees
/// these products overflow only because real quantities are small). The 128-bit division is a
/// library call, so it is used only when the product does not fit 64 bits.
[[nodiscard]] inline std::int64_t mul_div(std::int64_t a, std::int64_t b, std::int64_t c) noexcept {
  std::int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product / c;
  return static_cast<std::int64_t>(static_cast<Int128>(a) * b / c);
}

}  // namespace gpusched
