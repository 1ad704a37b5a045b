#pragma once
// The cluster's Events: those recorded through events.k8s.io/v1 (client-go tools/events: the
// scheduler's, and Kueue's, whose recorders come from controller-runtime's GetEventRecorder),
// which count identical repeats on one Event, and those of kube-controller-manager's controllers
// and the kubelet (core/v1 record.EventRecorder, through client-go's EventCorrelator).

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/model/time.hpp"
#include "gpusched/sim/result.hpp"
#include "model/string_hash.hpp"
#include "sim/event_correlator.hpp"
#include "sim/hash_index.hpp"

namespace gpusched::sim {

class EventRecorder {
 public:
  /// `now` is the replay's clock; `observe`, if set, hears every Event stored or updated.
  EventRecorder(const TimeMs& now, std::function<void(const EventRecord&)> observe)
      : now_(now), observe_(std::move(observe)) {}

  /// An Event through events.k8s.io/v1 (the scheduler, Kueue): identical repeats are counted
  /// on one Event (its series); similar events are not combined and none is dropped.
  void series_event(const std::string& object, std::string_view type, std::string_view reason,
                    std::string message);
  /// An Event from a controller or the kubelet through the event broadcaster `source` ("job-
  /// controller", "kubelet/<node>": each has its own) and its EventCorrelator: similar events
  /// combined, each object rate-limited.
  void recorded_event(std::string_view source, const std::string& object, std::string_view type,
                      std::string_view reason, std::string message);
  /// The broadcaster `source` correlates with `options` instead of client-go's defaults (set
  /// before its first event).
  void set_correlator_options(std::string_view source, const EventCorrelator::Options& options) {
    correlators_.try_emplace(std::string(source), options);
  }

  [[nodiscard]] const std::vector<EventRecord>& events() const noexcept { return events_; }
  /// Hands the Events to the result (the recorder is done then), and frees the series index
  /// (a million Events' hashes) before the pods move into the result.
  [[nodiscard]] std::vector<EventRecord> take() {
    series_ = std::vector<Series>();  // not {}: an empty initializer list keeps the capacity
    series_index_ = HashIndex();
    return std::move(events_);
  }

 private:
  void observed(const EventRecord& event) const {
    if (observe_) observe_(event);
  }
  /// The recorder's one copy of a type's or a reason's text, which its Events share (a few
  /// dozen texts for a million Events).
  [[nodiscard]] const SharedText& text(std::string_view value);

  const TimeMs& now_;
  std::function<void(const EventRecord&)> observe_;
  std::vector<EventRecord> events_;
  std::map<std::string, SharedText, std::less<>> texts_;
  // One correlator per broadcaster; nothing iterates them.
  std::unordered_map<std::string, EventCorrelator, StringHash, std::equal_to<>> correlators_;
  // The series events in events_ by a hash of (object, type, reason, message): series_ holds
  // each one's hash and index, and series_index_ the positions in series_, so that a probe
  // compares an event's strings, stored once in events_, only when the hashes agree.
  struct Series {
    std::size_t hash = 0;
    std::size_t event = 0;  ///< index in events_
  };
  std::vector<Series> series_;
  HashIndex series_index_;
};

}  // namespace gpusched::sim
