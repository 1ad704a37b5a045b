// client-go's EventCorrelator (tools/record/events_cache.go): repeats counted, similar events
// combined after 10 within 10 minutes, 25 events per object then one per 5 minutes, each in an
// LRU cache of 4,096 entries.

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

/// One event on each of `n` other objects at `now`: each takes one entry in each of the three
/// caches.
void others(EventCorrelator& c, int n, TimeMs now) {
  for (int i = 0; i < n; ++i) {
    auto out = c.correlate(now, "Job/default/other-" + std::to_string(i), "Normal", "Completed",
                           "Job completed");
    REQUIRE(out.count == 1);
  }
}

TEST_CASE("an Event whose entry 4,096 newer keys evicted is recorded afresh", "[sim][events]") {
  for (const int newer : {4095, 4096}) {
    EventCorrelator c;
    auto first = c.correlate(0, kJob, "Normal", "SuccessfulCreate", created(0));
    *first.stored = 0;
    others(c, newer, 1000);
    auto repeat = c.correlate(2000, kJob, "Normal", "SuccessfulCreate", created(0));
    if (newer == 4095) {  // still cached: the same Event, counted on
      CHECK(repeat.count == 2);
      CHECK(repeat.first_time == 0);
      CHECK(*repeat.stored == 0);
    } else {  // evicted: a new Event, as the recorder creates one when its cache misses
      CHECK(repeat.count == 1);
      CHECK(repeat.first_time == 2000);
      CHECK(*repeat.stored == EventCorrelator::kNoEvent);
    }
  }
}

TEST_CASE("an object whose bucket was evicted gets a full burst again", "[sim][events]") {
  EventCorrelator c;
  const std::string pod = "Pod/default/p";
  for (int i = 0; i < 25; ++i)
    CHECK_FALSE(c.correlate(0, pod, "Normal", "Killing", "Stopping container main").skip);
  CHECK(c.correlate(0, pod, "Normal", "Killing", "Stopping container main").skip);
  others(c, 4096, 0);
  auto again = c.correlate(0, pod, "Normal", "Killing", "Stopping container main");
  CHECK_FALSE(again.skip);
  CHECK(again.count == 1);
}

TEST_CASE("a combined Event written takes a second entry in the cache", "[sim][events]") {
  // After ten similar events the cache of observations holds nine messages, the combined
  // Event's entry (the aggregate key) and the entry recordToSink's UpdateState adds for the
  // combined Event it wrote: eleven. 4,086 newer keys then evict the oldest message, which
  // 4,085 would not.
  for (const int newer : {4085, 4086}) {
    EventCorrelator c;
    for (int i = 0; i < 10; ++i) {
      auto out = c.correlate(0, kJob, "Normal", "SuccessfulCreate", created(i));
      CHECK_FALSE(out.skip);
      *out.stored = static_cast<std::size_t>(i);
    }
    others(c, newer, 0);
    auto repeat = c.correlate(0, kJob, "Normal", "SuccessfulCreate", created(0));
    CHECK(repeat.message == created(0));
    CHECK(repeat.count == (newer == 4085 ? 2 : 1));
  }
}

TEST_CASE(
    "the cluster autoscaler's broadcaster allows one event per reason and object per 5 "
    "minutes",
    "[sim][events]") {
  // cluster-autoscaler utils/kubernetes/events.go: BurstSize 1, the spam key has the reason.
  EventCorrelator c(EventCorrelator::Options{8192, 1, true});
  const std::string pod = "Pod/default/p";
  const std::string up = "pod triggered scale-up: [{pool 0->1 (max: 4)}]";
  CHECK_FALSE(c.correlate(0, pod, "Normal", "TriggeredScaleUp", up).skip);
  auto again = c.correlate(60'000, pod, "Normal", "TriggeredScaleUp", up + " ");
  CHECK(again.skip);
  CHECK(again.count == 1);  // another message: its own observation, dropped
  CHECK_FALSE(c.correlate(60'000, pod, "Normal", "NotTriggerScaleUp", "no pool").skip);
  CHECK_FALSE(c.correlate(60'000, "Pod/default/q", "Normal", "TriggeredScaleUp", up).skip);
  CHECK(c.correlate(299'999, pod, "Normal", "TriggeredScaleUp", up).skip);
  auto later = c.correlate(300'000, pod, "Normal", "TriggeredScaleUp", up);
  CHECK_FALSE(later.skip);
  CHECK(later.count == 3);
}

}  // namespace
}  // namespace gpusched::sim
