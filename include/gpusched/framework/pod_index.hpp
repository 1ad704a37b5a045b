#pragma once
/// Indexes of pods held by pointer, keyed by the pods' own namespace and name: the cluster's and
/// the controllers' lists of their pods. They hold no key string of their own: a replay of a
/// million pods built, allocated and compared a "namespace/name" string per pod and index.
/// A pod's namespace and name must not change while it is in one.

#include <cstddef>
#include <functional>
#include <set>
#include <string_view>
#include <unordered_set>

#include "gpusched/framework/pod_info.hpp"

namespace gpusched {

/// "namespace/name" order (key_less), read from the pods.
struct PodKeyLess {
  using is_transparent = void;
  bool operator()(const PodInfo* a, const PodInfo* b) const noexcept {
    return key_less(a->pod.metadata, b->pod.metadata);
  }
};
/// Pods in "namespace/name" order.
using PodsByKey = std::set<PodInfo*, PodKeyLess>;

/// A pod's namespace and name, to look it up by.
struct PodName {
  std::string_view namespace_;
  std::string_view name;
};

struct PodNameHash {
  using is_transparent = void;
  std::size_t operator()(PodName pod) const noexcept {
    const std::hash<std::string_view> hash;
    return hash(pod.name) * 31 + hash(pod.namespace_);
  }
  std::size_t operator()(const PodInfo* pod) const noexcept {
    return (*this)(PodName{pod->pod.metadata.namespace_, pod->pod.metadata.name});
  }
};

struct PodNameEqual {
  using is_transparent = void;
  static bool same(PodName a, PodName b) noexcept {
    return a.name == b.name && a.namespace_ == b.namespace_;
  }
  static PodName of(const PodInfo* pod) noexcept {
    return {pod->pod.metadata.namespace_, pod->pod.metadata.name};
  }
  bool operator()(const PodInfo* a, const PodInfo* b) const noexcept { return a == b; }
  bool operator()(PodName a, const PodInfo* b) const noexcept { return same(a, of(b)); }
  bool operator()(const PodInfo* a, PodName b) const noexcept { return same(of(a), b); }
};
/// Pods hashed by namespace and name, found by a PodName.
using PodsByName = std::unordered_set<PodInfo*, PodNameHash, PodNameEqual>;

}  // namespace gpusched
