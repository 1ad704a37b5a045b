#pragma once
// A least-recently-used cache of string keys, as client-go's recorders keep theirs
// (k8s.io/utils/lru over hashicorp/golang-lru's simplelru): get() and add() make an entry the
// most recent, and add() of a new key beyond the capacity evicts the least recent one.
//
// A recorder looks up three keys per event, so the cache allocates nothing once full: entries
// live in a vector of slots that an eviction hands to the new key (its string keeps its room),
// chained by index from the most to the least recent, and found through a HashIndex of slot
// numbers, which grows with the entries up to twice the capacity. The caller passes each key's
// hash, so that keys sharing a prefix are hashed once.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/hash_index.hpp"

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
      } else {
        slot = tail_;
        unlink(slot);
        index_.erase(slot, slots_[slot].hash, hash_of());
      }
      Slot& s = slots_[slot];
      s.key.assign(key);
      s.hash = hash;
      index_.insert(slot, hash, hash_of());
      link_front(slot);
    } else {
      to_front(slot);
    }
    slots_[slot].value = std::move(value);
    return slots_[slot].value;
  }

  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }

 private:
  static constexpr std::uint32_t kNone = HashIndex::kNone;
  struct Slot {
    std::string key;
    std::size_t hash = 0;
    std::uint32_t newer = kNone;  ///< toward the most recent
    std::uint32_t older = kNone;  ///< toward the least recent
    V value{};
  };

  [[nodiscard]] std::uint32_t find(std::string_view key, std::size_t hash) const {
    return index_.find(hash, [&](std::uint32_t slot) {
      return slots_[slot].hash == hash && slots_[slot].key == key;
    });
  }

  [[nodiscard]] auto hash_of() const {
    return [this](std::uint32_t slot) { return slots_[slot].hash; };
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
  HashIndex index_;             // slot numbers by their keys' hashes
  std::uint32_t head_ = kNone;  // the most recent
  std::uint32_t tail_ = kNone;  // the least recent
};

}  // namespace gpusched::sim
