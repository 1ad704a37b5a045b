#pragma once
/// The one seeded random source of a run (xoshiro256**, seeded by splitmix64). Implemented here
/// rather than with <random> distributions, whose results differ between standard libraries.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpusched {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept;

  [[nodiscard]] std::uint64_t next() noexcept { return advance(s_[0], s_[1], s_[2], s_[3]); }

  /// Uniform integer in [0, n), like Go's rand.Intn; n must be > 0.
  [[nodiscard]] std::int64_t intn(std::int64_t n) noexcept;

  /// selectHost's choice (schedule_one.go): the index of one of the largest of `values` (not
  /// empty), by reservoir sampling: each value equal to the largest so far replaces the choice
  /// when intn(the count of them so far) is 0, one draw per tie and none otherwise. It takes
  /// intn's draws, but tells whether the count divides one without dividing.
  [[nodiscard]] std::size_t reservoir_max(std::span<const std::int64_t> values) noexcept;

 private:
  /// xoshiro256**'s step over a state: the generator's own, or a copy a loop holds in locals.
  static std::uint64_t advance(std::uint64_t& s0, std::uint64_t& s1, std::uint64_t& s2,
                               std::uint64_t& s3) noexcept {
    const std::uint64_t result = std::rotl(s1 * 5, 7) * 9;
    const std::uint64_t t = s1 << 17;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = std::rotl(s3, 45);
    return result;
  }
  /// `x`, or when it falls in the biased top of the range, the first later draw that does not.
  [[nodiscard]] std::uint64_t unbiased(std::uint64_t x, std::uint64_t bound) noexcept;

  std::uint64_t s_[4];
};

}  // namespace gpusched
