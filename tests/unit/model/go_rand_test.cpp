// GoRand against Go's math/rand streams, as the FGD artifact's reference records them
// (../shared/reference/fgd-artifact.md §1.4, "Test vectors (verified with a port)"): the
// whole 607-word table takes part in the 8,152-pod shuffle, so a wrong word shows there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

#include "model/go_rand.hpp"

namespace gpusched {
namespace {

TEST_CASE("GoRand: rand.Seed(1) then rand.Intn(100) ten times", "[model][gorand]") {
  GoRand r(1);
  std::vector<int> drawn;
  for (int i = 0; i < 10; ++i) drawn.push_back(r.intn(100));
  CHECK(drawn == std::vector<int>{81, 87, 47, 59, 81, 18, 25, 40, 56, 0});
}

TEST_CASE("GoRand: the FGD artifact's draws for seed 42", "[model][gorand]") {
  GoRand r(42);
  // The rand.Int() evaluated as a log argument.
  CHECK(r.int_() == 3440579354231278675LL);
  // Shuffle of the 8,152 pods sorted by name (openb-pod-0000 ... -8151: the name is the index).
  std::vector<int> pods(8152);
  std::iota(pods.begin(), pods.end(), 0);
  r.shuffle(static_cast<int>(pods.size()), [&](int i, int j) {
    std::swap(pods[static_cast<std::size_t>(i)], pods[static_cast<std::size_t>(j)]);
  });
  CHECK(std::vector<int>(pods.begin(), pods.begin() + 5) ==
        std::vector<int>{255, 1685, 6784, 4463, 602});
  CHECK(pods.back() == 538);
  // The tuning loop's first clones, indices into the name-sorted list.
  std::vector<int> clones;
  for (int i = 0; i < 5; ++i) clones.push_back(r.intn(8152));
  CHECK(clones == std::vector<int>{3888, 5689, 2936, 788, 5416});
}

TEST_CASE("GoRand: Perm, powers of two, seeds out of range", "[model][gorand]") {
  // Perm is a permutation drawn with Intn(i+1); Intn(1) still consumes a draw.
  GoRand a(7), b(7);
  const std::vector<int> p = a.perm(50);
  std::vector<int> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> identity(50);
  std::iota(identity.begin(), identity.end(), 0);
  CHECK(sorted == identity);
  for (int i = 0; i < 50; ++i) (void)b.intn(i + 1);
  CHECK(a.int63() == b.int63());
  // A power of two masks Int31.
  GoRand c(9), d(9);
  CHECK(c.intn(64) == (d.int31() & 63));
  // Seeds equal mod 2^31-1 give one stream; 0 is replaced by 89482311.
  CHECK(GoRand(5).int63() == GoRand(5 + 2147483647LL).int63());
  CHECK(GoRand(0).int63() == GoRand(89482311).int63());
  CHECK(GoRand(-1).int63() == GoRand(2147483646).int63());
  // Float64 lies in [0, 1).
  GoRand e(3);
  for (int i = 0; i < 1000; ++i) {
    const double f = e.float64();
    CHECK((f >= 0 && f < 1));
  }
}

}  // namespace
}  // namespace gpusched
