#pragma once
// client-go's EventCorrelator (k8s.io/client-go/tools/record/events_cache.go) on the virtual
// clock: what one event broadcaster of core/v1 Events (record.EventRecorder: each controller of
// kube-controller-manager has its own, so has each node's kubelet) sends to the API server.
// Repeats of an event are counted on one Event; after 10 similar events (same object, type and
// reason, any message) within 10 minutes, the rest are counted on one "(combined from similar
// events)" Event; and each object gets a burst of 25 events, then one more every 5 minutes.
// Each of the three keeps its state in an LRU cache of 4,096 entries (maxLruCacheEntries), so
// an object whose entries were evicted starts afresh, as upstream. A broadcaster may set other
// options (CorrelatorOptions), as the cluster autoscaler does.
//
// Not modelled: the object's UID in the keys (an object deleted and re-created under its name
// continues its predecessor's counts while its entries are cached).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/time.hpp"
#include "sim/lru_cache.hpp"

namespace gpusched::sim {

class EventCorrelator {
 public:
  static constexpr std::size_t kNoEvent = static_cast<std::size_t>(-1);

  /// CorrelatorOptions: client-go's defaults unless a broadcaster sets its own.
  struct Options {
    std::size_t cache_entries = 4096;  ///< LRUCacheSize (maxLruCacheEntries)
    std::int64_t burst = 25;           ///< BurstSize (defaultSpamBurst)
    /// SpamKeyFunc: false for getSpamKey (the object); true for a key of the reason and the
    /// object (the cluster autoscaler's).
    bool spam_key_has_reason = false;
  };

  EventCorrelator() : EventCorrelator(Options{}) {}
  explicit EventCorrelator(const Options& options)
      : options_(options),
        aggregates_(options.cache_entries),
        observed_(options.cache_entries),
        buckets_(options.cache_entries) {}

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
  struct Aggregate {  // aggregateRecord
    /// localKeys: the recent messages, fewer than 10.
    std::vector<std::string> messages;
    TimeMs last = 0;
  };
  struct Bucket {  // spamRecord's token bucket, in milliseconds of refill
    std::int64_t tokens = 0;
    TimeMs refilled_at = 0;
  };

  Options options_;
  // Keys: the object, type, reason and message, each ended by a character no name or reason
  // holds. Built in key_ (no allocation per event once it has grown).
  std::string key_;
  LruCache<Aggregate> aggregates_;  // EventAggregator.cache
  LruCache<Observation> observed_;  // eventLogger.cache
  LruCache<Bucket> buckets_;        // EventSourceObjectSpamFilter.cache
};

}  // namespace gpusched::sim
