// The LRU cache of client-go's recorders (lib/sim/lru_cache.hpp): get() and add() make an entry
// the most recent; a new key beyond the capacity evicts the least recent.

#include "sim/lru_cache.hpp"

#include <catch2/catch.hpp>

namespace gpusched::sim {
namespace {

TEST_CASE("a new key beyond the capacity evicts the least recently used", "[sim][lru]") {
  LruCache<int> cache(3);
  cache.add("a", 1);
  cache.add("b", 2);
  cache.add("c", 3);
  REQUIRE(cache.get("a") != nullptr);  // a is now the most recent: b is the least
  cache.add("d", 4);
  CHECK(cache.size() == 3);
  CHECK(cache.get("b") == nullptr);
  CHECK(*cache.get("a") == 1);
  CHECK(*cache.get("c") == 3);
  CHECK(*cache.get("d") == 4);
}

TEST_CASE("adding a cached key updates it and makes it the most recent", "[sim][lru]") {
  LruCache<int> cache(2);
  cache.add("a", 1);
  cache.add("b", 2);
  CHECK(cache.add("a", 10) == 10);  // a most recent, no eviction
  CHECK(cache.size() == 2);
  cache.add("c", 3);  // evicts b
  CHECK(cache.get("b") == nullptr);
  CHECK(*cache.get("a") == 10);
  CHECK(*cache.get("c") == 3);
}

TEST_CASE("a value stays at its address while its entry is cached", "[sim][lru]") {
  LruCache<int> cache(2);
  int& a = cache.add("a", 1);
  cache.add("b", 2);
  (void)cache.get("a");
  a = 5;
  CHECK(*cache.get("a") == 5);
}

}  // namespace
}  // namespace gpusched::sim
