#include "sim/event_correlator.hpp"

#include <algorithm>
#include <functional>

namespace gpusched::sim {
namespace {

// events_cache.go: defaultAggregateMaxEvents, defaultAggregateIntervalInSeconds.
constexpr std::size_t kAggregateMaxEvents = 10;
constexpr TimeMs kAggregateIntervalMs = 600'000;
// defaultSpamQPS (1/300): a token bucket, counted here in milliseconds of refill so that it
// stays in integers (one token is 300,000 ms of refill).
constexpr std::int64_t kSpamTokenMs = 300'000;
// Ends each part of a cache key: no object name, type or reason holds it.
constexpr char kEnd = '\x1f';
constexpr std::string_view kCombinedPrefix = "(combined from similar events): ";

std::size_t hash_of(std::string_view text) {
  return std::hash<std::string_view>{}(text);
}

// A key's hash from its parts' (boost's hash_combine), so that the text shared by the three
// keys of an event is hashed once.
std::size_t mix(std::size_t seed, std::size_t part) {
  return seed ^ (part + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace

EventCorrelator::Outcome EventCorrelator::correlate(TimeMs now, const std::string& object,
                                                    std::string_view type, std::string_view reason,
                                                    std::string message) {
  Outcome out;
  // EventAggregate, with EventAggregatorByReasonFunc's keys: the aggregate key is the object,
  // type and reason, the local key the message. The record is fresh when none is cached or
  // after 10 minutes without a similar event.
  const std::size_t object_hash = hash_of(object);
  const std::size_t aggregate_hash = mix(mix(object_hash, hash_of(type)), hash_of(reason));
  key_.assign(object).append(1, kEnd).append(type).append(1, kEnd).append(reason).append(1, kEnd);
  Aggregate* record = aggregates_.get(key_, aggregate_hash);
  if (record == nullptr) {
    record = &aggregates_.add(key_, aggregate_hash, Aggregate{});
  } else if (now - record->last > kAggregateIntervalMs) {
    record->messages.clear();
  }
  record->last = now;
  const bool inserted = std::find(record->messages.begin(), record->messages.end(), message) ==
                        record->messages.end();
  if (inserted) record->messages.push_back(message);
  const bool combined = record->messages.size() >= kAggregateMaxEvents;
  std::size_t observed_hash = aggregate_hash;
  if (combined) {
    // PopAny keeps the set below the maximum; upstream pops an arbitrary member, gpusched the
    // one just added (the set only reaches the maximum by an insertion), so that replays stay
    // deterministic. The combined Event's cache key is the aggregate key.
    record->messages.pop_back();
    out.message = std::string(kCombinedPrefix) + message;
  } else {
    // getEventKey: the event itself.
    key_.append(message).append(1, kEnd);
    observed_hash = mix(aggregate_hash, hash_of(message));
    out.message = std::move(message);
  }
  // eventObserve: a repeat of a cached key updates that Event, counting on from its count.
  Observation* seen = observed_.get(key_, observed_hash);
  if (seen == nullptr) seen = &observed_.add(key_, observed_hash, Observation{});
  seen->count += 1;
  if (seen->count == 1) seen->first_time = now;
  out.count = seen->count;
  out.first_time = seen->first_time;
  // EventSourceObjectSpamFilter: the observation above is kept even when the event is dropped;
  // a key without a cached bucket starts with a full one.
  std::string_view spam_key = object;
  std::size_t spam_hash = object_hash;
  if (options_.spam_key_has_reason) {
    key_.assign(reason).append(1, kEnd).append(object);
    spam_key = key_;
    spam_hash = mix(hash_of(reason), object_hash);
  }
  const std::int64_t full = options_.burst * kSpamTokenMs;
  Bucket* bucket = buckets_.get(spam_key, spam_hash);
  if (bucket == nullptr) bucket = &buckets_.add(spam_key, spam_hash, Bucket{full, now});
  bucket->tokens = std::min(full, bucket->tokens + (now - bucket->refilled_at));
  bucket->refilled_at = now;
  if (bucket->tokens < kSpamTokenMs) {
    out.skip = true;
  } else {
    bucket->tokens -= kSpamTokenMs;
  }
  if (!out.skip && combined) {
    // recordToSink's UpdateState caches the Event it wrote under getEventKey, which for the
    // combined Event holds its prefixed message: an entry nothing reads again, but it takes a
    // place in the cache. The observation above, under the aggregate key, is then the second
    // most recent: it stays, and is found again where the new entry may have moved it.
    key_.assign(object).append(1, kEnd).append(type).append(1, kEnd).append(reason);
    key_.append(1, kEnd);
    const std::size_t aggregate_key_size = key_.size();
    key_.append(out.message).append(1, kEnd);
    (void)observed_.add(key_, mix(aggregate_hash, hash_of(out.message)),
                        Observation{out.count, out.first_time, kNoEvent});
    key_.resize(aggregate_key_size);
    seen = observed_.peek(key_, aggregate_hash);
  }
  out.stored = &seen->stored;
  return out;
}

}  // namespace gpusched::sim
