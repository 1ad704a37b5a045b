#pragma once
// The role hash Kueue's pod integration names a pod group's pod sets by (Kueue v0.19.2
// pkg/util/pod/pod.go GenerateRoleHash, SpecShape, ContainersShape).

#include <string>
#include <string_view>

#include "gpusched/model/pod.hpp"

namespace gpusched::kueue {

struct RoleHash {
  std::string hash;  ///< the first 8 hex digits of SHA-256 of the shape's JSON
  /// False when the spec holds a field whose JSON gpusched cannot write as Go does (affinity,
  /// topology spread constraints, overhead, resource claims, pod-level resources, a toleration
  /// whose operator may have been left out): the hash may then differ from Kueue's.
  bool exact = true;
};

/// GenerateRoleHash: sha256 of json.Marshal({"spec": SpecShape(spec)}), cut to 8 hex digits.
[[nodiscard]] RoleHash role_hash(const PodSpec& spec);

/// The SHA-256 digest of `data` as 64 lowercase hex digits (FIPS 180-4).
[[nodiscard]] std::string sha256_hex(std::string_view data);

}  // namespace gpusched::kueue
