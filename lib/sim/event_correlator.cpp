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

std::string join_key(std::initializer_list<std::string_view> parts) {
  std::string key;
  for (std::string_view part : parts) key.append(part).push_back('\x1f');
  return key;
}

}  // namespace

EventCorrelator::Outcome EventCorrelator::correlate(TimeMs now, const std::string& object,
                                                    std::string_view type, std::string_view reason,
                                                    std::string message) {
  Outcome out;
  // EventAggregate: a fresh record after 10 minutes without a similar event.
  std::string key = join_key({object, type, reason});
  Aggregate& aggregate = aggregates_[key];
  if (now - aggregate.last > kAggregateIntervalMs) aggregate.messages.clear();
  aggregate.last = now;
  const bool inserted = aggregate.messages.insert(message).second;
  if (aggregate.messages.size() < kAggregateMaxEvents) {
    key += message;  // getEventKey: the event itself
    out.message = std::move(message);
  } else {
    // PopAny keeps the set below the maximum; upstream pops an arbitrary member, gpusched the one
    // just added, so that replays stay deterministic.
    if (inserted) aggregate.messages.erase(message);
    out.message = "(combined from similar events): " + message;
  }
  // eventObserve: a repeat of a known key updates that Event, counting on from the last count.
  Observation& seen = observations_[key];
  seen.count += 1;
  if (seen.count == 1) seen.first_time = now;
  out.count = seen.count;
  out.first_time = seen.first_time;
  out.stored = &seen.stored;
  // EventSourceObjectSpamFilter: the observation above is kept even when the event is dropped.
  // A new bucket starts full.
  Bucket& bucket =
      buckets_.try_emplace(object, Bucket{kSpamBurst * kSpamTokenMs, now}).first->second;
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
