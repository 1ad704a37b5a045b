#pragma once
/// metav1.ObjectMeta: the fields gpusched reads and maintains.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/shared.hpp"

namespace gpusched {

/// Labels and annotations: shared between an object and its copies until one is written.
using Labels = Shared<std::map<std::string, std::string, std::less<>>>;

/// metav1.OwnerReference: which controller owns an object.
struct OwnerReference {
  std::string kind;  ///< "ReplicaSet", "Deployment", "DaemonSet", "StatefulSet", "Job"
  std::string name;
  std::string uid;
  bool controller = true;
  friend bool operator==(const OwnerReference&, const OwnerReference&) = default;
};

struct ObjectMeta {
  std::string name;
  /// Empty for cluster-scoped kinds; pods default to "default". Shared: the objects a
  /// controller makes share their owner's text (a pointer each, in a million-pod replay).
  SharedText namespace_;
  std::string uid;         ///< assigned by the simulator when empty
  Labels labels;
  Labels annotations;
  Shared<std::vector<OwnerReference>> owner_references;
  std::int64_t creation_ms = 0;  ///< creationTimestamp, virtual milliseconds
  /// deletionTimestamp: set while terminating, to when the grace period ends (the deletion
  /// request plus the grace period, as the API server sets it).
  std::optional<std::int64_t> deletion_ms;
  friend bool operator==(const ObjectMeta&, const ObjectMeta&) = default;

  /// The controller owner reference, if any.
  [[nodiscard]] const OwnerReference* controller() const noexcept;
};

/// Whether `a` comes before `b` in "namespace/name" order (the keys compared as std::string
/// compares them), without building either key.
[[nodiscard]] bool key_less(const ObjectMeta& a, const ObjectMeta& b) noexcept;

}  // namespace gpusched
