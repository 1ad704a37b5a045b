// ResVec: the first ids inline, any others in a small list; unset ids read as 0.

#include <catch2/catch.hpp>

#include <limits>

#include "gpusched/framework/resources.hpp"

namespace gpusched {

TEST_CASE("a resource vector reads what was set, inline or not, and 0 for the rest",
          "[framework][resources]") {
  ResVec v;
  CHECK(v[res::kCpu] == 0);
  CHECK(v[4000] == 0);
  v.set(res::kCpu, 1500);
  v.add(res::kCpu, 500);
  v.set(4000, 7);  // one of thousands of extended resources (SchedulingWithExtendedResource)
  v.add(4000, 1);
  v.add(9, -3);
  v.add(5, 2);  // the last inline id
  CHECK(v[res::kCpu] == 2000);
  CHECK(v[4000] == 8);
  CHECK(v[9] == -3);
  CHECK(v[5] == 2);
  CHECK(v[6] == 0);
  CHECK(v[3999] == 0);
  v.clear();
  CHECK(v[res::kCpu] == 0);
  CHECK(v[4000] == 0);
}

TEST_CASE("adding to a resource saturates instead of overflowing", "[framework][resources]") {
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  ResVec v;
  v.set(1, kMax - 1);
  v.add(1, 5);
  CHECK(v[1] == kMax);
  v.set(4000, kMin + 1);
  v.add(4000, -5);
  CHECK(v[4000] == kMin);
}

}  // namespace gpusched
