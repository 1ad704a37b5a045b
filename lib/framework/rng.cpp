#include "gpusched/framework/rng.hpp"

namespace gpusched {
namespace {
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::redrawn(std::uint64_t x, std::uint64_t bound) noexcept {
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
  while (x >= limit) x = next();
  return x;
}

std::int64_t Rng::intn(std::int64_t n) noexcept {
  const auto bound = static_cast<std::uint64_t>(n);
  return static_cast<std::int64_t>(unbiased(next(), bound) % bound);
}

}  // namespace gpusched
