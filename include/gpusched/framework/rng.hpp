#pragma once
/// The one seeded random source of a run (xoshiro256**, seeded by splitmix64). Implemented here
/// rather than with <random> distributions, whose results differ between standard libraries.

#include <cstdint>

namespace gpusched {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept;
  [[nodiscard]] std::uint64_t next() noexcept;
  /// Uniform integer in [0, n), like Go's rand.Intn; n must be > 0.
  [[nodiscard]] std::int64_t intn(std::int64_t n) noexcept;

 private:
  std::uint64_t s_[4];
};

}  // namespace gpusched
