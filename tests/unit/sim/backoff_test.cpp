// flowcontrol.Backoff on the virtual clock (client-go util/flowcontrol/backoff_test.go).
#include "sim/backoff.hpp"

#include <catch2/catch.hpp>

namespace gpusched::sim {
namespace {

TEST_CASE("Backoff doubles up to its maximum", "[sim][backoff]") {
  Backoff backoff(1000, 4000);
  CHECK(backoff.get("k") == 0);
  CHECK_FALSE(backoff.in_backoff_since_update("k", 0));
  const TimeMs want[] = {1000, 2000, 4000, 4000};
  TimeMs now = 0;
  for (TimeMs delay : want) {
    backoff.next("k", now);
    CHECK(backoff.get("k") == delay);
    CHECK(backoff.in_backoff_since_update("k", now + delay - 1));
    CHECK_FALSE(backoff.in_backoff_since_update("k", now + delay));
    now += delay;
  }
  CHECK(backoff.get("other") == 0);
}

TEST_CASE("Backoff starts over after twice its maximum untouched", "[sim][backoff]") {
  Backoff backoff(1000, 4000);
  backoff.next("k", 0);
  backoff.next("k", 1000);
  CHECK(backoff.get("k") == 2000);
  // hasExpired: more than 2 x max since the last update.
  CHECK_FALSE(backoff.in_backoff_since_update("k", 1000 + 8001));
  backoff.next("k", 1000 + 8000);
  CHECK(backoff.get("k") == 4000);
  backoff.next("k", 9000 + 8001);
  CHECK(backoff.get("k") == 1000);
}

}  // namespace
}  // namespace gpusched::sim
