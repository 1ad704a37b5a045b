#pragma once
/// API-server validation of the objects gpusched accepts, in the API server's words.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpusched/model/node.hpp"
#include "gpusched/model/pod.hpp"

namespace gpusched {

/// One step of a field path: a field name, an index, or a map key.
struct PathStep {
  enum class Kind { Field, Index, Key } kind = Kind::Field;
  std::string name;  ///< field name or map key
  std::size_t index = 0;
  friend bool operator==(const PathStep&, const PathStep&) = default;
};
using FieldPath = std::vector<PathStep>;

/// A field.Error: `spec.containers[0].resources.requests: Invalid value: "1": must be ...`.
struct FieldError {
  FieldPath path;
  std::string detail;  ///< everything after the path: `Invalid value: "1": must be ...`
};

/// field.Path.String(): `spec.containers[0].resources.requests[nvidia.com/gpu]`.
[[nodiscard]] std::string to_field_string(const FieldPath& path);
/// RFC 6901 pointer of the same place, relative to the object: `/spec/containers/0/...`.
[[nodiscard]] std::string to_json_pointer(const FieldPath& path);

/// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], the non-empty form of a label value (IsValidLabelValue
/// also limits its length to 63).
[[nodiscard]] bool matches_label_value(std::string_view value);

/// ValidateResourceRequirements and friends for every container and init container, and
/// spec.overhead; `base` is the path of the pod spec (`spec`, or `spec.template.spec`).
[[nodiscard]] std::vector<FieldError> validate_pod_spec(const PodSpec& spec, const FieldPath& base);
/// Node capacity/allocatable: non-negative, integers where Kubernetes wants integers.
[[nodiscard]] std::vector<FieldError> validate_node(const Node& node);

}  // namespace gpusched
