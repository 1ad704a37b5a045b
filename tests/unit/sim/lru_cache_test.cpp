// The LRU cache of client-go's recorders (lib/sim/lru_cache.hpp): get() and add() make an entry
// the most recent; a new key beyond the capacity evicts the least recent.

#include "sim/lru_cache.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <list>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace gpusched::sim {
namespace {

std::size_t hash(std::string_view key) {
  return std::hash<std::string_view>{}(key);
}

TEST_CASE("a new key beyond the capacity evicts the least recently used", "[sim][lru]") {
  LruCache<int> cache(3);
  cache.add("a", hash("a"), 1);
  cache.add("b", hash("b"), 2);
  cache.add("c", hash("c"), 3);
  REQUIRE(cache.get("a", hash("a")) != nullptr);  // a is now the most recent: b is the least
  cache.add("d", hash("d"), 4);
  CHECK(cache.size() == 3);
  CHECK(cache.get("b", hash("b")) == nullptr);
  CHECK(*cache.get("a", hash("a")) == 1);
  CHECK(*cache.get("c", hash("c")) == 3);
  CHECK(*cache.get("d", hash("d")) == 4);
}

TEST_CASE("adding a cached key updates it and makes it the most recent", "[sim][lru]") {
  LruCache<int> cache(2);
  cache.add("a", hash("a"), 1);
  cache.add("b", hash("b"), 2);
  CHECK(cache.add("a", hash("a"), 10) == 10);  // a most recent, no eviction
  CHECK(cache.size() == 2);
  cache.add("c", hash("c"), 3);  // evicts b
  CHECK(cache.get("b", hash("b")) == nullptr);
  CHECK(*cache.get("a", hash("a")) == 10);
  CHECK(*cache.get("c", hash("c")) == 3);
}

TEST_CASE("a value keeps its address through lookups and updates; peek leaves the order",
          "[sim][lru]") {
  LruCache<int> cache(2);
  cache.add("a", hash("a"), 1);
  int& b = cache.add("b", hash("b"), 2);
  (void)cache.get("a", hash("a"));
  CHECK(cache.add("a", hash("a"), 3) == 3);
  REQUIRE(cache.peek("b", hash("b")) == &b);  // b is still the least recent
  b = 5;
  cache.add("c", hash("c"), 4);  // evicts b, not a
  CHECK(cache.peek("b", hash("b")) == nullptr);
  CHECK(*cache.peek("a", hash("a")) == 3);
  CHECK(*cache.peek("c", hash("c")) == 4);
}

TEST_CASE("the cache agrees with a list kept in recency order, through colliding hashes",
          "[sim][lru]") {
  // Hashes of 7 values make long probe chains, so evictions delete from the middle of them.
  LruCache<int> cache(50);
  std::list<std::pair<std::string, int>> reference;  // most recent first
  std::mt19937 rng(7);
  for (int step = 0; step < 20'000; ++step) {
    const int k = static_cast<int>(rng() % 200);
    const std::string key = "key-" + std::to_string(k);
    const std::size_t h = static_cast<std::size_t>(k % 7);
    auto it = std::find_if(reference.begin(), reference.end(),
                           [&](const auto& entry) { return entry.first == key; });
    if (rng() % 2 == 0) {
      int* got = cache.get(key, h);
      REQUIRE((got != nullptr) == (it != reference.end()));
      if (got == nullptr) continue;
      REQUIRE(*got == it->second);
      reference.splice(reference.begin(), reference, it);
    } else {
      CHECK(cache.add(key, h, step) == step);
      if (it != reference.end()) reference.erase(it);
      reference.emplace_front(key, step);
      if (reference.size() > 50) reference.pop_back();
    }
    REQUIRE(cache.size() == reference.size());
  }
  for (const auto& [key, value] : reference) {
    const int k = std::stoi(key.substr(4));
    REQUIRE(cache.get(key, static_cast<std::size_t>(k % 7)) != nullptr);
  }
}

}  // namespace
}  // namespace gpusched::sim
