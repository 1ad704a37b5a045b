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
