#pragma once
// An index of ids by hash: open addressing with linear probing in a power-of-two table, at most
// half full, of ids plus one (0: empty). The caller keeps what the ids stand for and their
// hashes: find() asks it whether an id is the one sought, and growing and erasing ask an id's
// hash. One probe into a flat table instead of a node per entry in a hash map: the event
// recorder's series index and the LRU cache of the event correlators use it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpusched::sim {

class HashIndex {
 public:
  static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);

  /// The id under `hash` for which `matches(id)` holds; kNone when none does.
  template <class Matches>
  [[nodiscard]] std::uint32_t find(std::size_t hash, Matches&& matches) const {
    if (table_.empty()) return kNone;
    for (std::size_t i = hash & mask(); table_[i] != 0; i = (i + 1) & mask()) {
      if (matches(table_[i] - 1)) return table_[i] - 1;
    }
    return kNone;
  }

  /// Indexes `id` under `hash`; `hash_of(id)` gives the hash of an id indexed before, for
  /// growing the table.
  template <class HashOf>
  void insert(std::uint32_t id, std::size_t hash, HashOf&& hash_of) {
    if (2 * (count_ + 1) > table_.size()) {
      std::vector<std::uint32_t> old = std::exchange(
          table_, std::vector<std::uint32_t>(std::max<std::size_t>(16, 2 * table_.size())));
      for (const std::uint32_t entry : old) {
        if (entry != 0) place(entry - 1, hash_of(entry - 1));
      }
    }
    place(id, hash);
    ++count_;
  }

  /// Removes `id`, indexed under `hash`, shifting back the entries after it that probed past it
  /// (linear probing's deletion without tombstones); `hash_of` as for insert().
  template <class HashOf>
  void erase(std::uint32_t id, std::size_t hash, HashOf&& hash_of) {
    std::size_t hole = hash & mask();
    while (table_[hole] != id + 1) hole = (hole + 1) & mask();
    for (std::size_t next = (hole + 1) & mask(); table_[next] != 0; next = (next + 1) & mask()) {
      const std::size_t home = hash_of(table_[next] - 1) & mask();
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const bool stays =
          hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      table_[hole] = table_[next];
      hole = next;
    }
    table_[hole] = 0;
    --count_;
  }

 private:
  [[nodiscard]] std::size_t mask() const noexcept { return table_.size() - 1; }

  void place(std::uint32_t id, std::size_t hash) {
    std::size_t i = hash & mask();
    while (table_[i] != 0) i = (i + 1) & mask();
    table_[i] = id + 1;
  }

  std::vector<std::uint32_t> table_;
  std::size_t count_ = 0;
};

}  // namespace gpusched::sim
