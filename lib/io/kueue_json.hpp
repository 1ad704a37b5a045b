#pragma once
/// Kueue's objects (kueue.x-k8s.io, Kueue v0.19.2) <-> Kubernetes JSON: v1beta2, and v1beta1
/// converted as Kueue's conversion webhook does (apis/kueue/v1beta1/*_conversion.go). Defaults
/// are the CRDs' (config/components/crd/bases); validation is the CRDs' schema and CEL rules
/// (`The ClusterQueue "x" is invalid: ...`), then Kueue's validating webhooks (pkg/webhooks,
/// `admission webhook "vclusterqueue.kb.io" denied the request: ...`), in that order, as the API
/// server runs them.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpusched/model/object.hpp"
#include "io/json_node.hpp"
#include "io/object_fields.hpp"

namespace gpusched::io {

/// The Kueue kinds gpusched models: ResourceFlavor, ClusterQueue, LocalQueue, Cohort,
/// WorkloadPriorityClass, AdmissionCheck, ProvisioningRequestConfig, Workload.
[[nodiscard]] bool is_kueue_kind(std::string_view kind) noexcept;
/// Whether the object at `root` is one of Kueue's: its apiVersion is of kueue.x-k8s.io, or it
/// names none and its kind is a Kueue kind no Kubernetes group has (not Workload, which
/// scheduling.k8s.io also serves).
[[nodiscard]] bool is_kueue_object(const JsonNode& root);
/// Parses a Kueue object of `kind` through `fields` (the core parser, for metadata, selectors
/// and pod templates).
[[nodiscard]] Object parse_kueue_object(ObjectFields& fields, const std::string& kind);

/// "kueue.x-k8s.io/v1beta2": the version gpusched writes.
[[nodiscard]] std::string_view kueue_api_version(const kueue::ResourceFlavor&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::ClusterQueue&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::LocalQueue&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::Cohort&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::WorkloadPriorityClass&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::AdmissionCheck&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::ProvisioningRequestConfig&) noexcept;
[[nodiscard]] std::string_view kueue_api_version(const kueue::Workload&) noexcept;

/// Everything but TypeMeta and metadata, as v1beta2 JSON (to_json adds those).
[[nodiscard]] nlohmann::json object_json(const kueue::ResourceFlavor& flavor);
[[nodiscard]] nlohmann::json object_json(const kueue::ClusterQueue& queue);
[[nodiscard]] nlohmann::json object_json(const kueue::LocalQueue& queue);
[[nodiscard]] nlohmann::json object_json(const kueue::Cohort& cohort);
[[nodiscard]] nlohmann::json object_json(const kueue::WorkloadPriorityClass& wpc);
[[nodiscard]] nlohmann::json object_json(const kueue::AdmissionCheck& check);
[[nodiscard]] nlohmann::json object_json(const kueue::ProvisioningRequestConfig& config);
[[nodiscard]] nlohmann::json object_json(const kueue::Workload& workload);

}  // namespace gpusched::io
