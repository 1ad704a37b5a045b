#pragma once
// client-go's EventCorrelator (k8s.io/client-go/tools/record/events_cache.go) on the virtual
// clock: what a component that records core/v1 Events through record.EventRecorder (the
// kube-controller-manager's controllers, the kubelet) sends to the API server. Repeats of an
// event are counted on one Event; after 10 similar events (same object, type and reason, any
// message) within 10 minutes, the rest are counted on one "(combined from similar events)"
// Event; and each object gets a burst of 25 events, then one more every 5 minutes.
//
// Not modelled: the 4,096-entry LRU caches (gpusched keeps every key), and the object's UID in
// the keys (an object deleted and re-created under its name continues its predecessor's counts).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/model/time.hpp"

namespace gpusched::sim {

class EventCorrelator {
 public:
  static constexpr std::size_t kNoEvent = static_cast<std::size_t>(-1);

  /// What the recorder sends for one event.
  struct Outcome {
    bool skip = false;       ///< dropped by the spam filter: nothing reaches the API server
    std::string message;     ///< the message to store (prefixed when combined)
    std::int32_t count = 1;  ///< the Event's count after this occurrence
    TimeMs first_time = 0;   ///< the Event's first occurrence
    /// The stored Event this occurrence updates, kNoEvent when it is new (or was never stored
    /// because the spam filter dropped it): the caller sets it once it stores the Event.
    std::size_t* stored = nullptr;
  };

  [[nodiscard]] Outcome correlate(TimeMs now, const std::string& object, std::string_view type,
                                  std::string_view reason, std::string message);

 private:
  struct Observation {  // eventLog
    std::int32_t count = 0;
    TimeMs first_time = 0;
    std::size_t stored = kNoEvent;
  };
  struct Message {
    bool in_aggregate = false;  ///< in the aggregate record's set of recent messages
    Observation seen;           ///< the eventLog entry of the event with this message
  };
  // The aggregate record of one object's events of one type and reason (aggregateRecord), with
  // the eventLog entries of those events: the upstream caches' keys all start with the object.
  struct Similar {
    std::string type;
    std::string reason;
    TimeMs last = 0;
    std::size_t in_aggregate = 0;  ///< the set's size
    std::unordered_map<std::string, Message> messages;
    Observation combined;  ///< the "(combined from similar events)" Event's entry
  };
  struct Bucket {  // the spam filter's token bucket, in milliseconds of refill
    std::int64_t tokens = 0;
    TimeMs refilled_at = 0;
  };
  struct ObjectEvents {
    Bucket bucket;
    std::vector<Similar> similar;  // an object has events of a few reasons
  };

  // Hashed: nothing iterates it. Outcome::stored points into it until the next correlate().
  std::unordered_map<std::string, ObjectEvents> objects_;
};

}  // namespace gpusched::sim
