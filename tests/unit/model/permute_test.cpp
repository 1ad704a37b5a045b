// permute: a list reordered in place by a permutation, each item moved once.
#include "model/permute.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST_CASE("permute puts items[from[j]] at j, moving each item once", "[model][permute]") {
  SECTION("cycles of every length, the identity, a swap") {
    std::vector<std::string> items = {"a", "b", "c", "d", "e", "f"};
    // 0 <- 2 <- 4 <- 0 (a cycle of three), 1 stays, 3 <-> 5.
    std::vector<std::uint32_t> from = {2, 1, 4, 5, 0, 3};
    permute(items, from);
    CHECK(items == std::vector<std::string>{"c", "b", "e", "f", "a", "d"});
    CHECK(from == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});  // used up: the identity
  }
  SECTION("a long permutation of move-only items") {
    // i -> 263 i mod 500: a permutation (263 and 500 are coprime) of several long cycles.
    constexpr std::size_t kCount = 500;
    std::vector<std::size_t> from(kCount);
    for (std::size_t i = 0; i < kCount; ++i) from[i] = i * 263 % kCount;
    const std::vector<std::size_t> wanted = from;
    std::vector<std::unique_ptr<std::size_t>> items;
    for (std::size_t i = 0; i < kCount; ++i) items.push_back(std::make_unique<std::size_t>(i));
    permute(items, from);
    for (std::size_t j = 0; j < kCount; ++j) {
      REQUIRE(items[j] != nullptr);
      CHECK(*items[j] == wanted[j]);
    }
  }
}

}  // namespace
}  // namespace gpusched
