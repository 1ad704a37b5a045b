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

std::uint32_t EventCorrelator::name_id(std::string_view name) {
  auto found = name_ids_.find(name);
  if (found == name_ids_.end()) {
    found =
        name_ids_.emplace(std::string(name), static_cast<std::uint32_t>(name_ids_.size())).first;
  }
  return found->second;
}

EventCorrelator::Similar& EventCorrelator::similar_of(ObjectEvents& events, std::string_view type,
                                                      std::string_view reason,
                                                      std::uint32_t* index) {
  const std::uint32_t type_id = name_id(type);
  const std::uint32_t reason_id = name_id(reason);
  std::uint32_t* link = &events.first;
  for (; *link != kNone; link = &similar_[*link].next) {
    const Similar& s = similar_[*link];
    if (s.type == type_id && s.reason == reason_id) {
      *index = *link;
      return similar_[*link];
    }
  }
  *index = *link = static_cast<std::uint32_t>(similar_.size());
  Similar& added = similar_.emplace_back();
  added.type = type_id;
  added.reason = reason_id;
  return added;
}

EventCorrelator::Outcome EventCorrelator::correlate(TimeMs now, const std::string& object,
                                                    std::string_view type, std::string_view reason,
                                                    std::string message) {
  Outcome out;
  // A new object's bucket starts full.
  auto entry = objects_.find(std::string_view(object));
  if (entry == objects_.end()) {
    entry = objects_.emplace(object, ObjectEvents{}).first;
    entry->second.bucket = Bucket{kSpamBurst * kSpamTokenMs, now};
  }
  ObjectEvents& events = entry->second;
  std::uint32_t similar_index = 0;
  Similar& similar = similar_of(events, type, reason, &similar_index);
  // EventAggregate: a fresh record after 10 minutes without a similar event.
  if (now - similar.last > kAggregateIntervalMs && similar.in_aggregate > 0) {
    ++similar.epoch;
    similar.in_aggregate = 0;
  }
  similar.last = now;
  auto known = messages_.find(MessageView{similar_index, message});
  if (known == messages_.end())
    known = messages_.try_emplace(MessageKey{similar_index, message}).first;
  Message& m = known->second;
  const bool inserted = m.epoch != similar.epoch;
  if (inserted) {
    m.epoch = similar.epoch;
    ++similar.in_aggregate;
  }
  Observation* seen = &m.seen;  // getEventKey: the event itself
  if (similar.in_aggregate < kAggregateMaxEvents) {
    out.message = std::move(message);
  } else {
    // PopAny keeps the set below the maximum; upstream pops an arbitrary member, gpusched the one
    // just added, so that replays stay deterministic.
    if (inserted) {
      m.epoch = 0;
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
