#include "gpusched/framework/rng.hpp"

#include <array>
#include <bit>
#include <cstddef>

namespace gpusched {
namespace {
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/// What tells whether a divisor d = 2^s * m (m odd) divides x without dividing (Hacker's
/// Delight 10-17, after Granlund and Montgomery): it does exactly when
/// rotr(x * inverse(m) mod 2^64, s) <= (2^64 - 1) / d.
struct Divisor {
  std::uint64_t inverse;  ///< of m, modulo 2^64
  std::uint64_t limit;    ///< (2^64 - 1) / d
};

/// Divisors below this are tested from the table; select_host's draws are for 2, 3, ... ties.
constexpr std::size_t kDivisors = 4096;

constexpr std::array<Divisor, kDivisors> kDivisorTable = [] {
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
}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::next() noexcept {
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

std::uint64_t Rng::unbiased(std::uint64_t x, std::uint64_t bound) noexcept {
  // Rejection sampling keeps the draw exactly uniform (no modulo bias). The limit is above
  // max - bound, so a draw at or below that is kept without computing it (a division saved on
  // almost every call: select_host draws once per tied node).
  if (x > ~std::uint64_t{0} - bound) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    while (x >= limit) x = next();
  }
  return x;
}

std::int64_t Rng::intn(std::int64_t n) noexcept {
  const auto bound = static_cast<std::uint64_t>(n);
  return static_cast<std::int64_t>(unbiased(next(), bound) % bound);
}

bool Rng::one_in(std::int64_t n) noexcept {
  // The division was most of a draw's cost, and select_host draws once per tied node.
  const auto bound = static_cast<std::uint64_t>(n);
  if (bound >= kDivisors) return intn(n) == 0;
  const std::uint64_t x = unbiased(next(), bound);
  const Divisor& d = kDivisorTable[bound];
  return std::rotr(x * d.inverse, std::countr_zero(bound)) <= d.limit;
}

}  // namespace gpusched
