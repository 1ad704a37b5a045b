#pragma once
/// Dynamic Resource Allocation's objects (resource.k8s.io: DeviceClass, ResourceSlice,
/// ResourceClaim, ResourceClaimTemplate) <-> Kubernetes JSON, validated as the API server
/// validates them on create (pkg/apis/resource/validation/validation.go), CEL selectors
/// compiled on load so that an expression outside gpusched's subset is a located error.
/// Read: resource.k8s.io/v1 and v1beta2, and v1beta1 converted to v1; written: v1
/// (resource_writer.cpp). A claim's status (an exported cluster's) is read and written too.

#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpusched/model/object.hpp"
#include "io/json_node.hpp"
#include "io/object_fields.hpp"

namespace gpusched::io {

/// DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate.
[[nodiscard]] bool is_resource_kind(std::string_view kind) noexcept;
/// Those four kinds, for messages.
[[nodiscard]] std::span<const std::string_view> resource_kinds() noexcept;
/// Parses a resource.k8s.io object of `kind` through `fields`.
[[nodiscard]] Object parse_resource_object(ObjectFields& fields, const std::string& kind);

/// "resource.k8s.io/v1": the version gpusched writes.
[[nodiscard]] std::string_view resource_api_version(const dra::DeviceClass&) noexcept;
[[nodiscard]] std::string_view resource_api_version(const dra::ResourceSlice&) noexcept;
[[nodiscard]] std::string_view resource_api_version(const dra::ResourceClaim&) noexcept;
[[nodiscard]] std::string_view resource_api_version(const dra::ResourceClaimTemplate&) noexcept;

/// Everything but TypeMeta and metadata, as v1 JSON (to_json adds those).
[[nodiscard]] nlohmann::json object_json(const dra::DeviceClass& device_class);
[[nodiscard]] nlohmann::json object_json(const dra::ResourceSlice& slice);
[[nodiscard]] nlohmann::json object_json(const dra::ResourceClaim& claim);
[[nodiscard]] nlohmann::json object_json(const dra::ResourceClaimTemplate& claim_template);

}  // namespace gpusched::io
