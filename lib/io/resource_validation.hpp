#pragma once
/// The format checks of resource.k8s.io's validation (pkg/apis/resource/validation/validation.go
/// at release-1.36) that depend on nothing but a string, and the Go renderings (%#v) of the
/// values some of its errors print. Each check returns the field errors' details in the API
/// server's words (`Too long: may not be more than 63 bytes`, `Invalid value: "x": ...`), empty
/// when the value is valid; the caller puts them at the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/pod.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched::io {

/// ValidateCSIDriverName, which resource.k8s.io uses for driver names and the domains of
/// qualified names: required, at most 63 bytes, a DNS subdomain once lowercased.
[[nodiscard]] std::vector<std::string> driver_name_errors(std::string_view name);

/// validateQualifiedName: a C identifier of at most 32 bytes, optionally after a driver-name
/// domain and a slash (attribute and capacity names).
[[nodiscard]] std::vector<std::string> device_qualified_name_errors(std::string_view name);

/// validateFullyQualifiedName: a qualified name that has its domain (matchAttribute,
/// distinctAttribute).
[[nodiscard]] std::vector<std::string> fully_qualified_name_errors(std::string_view name);

/// validatePoolName: required, at most 253 bytes, DNS subdomains separated by slashes.
[[nodiscard]] std::vector<std::string> pool_name_errors(std::string_view name);

/// The semverRe of validation.go (semver.org 2.0.0): version attributes.
[[nodiscard]] bool is_semver(std::string_view text);

/// validateUID: uuid.Validate, then RFC 4122's normalized (lowercase, hyphenated) form (a
/// result's shareID).
[[nodiscard]] std::vector<std::string> uid_errors(std::string_view uid);

/// Go's %#v of a []core.NodeSelectorTerm, as "must have exactly one node selector term" prints
/// it. An empty list is shown as nil (`[]string(nil)`), which is how the API server stores it.
[[nodiscard]] std::string go_node_selector_terms(const std::vector<NodeSelectorTerm>& terms);

/// Go's %#v of a resource.DeviceAttribute with several values set. Set pointers are shown by
/// value, `(*int64)(5)`, where Go prints an address (as go_toleration in object_json.cpp does).
[[nodiscard]] std::string go_device_attribute(const std::optional<std::int64_t>& int_value,
                                              const std::optional<bool>& bool_value,
                                              const std::optional<std::string>& string_value,
                                              const std::optional<std::string>& version_value);

/// Go's %#v of a core.PodResourceClaim (validatePodResourceClaim's "exactly one of" errors),
/// set pointers shown by value.
[[nodiscard]] std::string go_pod_resource_claim(const PodResourceClaim& claim);

/// Go's %#v of a []string as field.Invalid prints it: `[]string(nil)` when the field was not
/// given, `[]string{"a", "b"}` otherwise.
[[nodiscard]] std::string go_string_slice(const std::vector<std::string>& items, bool given);

}  // namespace gpusched::io
