#pragma once
// A least-recently-used cache of string keys, as client-go's recorders keep theirs
// (k8s.io/utils/lru over hashicorp/golang-lru's simplelru): get() and add() make an entry the
// most recent, and add() of a new key beyond the capacity evicts the least recent one.
//
// A recorder looks up three keys per event, so the cache allocates nothing once full: entries
// live in a vector of slots that an eviction hands to the new key (its string keeps its room),
// chained by index from the most to the least recent, and found through an open-addressing
// table of slot numbers with linear probing, which grows with the entries up to twice the
// capacity. The caller passes each key's hash, so that keys sharing a prefix are hashed once.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::sim {

template <class V>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity < 2 ? 2 : capacity) {}
  LruCache(const LruCache&) = delete;
  LruCache& operator=(const LruCache&) = delete;

  /// Get: the value of `key` (`hash` its hash), now the most recent entry; nullptr when absent.
  [[nodiscard]] V* get(std::string_view key, std::size_t hash) {
    const std::uint32_t slot = find(key, hash);
    if (slot == kNone) return nullptr;
    to_front(slot);
    return &slots_[slot].value;
  }

  /// The value of `key` without making it more recent (nothing upstream does so: for a caller
  /// that must find an entry again after adding another).
  [[nodiscard]] V* peek(std::string_view key, std::size_t hash) {
    const std::uint32_t slot = find(key, hash);
    return slot == kNone ? nullptr : &slots_[slot].value;
  }

  /// Add: `key` holds `value` and is the most recent entry; a new key beyond the capacity
  /// evicts the least recent one. The reference, and those get() and peek() return, stay valid
  /// until the next add() of a new key.
  V& add(std::string_view key, std::size_t hash, V value) {
    std::uint32_t slot = find(key, hash);
    if (slot == kNone) {
      if (slots_.size() < capacity_) {
        slot = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
        if (2 * slots_.size() > table_.size()) grow();
      } else {
        slot = tail_;
        unlink(slot);
        unindex(slot);
      }
      Slot& s = slots_[slot];
      s.key.assign(key);
      s.hash = hash;
      index(slot);
      link_front(slot);
    } else {
      to_front(slot);
    }
    slots_[slot].value = std::move(value);
    return slots_[slot].value;
  }

  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }

 private:
  static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);
  struct Slot {
    std::string key;
    std::size_t hash = 0;
    std::uint32_t newer = kNone;  ///< toward the most recent
    std::uint32_t older = kNone;  ///< toward the least recent
    V value{};
  };

  [[nodiscard]] std::size_t mask() const noexcept { return table_.size() - 1; }

  [[nodiscard]] std::uint32_t find(std::string_view key, std::size_t hash) const {
    if (table_.empty()) return kNone;
    for (std::size_t i = hash & mask(); table_[i] != 0; i = (i + 1) & mask()) {
      const Slot& s = slots_[table_[i] - 1];
      if (s.hash == hash && s.key == key) return table_[i] - 1;
    }
    return kNone;
  }

  void index(std::uint32_t slot) {
    std::size_t i = slots_[slot].hash & mask();
    while (table_[i] != 0) i = (i + 1) & mask();
    table_[i] = slot + 1;
  }

  // Removes the slot from the table, shifting back the entries after it that probed past it
  // (linear probing's deletion without tombstones).
  void unindex(std::uint32_t slot) {
    std::size_t hole = slots_[slot].hash & mask();
    while (table_[hole] != slot + 1) hole = (hole + 1) & mask();
    for (std::size_t next = (hole + 1) & mask(); table_[next] != 0; next = (next + 1) & mask()) {
      const std::size_t home = slots_[table_[next] - 1].hash & mask();
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const bool stays =
          hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      table_[hole] = table_[next];
      hole = next;
    }
    table_[hole] = 0;
  }

  void grow() {
    table_.assign(table_.empty() ? 16 : 2 * table_.size(), 0);
    for (std::uint32_t slot = 0; slot + 1 < slots_.size(); ++slot) index(slot);
  }

  void unlink(std::uint32_t slot) {
    Slot& s = slots_[slot];
    (s.newer == kNone ? head_ : slots_[s.newer].older) = s.older;
    (s.older == kNone ? tail_ : slots_[s.older].newer) = s.newer;
  }

  void link_front(std::uint32_t slot) {
    Slot& s = slots_[slot];
    s.newer = kNone;
    s.older = head_;
    (head_ == kNone ? tail_ : slots_[head_].newer) = slot;
    head_ = slot;
  }

  void to_front(std::uint32_t slot) {
    if (slot == head_) return;
    unlink(slot);
    link_front(slot);
  }

  std::size_t capacity_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> table_;  // slot + 1; 0: empty
  std::uint32_t head_ = kNone;        // the most recent
  std::uint32_t tail_ = kNone;        // the least recent
};

}  // namespace gpusched::sim
