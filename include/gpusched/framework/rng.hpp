#pragma once
/// The one seeded random source of a run (xoshiro256**, seeded by splitmix64). Implemented here
/// rather than with <random> distributions, whose results differ between standard libraries.
///
/// next() and one_in() are defined here, inline: select_host draws once per tied node, hundreds
/// of times a cycle on a fleet of like nodes, and a call per draw cost about as much as the draw.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace gpusched {

namespace rng_detail {

/// What tells whether a divisor d = 2^s * m (m odd) divides x without dividing (Hacker's
/// Delight 10-17, after Granlund and Montgomery): it does exactly when
/// rotr(x * inverse(m) mod 2^64, s) <= (2^64 - 1) / d.
struct Divisor {
  std::uint64_t inverse;  ///< of m, modulo 2^64
  std::uint64_t limit;    ///< (2^64 - 1) / d
};

/// Divisors below this are tested from the table; select_host's draws are for 2, 3, ... ties.
inline constexpr std::size_t kDivisors = 4096;

inline constexpr std::array<Divisor, kDivisors> kDivisorTable = [] {
  std::array<Divisor, kDivisors> table{};
  for (std::size_t d = 1; d < kDivisors; ++d) {
    const std::uint64_t m = d >> std::countr_zero(d);
    // Newton's iteration doubles the correct low bits; m is its own inverse modulo 8.
    std::uint64_t inverse = m;
    for (int i = 0; i < 5; ++i) inverse *= 2 - m * inverse;
    table[d] = {inverse, ~std::uint64_t{0} / d};
  }
  return table;
}();

}  // namespace rng_detail

class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept;

  [[nodiscard]] std::uint64_t next() noexcept {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), like Go's rand.Intn; n must be > 0.
  [[nodiscard]] std::int64_t intn(std::int64_t n) noexcept;

  /// intn(n) == 0, from the same draws: the stream goes on exactly as after intn(n). The
  /// division intn makes was most of a draw's cost.
  [[nodiscard]] bool one_in(std::int64_t n) noexcept {
    const auto bound = static_cast<std::uint64_t>(n);
    if (bound >= rng_detail::kDivisors) [[unlikely]]
      return intn(n) == 0;
    const std::uint64_t x = unbiased(next(), bound);
    const rng_detail::Divisor& d = rng_detail::kDivisorTable[bound];
    return std::rotr(x * d.inverse, std::countr_zero(bound)) <= d.limit;
  }

 private:
  /// `x`, or when it falls in the biased top of the range, the first later draw that does not.
  [[nodiscard]] std::uint64_t unbiased(std::uint64_t x, std::uint64_t bound) noexcept {
    // Rejection sampling keeps the draw exactly uniform (no modulo bias). The limit is above
    // max - bound, so a draw at or below that is kept without computing it.
    return x > ~std::uint64_t{0} - bound ? redrawn(x, bound) : x;
  }
  /// unbiased() for a draw in the top `bound` values of the range (about bound in 2^64).
  [[nodiscard]] std::uint64_t redrawn(std::uint64_t x, std::uint64_t bound) noexcept;

  std::uint64_t s_[4];
};

}  // namespace gpusched
