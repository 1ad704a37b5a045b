#include "sim/event_recorder.hpp"

namespace gpusched::sim {

void EventRecorder::series_event(const std::string& object, std::string_view type,
                                 std::string_view reason, std::string message) {
  // The events.k8s.io broadcaster (client-go tools/events/event_broadcaster.go recordToSink)
  // counts repeats of one event on its series instead of storing them again.
  std::size_t hash = 0;
  for (std::string_view part : {std::string_view(object), type, reason, std::string_view(message)})
    hash = hash * 31 + std::hash<std::string_view>{}(part);
  const std::uint32_t found = series_index_.find(hash, [&](std::uint32_t id) {
    if (series_[id].hash != hash) return false;
    const EventRecord& e = events_[series_[id].event];
    return e.object == object && e.type == type && e.reason == reason && e.message == message;
  });
  if (found != HashIndex::kNone) {
    EventRecord& e = events_[series_[found].event];
    ++e.count;
    e.last_time = now_;
    observed(e);
    return;
  }
  series_index_.insert(static_cast<std::uint32_t>(series_.size()), hash,
                       [&](std::uint32_t id) { return series_[id].hash; });
  series_.push_back(Series{hash, events_.size()});
  events_.push_back(
      EventRecord{now_, now_, 1, text(type), text(reason), object, std::move(message)});
  observed(events_.back());
}

void EventRecorder::recorded_event(std::string_view source, const std::string& object,
                                   std::string_view type, std::string_view reason,
                                   std::string message) {
  auto correlator = correlators_.find(source);
  if (correlator == correlators_.end())
    correlator = correlators_.try_emplace(std::string(source)).first;
  EventCorrelator::Outcome out =
      correlator->second.correlate(now_, object, type, reason, std::move(message));
  if (out.skip) return;
  if (*out.stored != EventCorrelator::kNoEvent) {
    // The recorder patches the Event it created (or creates it again when it was never stored).
    EventRecord& e = events_[*out.stored];
    e.count = out.count;
    e.last_time = now_;
    e.message = std::move(out.message);
    observed(e);
    return;
  }
  *out.stored = events_.size();
  events_.push_back(EventRecord{out.first_time, now_, out.count, text(type), text(reason), object,
                                std::move(out.message)});
  observed(events_.back());
}

const SharedText& EventRecorder::text(std::string_view value) {
  auto it = texts_.find(value);
  if (it == texts_.end()) it = texts_.emplace(std::string(value), SharedText(value)).first;
  return it->second;
}

}  // namespace gpusched::sim
