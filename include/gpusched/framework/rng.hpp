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
  /// intn(n) == 0, from the same draws: the stream goes on exactly as after intn(n).
  [[nodiscard]] bool one_in(std::int64_t n) noexcept;

 private:
  /// `x`, or when it falls in the biased top of the range, the first later draw that does not.
  [[nodiscard]] std::uint64_t unbiased(std::uint64_t x, std::uint64_t bound) noexcept;

  std::uint64_t s_[4];
};

}  // namespace gpusched
