#pragma once
// Per-key exponential backoff on the virtual clock (client-go util/flowcontrol/backoff.go).

#include <map>
#include <string>

#include "gpusched/model/time.hpp"

namespace gpusched::sim {

/// flowcontrol.Backoff: each key's delay starts at `initial`, doubles on every Next up to `max`,
/// and starts over once the key has been left alone for twice `max`.
class Backoff {
 public:
  Backoff(TimeMs initial, TimeMs max) : initial_(initial), max_(max) {}

  /// The key's current delay (0 when it has none).
  [[nodiscard]] TimeMs get(const std::string& key) const;
  /// IsInBackOffSinceUpdate: less than the delay has passed since the last Next.
  [[nodiscard]] bool in_backoff_since_update(const std::string& key, TimeMs now) const;
  /// Next: moves the key's delay to its next step and records `now` as its last update.
  void next(const std::string& key, TimeMs now);

 private:
  struct Entry {
    TimeMs delay = 0;
    TimeMs last_update = 0;
  };
  [[nodiscard]] bool expired(const Entry& entry, TimeMs now) const {
    return now - entry.last_update > 2 * max_;
  }

  TimeMs initial_;
  TimeMs max_;
  std::map<std::string, Entry> entries_;
};

}  // namespace gpusched::sim
