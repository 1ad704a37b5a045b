#include "gpusched/framework/rng.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

namespace gpusched {
namespace {

TEST_CASE("one_in(n) is intn(n) == 0 from the same draws, below and above the divisor table",
          "[rng]") {
  Rng fast(7);
  Rng slow(7);
  Rng raw(7);
  int mismatches = 0;
  int against_remainder = 0;
  int hits = 0;
  for (std::int64_t n = 1; n <= 5000; ++n) {
    for (int i = 0; i < 64; ++i) {
      const std::uint64_t x = raw.next();
      const bool one = fast.one_in(n);
      hits += one ? 1 : 0;
      if (one != (slow.intn(n) == 0)) ++mismatches;
      if (one != (x % static_cast<std::uint64_t>(n) == 0)) ++against_remainder;
    }
  }
  CHECK(mismatches == 0);
  CHECK(against_remainder == 0);
  // About 64 * H(5000) ~ 580 hits: the test sees both answers.
  CHECK(hits > 400);
  CHECK(hits < 800);
  // The streams stayed in step.
  CHECK(fast.next() == slow.next());
}

}  // namespace
}  // namespace gpusched
