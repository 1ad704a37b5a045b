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
#include <functional>
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
  // The aggregate record of one object's events of one type and reason (aggregateRecord). The
  // upstream caches' keys all start with the object: an object's records are a chain in
  // similar_, and each message's eventLog entry is keyed by its record's index.
  struct Similar {
    std::uint32_t type = 0;  ///< interned in name_ids_
    std::uint32_t reason = 0;
    std::uint32_t next = kNone;  ///< the object's next record
    /// The set of recent messages is the messages whose epoch is this one: a fresh record after
    /// 10 quiet minutes empties it by starting a new epoch.
    std::uint64_t epoch = 1;
    std::size_t in_aggregate = 0;  ///< the set's size
    TimeMs last = 0;
    Observation combined;  ///< the "(combined from similar events)" Event's entry
  };
  struct Bucket {  // the spam filter's token bucket, in milliseconds of refill
    std::int64_t tokens = 0;
    TimeMs refilled_at = 0;
  };
  struct ObjectEvents {
    Bucket bucket;
    std::uint32_t first = kNone;  ///< its first record in similar_
  };
  struct Message {
    std::uint64_t epoch = 0;  ///< in the aggregate set while equal to its record's epoch
    Observation seen;         ///< the eventLog entry of the event with this message
  };
  // A message of one aggregate record; looked up by a view, stored with its own text.
  template <class Text>
  struct MessageKeyOf {
    std::uint32_t similar = 0;
    Text text;
  };
  using MessageKey = MessageKeyOf<std::string>;
  using MessageView = MessageKeyOf<std::string_view>;
  struct MessageHash {
    using is_transparent = void;
    template <class Text>
    std::size_t operator()(const MessageKeyOf<Text>& k) const noexcept {
      return std::hash<std::string_view>{}(k.text) * 31 + k.similar;
    }
  };
  struct MessageEqual {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const MessageKeyOf<A>& a, const MessageKeyOf<B>& b) const noexcept {
      return a.similar == b.similar && std::string_view(a.text) == std::string_view(b.text);
    }
  };
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);

  [[nodiscard]] std::uint32_t name_id(std::string_view name);
  [[nodiscard]] Similar& similar_of(ObjectEvents& events, std::string_view type,
                                    std::string_view reason, std::uint32_t* index);

  // Hashed: nothing iterates them. Outcome::stored points into similar_ or messages_ until the
  // next correlate(). Few allocations per event matter: a replay records one Event or more per
  // pod, and the records of an object share the flat vector instead of a map each.
  std::unordered_map<std::string, ObjectEvents, NameHash, std::equal_to<>> objects_;
  std::vector<Similar> similar_;
  std::unordered_map<MessageKey, Message, MessageHash, MessageEqual> messages_;
  std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> name_ids_;
};

}  // namespace gpusched::sim
