#include "model/go_text.hpp"

#include <catch2/catch.hpp>

namespace gpusched {
namespace {

TEST_CASE("go_duration prints as Go's time.Duration String()", "[model]") {
  // The forms waiting_pods_map.go's "rejected due to timeout after waiting %v" prints.
  CHECK(go_duration(0) == "0s");
  CHECK(go_duration(250) == "250ms");
  CHECK(go_duration(1000) == "1s");
  CHECK(go_duration(1500) == "1.5s");
  CHECK(go_duration(1050) == "1.05s");
  CHECK(go_duration(300'000) == "5m0s");
  CHECK(go_duration(299'500) == "4m59.5s");
  CHECK(go_duration(3'600'000) == "1h0m0s");
  CHECK(go_duration(3'723'000) == "1h2m3s");
  CHECK(go_duration(-1500) == "-1.5s");
}

}  // namespace
}  // namespace gpusched
