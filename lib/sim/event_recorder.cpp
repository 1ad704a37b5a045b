#include "sim/event_recorder.hpp"

#include <algorithm>
#include <utility>

namespace gpusched::sim {

void EventRecorder::series_event(const std::string& object, std::string_view type,
                                 std::string_view reason, std::string message) {
  // The events.k8s.io broadcaster (client-go tools/events/event_broadcaster.go recordToSink)
  // counts repeats of one event on its series instead of storing them again.
  std::size_t hash = 0;
  for (std::string_view part : {std::string_view(object), type, reason, std::string_view(message)})
    hash = hash * 31 + std::hash<std::string_view>{}(part);
  if (2 * (series_count_ + 1) > series_slots_.size()) grow_series();
  const std::size_t mask = series_slots_.size() - 1;
  std::size_t i = hash & mask;
  for (; series_slots_[i].event != 0; i = (i + 1) & mask) {
    if (series_slots_[i].hash != hash) continue;
    EventRecord& e = events_[series_slots_[i].event - 1];
    if (e.object == object && e.type == type && e.reason == reason && e.message == message) {
      ++e.count;
      e.last_time = now_;
      observed(e);
      return;
    }
  }
  series_slots_[i] = SeriesSlot{hash, events_.size() + 1};
  ++series_count_;
  events_.push_back(EventRecord{now_, now_, 1, std::string(type), std::string(reason), object,
                                std::move(message)});
  observed(events_.back());
}

void EventRecorder::grow_series() {
  std::vector<SeriesSlot> old = std::exchange(
      series_slots_, std::vector<SeriesSlot>(std::max<std::size_t>(64, 2 * series_slots_.size())));
  const std::size_t mask = series_slots_.size() - 1;
  for (const SeriesSlot& slot : old) {
    if (slot.event == 0) continue;
    std::size_t i = slot.hash & mask;
    while (series_slots_[i].event != 0) i = (i + 1) & mask;
    series_slots_[i] = slot;
  }
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
  events_.push_back(EventRecord{out.first_time, now_, out.count, std::string(type),
                                std::string(reason), object, std::move(out.message)});
  observed(events_.back());
}

}  // namespace gpusched::sim
