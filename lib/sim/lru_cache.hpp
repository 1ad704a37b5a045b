#pragma once
// A least-recently-used cache of string keys, as client-go's recorders keep theirs
// (k8s.io/utils/lru over hashicorp/golang-lru's simplelru): get() and add() make an entry the
// most recent, and add() of a new key beyond the capacity evicts the least recent one.

#include <cstddef>
#include <functional>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace gpusched::sim {

template <class V>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity) {}
  LruCache(const LruCache&) = delete;
  LruCache& operator=(const LruCache&) = delete;

  /// Get: the value of `key`, now the most recent entry; nullptr when absent.
  [[nodiscard]] V* get(std::string_view key) {
    auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second);
    return &found->second->second;
  }

  /// Add: `key` holds `value` and is the most recent entry; a new key beyond the capacity
  /// evicts the least recent one. The reference stays valid until that entry is evicted.
  V& add(std::string_view key, V value) {
    if (V* existing = get(key)) {
      *existing = std::move(value);
      return *existing;
    }
    order_.emplace_front(std::string(key), std::move(value));
    // The index views the key inside its list node, which never moves.
    index_.emplace(order_.front().first, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return order_.front().second;
  }

  [[nodiscard]] std::size_t size() const noexcept { return order_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  using Order = std::list<std::pair<std::string, V>>;

  std::size_t capacity_;
  Order order_;  // most recent first
  std::unordered_map<std::string_view, typename Order::iterator, Hash, std::equal_to<>> index_;
};

}  // namespace gpusched::sim
