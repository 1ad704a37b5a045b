#include "gpusched/framework/rng.hpp"

#include <array>

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

/// Divisors below this are tested from the table; selectHost's draws are for 2, 3, ... ties.
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

/// Whether `bound` (below kDivisors) divides `x`.
bool divides(std::uint64_t bound, std::uint64_t x) noexcept {
  const Divisor& d = kDivisorTable[bound];
  return std::rotr(x * d.inverse, std::countr_zero(bound)) <= d.limit;
}
}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::unbiased(std::uint64_t x, std::uint64_t bound) noexcept {
  // Rejection sampling keeps the draw exactly uniform (no modulo bias). The limit is above
  // max - bound, so a draw at or below that is kept without computing it.
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

std::size_t Rng::reservoir_max(std::span<const std::int64_t> values) noexcept {
  // selectHost draws once per tied node, hundreds of times a cycle on a fleet of like nodes:
  // intn's division was most of a draw's cost, and the state went to memory and back at every
  // draw. The loop holds a copy of the state, which the compiler keeps in registers; the rare
  // draw that needs more than one step, or a count past the table, goes through the member.
  std::uint64_t s0 = s_[0], s1 = s_[1], s2 = s_[2], s3 = s_[3];
  const auto store = [&] {
    s_[0] = s0;
    s_[1] = s1;
    s_[2] = s2;
    s_[3] = s3;
  };
  const auto load = [&] {
    s0 = s_[0];
    s1 = s_[1];
    s2 = s_[2];
    s3 = s_[3];
  };
  std::int64_t best = values.front();
  std::size_t selected = 0;
  std::int64_t ties = 1;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i] > best) {
      best = values[i];
      selected = i;
      ties = 1;
      continue;
    }
    if (values[i] != best) continue;
    const auto bound = static_cast<std::uint64_t>(++ties);
    bool hit = false;
    if (bound < kDivisors) [[likely]] {
      std::uint64_t x = advance(s0, s1, s2, s3);
      if (x > ~std::uint64_t{0} - bound) [[unlikely]] {
        store();
        x = unbiased(x, bound);
        load();
      }
      hit = divides(bound, x);
    } else {
      store();
      hit = intn(ties) == 0;
      load();
    }
    if (hit) selected = i;
  }
  store();
  return selected;
}

}  // namespace gpusched
