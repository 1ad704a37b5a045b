#include "sim/event_correlator.hpp"

#include <algorithm>

namespace gpusched::sim {
namespace {

// events_cache.go: defaultAggregateMaxEvents, defaultAggregateIntervalInSeconds.
constexpr std::size_t kAggregateMaxEvents = 10;
constexpr TimeMs kAggregateIntervalMs = 600'000;
// defaultSpamBurst and defaultSpamQPS (1/300): a token bucket, counted here in milliseconds of
// refill so that it stays in integers (one token is 300,000 ms of refill).
constexpr std::int64_t kSpamTokenMs = 300'000;
constexpr std::int64_t kSpamBurst = 25;

}  // namespace

EventCorrelator::Outcome EventCorrelator::correlate(TimeMs now, const std::string& object,
                                                    std::string_view type, std::string_view reason,
                                                    std::string message) {
  Outcome out;
  // A new object's bucket starts full.
  auto [entry, added] = objects_.try_emplace(object);
  ObjectEvents& events = entry->second;
  if (added) events.bucket = Bucket{kSpamBurst * kSpamTokenMs, now};
  auto found = std::find_if(events.similar.begin(), events.similar.end(),
                            [&](const Similar& s) { return s.type == type && s.reason == reason; });
  if (found == events.similar.end()) {
    found = events.similar.insert(events.similar.end(), Similar{});
    found->type = type;
    found->reason = reason;
  }
  Similar& similar = *found;
  // EventAggregate: a fresh record after 10 minutes without a similar event.
  if (now - similar.last > kAggregateIntervalMs && similar.in_aggregate > 0) {
    for (auto& [text, m] : similar.messages) m.in_aggregate = false;
    similar.in_aggregate = 0;
  }
  similar.last = now;
  Message& m = similar.messages[message];
  const bool inserted = !m.in_aggregate;
  if (inserted) {
    m.in_aggregate = true;
    ++similar.in_aggregate;
  }
  Observation* seen = &m.seen;  // getEventKey: the event itself
  if (similar.in_aggregate < kAggregateMaxEvents) {
    out.message = std::move(message);
  } else {
    // PopAny keeps the set below the maximum; upstream pops an arbitrary member, gpusched the one
    // just added, so that replays stay deterministic.
    if (inserted) {
      m.in_aggregate = false;
      --similar.in_aggregate;
    }
    seen = &similar.combined;
    out.message = "(combined from similar events): " + message;
  }
  // eventObserve: a repeat of a known key updates that Event, counting on from the last count.
  seen->count += 1;
  if (seen->count == 1) seen->first_time = now;
  out.count = seen->count;
  out.first_time = seen->first_time;
  out.stored = &seen->stored;
  // EventSourceObjectSpamFilter: the observation above is kept even when the event is dropped.
  Bucket& bucket = events.bucket;
  bucket.tokens = std::min(kSpamBurst * kSpamTokenMs, bucket.tokens + (now - bucket.refilled_at));
  bucket.refilled_at = now;
  if (bucket.tokens < kSpamTokenMs) {
    out.skip = true;
  } else {
    bucket.tokens -= kSpamTokenMs;
  }
  return out;
}

}  // namespace gpusched::sim
