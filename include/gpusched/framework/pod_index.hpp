#pragma once
/// Indexes of pods held by pointer, keyed by the pods' own namespace and name: the cluster's and
/// the controllers' lists of their pods. They hold no key string of their own: a replay of a
/// million pods built, allocated and compared a "namespace/name" string per pod and index.
/// A pod's namespace and name must not change while it is in one.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "gpusched/framework/pod_info.hpp"

namespace gpusched {

/// Pods in "namespace/name" order (key_less, read from the pods), as a std::set of them would
/// hold them. Pods added are gathered, and sorted into the ordered list when the pods are next
/// read; pods taken out are dropped then. A controller's million pods cost a tree node each
/// (48 bytes) and some twenty key comparisons through cache misses; here 16 bytes and a share of
/// one sort, whose comparisons read the keys' first 32 bytes copied out of the pods.
///
/// A pod is in it at most once, and its namespace and name do not change while it is. Reading
/// (begin) settles what changed, so it writes: the pods must not be added or taken out while
/// they are walked, and two threads must not read one list at once (no replay shares one).
class PodsByKey {
 private:
  struct Entry {
    PodInfo* pod;
    std::uint64_t sequence;  ///< PodInfo::sequence: which pod, even after it is destroyed
  };

 public:
  /// Walks the pods in key order.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = PodInfo*;
    using difference_type = std::ptrdiff_t;
    using pointer = PodInfo* const*;
    using reference = PodInfo* const&;

    Iterator() = default;
    [[nodiscard]] reference operator*() const noexcept { return at_->pod; }
    Iterator& operator++() noexcept {
      ++at_;
      return *this;
    }
    Iterator operator++(int) noexcept {
      Iterator before = *this;
      ++at_;
      return before;
    }
    friend bool operator==(Iterator a, Iterator b) noexcept { return a.at_ == b.at_; }

   private:
    friend class PodsByKey;
    explicit Iterator(const Entry* at) noexcept : at_(at) {}
    const Entry* at_ = nullptr;
  };

  /// Adds a pod that is not in it.
  void insert(PodInfo& pod);
  /// Takes out a pod that is in it, before the pod is destroyed.
  void erase(const PodInfo& pod);
  void clear() noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] Iterator begin() const;
  [[nodiscard]] Iterator end() const;
  /// Puts the pods added since the last read in order now (as a read would) when they are at
  /// least as many as the pods in order already. A replay calls it at each instant before it
  /// schedules: pods made in bulk (a million at the start) are sorted while the run holds
  /// little, not at its end when it holds the most; and as the ordered list at least doubles
  /// between two such sorts, it copies each pod a few times over the run, not once an instant.
  void settle_when_grown() const;

 private:
  /// Drops the pods taken out and merges the pods added into the ordered list.
  void settle() const;

  mutable std::vector<Entry> sorted_;          ///< in key order
  mutable std::vector<Entry> added_;           ///< since the last settle, in no order
  mutable std::vector<std::uint64_t> erased_;  ///< sequences taken out since the last settle
  std::size_t size_ = 0;
};

/// A pod's namespace and name, to look it up by, with their hash.
struct PodName {
  PodName(std::string_view namespace_name, std::string_view pod_name) noexcept
      : namespace_(namespace_name), name(pod_name), hash(hash_of(namespace_name, pod_name)) {}
  explicit PodName(const PodInfo& pod) noexcept
      : PodName(pod.pod.metadata.namespace_, pod.pod.metadata.name) {}

  static std::size_t hash_of(std::string_view namespace_name, std::string_view pod_name) noexcept {
    const std::hash<std::string_view> hash;
    return hash(pod_name) * 31 + hash(namespace_name);
  }

  std::string_view namespace_;
  std::string_view name;
  std::size_t hash;
};

/// A pod in PodsByName, with its name's hash: walking a bucket or growing the table reads the
/// hashes, not the pods.
struct NamedPod {
  PodInfo* pod;
  std::size_t hash;
};

struct PodNameHash {
  using is_transparent = void;
  std::size_t operator()(const NamedPod& pod) const noexcept { return pod.hash; }
  std::size_t operator()(const PodName& name) const noexcept { return name.hash; }
};

struct PodNameEqual {
  using is_transparent = void;
  static bool same(const PodName& name, const NamedPod& pod) noexcept {
    return name.hash == pod.hash && name.name == pod.pod->pod.metadata.name &&
           name.namespace_ == pod.pod->pod.metadata.namespace_;
  }
  bool operator()(const NamedPod& a, const NamedPod& b) const noexcept { return a.pod == b.pod; }
  bool operator()(const PodName& a, const NamedPod& b) const noexcept { return same(a, b); }
  bool operator()(const NamedPod& a, const PodName& b) const noexcept { return same(b, a); }
};
/// Pods hashed by namespace and name, found by a PodName.
using PodsByName = std::unordered_set<NamedPod, PodNameHash, PodNameEqual>;

}  // namespace gpusched
