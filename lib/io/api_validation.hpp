#pragma once
/// The API server's wording for field errors and names, for the checks the loader makes itself
/// (k8s.io/apimachinery/pkg/util/validation/field/errors.go and validation/validation.go).
/// Qualified names (label keys) are checked with resource::qualified_name_errors.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "model/go_text.hpp"

namespace gpusched::io {

/// field.Invalid with a value already rendered as Go prints it: `Invalid value: <v>: <message>`.
[[nodiscard]] std::string invalid_value_raw(std::string_view rendered, std::string_view message);
/// field.Invalid with a string value: `Invalid value: "x": <message>`.
[[nodiscard]] std::string invalid_value(std::string_view value, std::string_view message);
/// field.Invalid with an integer value: `Invalid value: 5: <message>`.
[[nodiscard]] std::string invalid_value(std::int64_t value, std::string_view message);
/// field.Required: `Required value` or `Required value: <message>`.
[[nodiscard]] std::string required_value(std::string_view message = {});
/// field.Forbidden: `Forbidden: <message>`.
[[nodiscard]] std::string forbidden(std::string_view message);
/// field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`.
[[nodiscard]] std::string not_supported(std::string_view value,
                                        std::initializer_list<std::string_view> supported);
/// field.Duplicate: `Duplicate value: "x"`.
[[nodiscard]] std::string duplicate_value(std::string_view value);

/// IsDNS1123Subdomain: object names (Pods, Nodes, Deployments ...). Empty when valid.
[[nodiscard]] std::vector<std::string> dns1123_subdomain_errors(std::string_view name);
/// IsDNS1123Label: namespaces.
[[nodiscard]] std::vector<std::string> dns1123_label_errors(std::string_view name);
/// IsValidPathSegmentName (apimachinery/pkg/api/validation/path): "may not be '.'", "may not
/// contain '/'". Empty when valid.
[[nodiscard]] std::vector<std::string> path_segment_name_errors(std::string_view name);
/// IsValidLabelValue: label values, toleration values.
[[nodiscard]] std::vector<std::string> label_value_errors(std::string_view value);

}  // namespace gpusched::io
