#include "gpusched/framework/rng.hpp"

namespace gpusched {
namespace {
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::next() noexcept {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::int64_t Rng::intn(std::int64_t n) noexcept {
  // Rejection sampling keeps the draw exactly uniform (no modulo bias). The limit is above
  // max - bound, so a draw at or below that is kept without computing it (a division saved on
  // almost every call: select_host draws once per tied node).
  const auto bound = static_cast<std::uint64_t>(n);
  std::uint64_t x = next();
  if (x > ~std::uint64_t{0} - bound) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    while (x >= limit) x = next();
  }
  return static_cast<std::int64_t>(x % bound);
}

}  // namespace gpusched
