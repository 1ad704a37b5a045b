// client-go's EventCorrelator (tools/record/events_cache.go): repeats counted, similar events
// combined after 10 within 10 minutes, 25 events per object then one per 5 minutes.

#include "sim/event_correlator.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace gpusched::sim {
namespace {

const std::string kJob = "Job/default/train";

std::string created(int i) {
  return "Created pod: train-" + std::to_string(i);
}

TEST_CASE("the tenth similar event within 10 minutes is combined, later ones count on it",
          "[sim][events]") {
  EventCorrelator c;
  for (int i = 0; i < 9; ++i) {
    auto out = c.correlate(i * 1000, kJob, "Normal", "SuccessfulCreate", created(i));
    CHECK_FALSE(out.skip);
    CHECK(out.message == created(i));
    CHECK(out.count == 1);
    CHECK(*out.stored == EventCorrelator::kNoEvent);
    *out.stored = static_cast<std::size_t>(i);
  }
  auto tenth = c.correlate(9000, kJob, "Normal", "SuccessfulCreate", created(9));
  CHECK(tenth.message == "(combined from similar events): " + created(9));
  CHECK(tenth.count == 1);
  CHECK(tenth.first_time == 9000);
  REQUIRE(*tenth.stored == EventCorrelator::kNoEvent);
  *tenth.stored = 9;
  auto eleventh = c.correlate(10'000, kJob, "Normal", "SuccessfulCreate", created(10));
  CHECK(eleventh.message == "(combined from similar events): " + created(10));
  CHECK(eleventh.count == 2);
  CHECK(eleventh.first_time == 9000);
  CHECK(*eleventh.stored == 9);
  // One of the nine messages still in the set is not new: it is counted on its own Event.
  auto repeat = c.correlate(11'000, kJob, "Normal", "SuccessfulCreate", created(3));
  CHECK(repeat.message == created(3));
  CHECK(repeat.count == 2);
  CHECK(*repeat.stored == 3);
  // Another reason on the same object is another group.
  auto other = c.correlate(12'000, kJob, "Normal", "Completed", "Job completed");
  CHECK(other.message == "Job completed");
}

TEST_CASE("similar events more than 10 minutes apart start a new group", "[sim][events]") {
  EventCorrelator c;
  for (int i = 0; i < 9; ++i) (void)c.correlate(0, kJob, "Normal", "SuccessfulCreate", created(i));
  auto late = c.correlate(600'001, kJob, "Normal", "SuccessfulCreate", created(9));
  CHECK(late.message == created(9));
  auto on_time = c.correlate(600'002, kJob, "Normal", "SuccessfulCreate", created(10));
  CHECK(on_time.message == created(10));
}

TEST_CASE("a new group forgets the old group's messages but not their counts", "[sim][events]") {
  EventCorrelator c;
  for (int i = 0; i < 9; ++i) (void)c.correlate(0, kJob, "Normal", "SuccessfulCreate", created(i));
  // After 10 quiet minutes the set of recent messages is empty: an old message joins it again,
  // counted on from its own Event's count.
  auto again = c.correlate(600'001, kJob, "Normal", "SuccessfulCreate", created(3));
  CHECK(again.message == created(3));
  CHECK(again.count == 2);
  // Eight more distinct messages fill the set to nine; the tenth is combined.
  for (int i = 20; i < 28; ++i) {
    CHECK(c.correlate(600'002, kJob, "Normal", "SuccessfulCreate", created(i)).message ==
          created(i));
  }
  auto tenth = c.correlate(600'003, kJob, "Normal", "SuccessfulCreate", created(30));
  CHECK(tenth.message == "(combined from similar events): " + created(30));
  // The same reason on another object is its own group.
  CHECK(c.correlate(600'004, "Job/default/other", "Normal", "SuccessfulCreate", created(31))
            .message == created(31));
}

TEST_CASE("an object gets 25 events, then one more per 5 minutes; counts go on meanwhile",
          "[sim][events]") {
  EventCorrelator c;
  for (int i = 0; i < 25; ++i) {
    CHECK_FALSE(
        c.correlate(0, "Pod/default/p", "Normal", "Killing", "Stopping container main").skip);
  }
  auto dropped = c.correlate(0, "Pod/default/p", "Normal", "Killing", "Stopping container main");
  CHECK(dropped.skip);
  CHECK(dropped.count == 26);
  // Another object has its own bucket.
  CHECK_FALSE(c.correlate(0, "Pod/default/q", "Normal", "Killing", "Stopping container main").skip);
  CHECK(c.correlate(299'999, "Pod/default/p", "Normal", "Killing", "Stopping container main").skip);
  auto refilled =
      c.correlate(300'000, "Pod/default/p", "Normal", "Killing", "Stopping container main");
  CHECK_FALSE(refilled.skip);
  CHECK(refilled.count == 28);
  CHECK(c.correlate(300'000, "Pod/default/p", "Normal", "Killing", "Stopping container main").skip);
}

}  // namespace
}  // namespace gpusched::sim
