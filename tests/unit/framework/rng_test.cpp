#include "gpusched/framework/rng.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace gpusched {
namespace {

/// selectHost's reservoir as upstream writes it, with intn's draws.
std::size_t reservoir_by_intn(Rng& rng, const std::vector<std::int64_t>& values) {
  std::int64_t best = values.front();
  std::size_t selected = 0;
  std::int64_t ties = 1;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i] > best) {
      best = values[i];
      selected = i;
      ties = 1;
    } else if (values[i] == best && rng.intn(++ties) == 0) {
      selected = i;
    }
  }
  return selected;
}

TEST_CASE("reservoir_max picks as intn's reservoir does, from the same draws", "[rng]") {
  Rng fast(7);
  Rng slow(7);
  Rng shape(99);
  int mismatches = 0;
  int not_first = 0;
  int compared = 0;
  // Many values of a few scores, so that ties run from 2 up past the divisor table (4,096) and
  // a new best restarts the count; and lists of one value, and of one score only.
  for (const std::size_t length :
       {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{500}, std::size_t{5000}}) {
    for (const std::int64_t scores : {std::int64_t{1}, std::int64_t{3}, std::int64_t{50}}) {
      for (int round = 0; round < 40; ++round) {
        std::vector<std::int64_t> values(length);
        for (std::int64_t& v : values) v = shape.intn(scores);
        const std::size_t picked = fast.reservoir_max(values);
        if (picked != reservoir_by_intn(slow, values)) ++mismatches;
        if (picked != 0) ++not_first;
        ++compared;
      }
    }
  }
  CHECK(compared == 600);
  CHECK(mismatches == 0);
  CHECK(not_first > 300);  // the test sees the choice move
  // The streams stayed in step.
  CHECK(fast.next() == slow.next());
}

}  // namespace
}  // namespace gpusched
