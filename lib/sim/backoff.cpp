#include "sim/backoff.hpp"

#include <algorithm>

namespace gpusched::sim {

TimeMs Backoff::get(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : it->second.delay;
}

bool Backoff::in_backoff_since_update(const std::string& key, TimeMs now) const {
  auto it = entries_.find(key);
  if (it == entries_.end() || expired(it->second, now)) return false;
  return now - it->second.last_update < it->second.delay;
}

void Backoff::next(const std::string& key, TimeMs now) {
  auto [it, added] = entries_.try_emplace(key);
  Entry& entry = it->second;
  entry.delay = added || expired(entry, now) ? initial_ : std::min(2 * entry.delay, max_);
  entry.last_update = now;
}

}  // namespace gpusched::sim
