#pragma once
/// Kubernetes objects <-> Kubernetes JSON, with the defaults and the validation the API server
/// applies on create, and JSON merge patches (RFC 7386) of objects.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpusched/model/object.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// The kinds gpusched models that parse_object reads: Node, Pod, the workloads, the policy
/// objects, Namespace, Service, Workload, PodGroup, and resource.k8s.io's four (known_kinds()).
[[nodiscard]] bool is_known_kind(std::string_view kind) noexcept;
/// The known kinds for messages: "Node, Pod, Deployment, ...".
[[nodiscard]] std::string known_kinds();

/// A quantity written as a string or a bare number (Quantity.UnmarshalJSON parses a number's
/// own text). Fails on other types; on bad syntax returns nullopt with `text` and `error` set.
[[nodiscard]] std::optional<Quantity> read_quantity(const JsonNode& node, std::string& text,
                                                    std::string* error);

/// Parses the object at `node` (a cluster entry or an applied object): kind and apiVersion,
/// metadata, spec and status; applies defaults (namespace, allocatable from capacity, requests
/// from limits) and validates. Errors read `The Pod "x" is invalid: <field>: <detail>` and point
/// into the object. Unknown fields are ignored, as in real manifests; when the node's source
/// collects warnings, each is one (JsonNode::note_unknown_keys).
[[nodiscard]] Object parse_object(const JsonNode& node);

/// Kubernetes JSON for every field the model holds except virtual times; parse_object of it
/// gives back an equal object (times aside).
[[nodiscard]] nlohmann::json to_json(const Object& object);
/// A resource list as Kubernetes writes one: {"cpu": "500m", "nvidia.com/gpu": "1"}.
[[nodiscard]] nlohmann::json resources_json(const ResourceList& list);
/// A toleration, a taint, a PodTemplateSpec and a metav1.LabelSelector as to_json writes them
/// inside objects.
[[nodiscard]] nlohmann::json toleration_json(const Toleration& toleration);
[[nodiscard]] nlohmann::json taint_json(const Taint& taint);
[[nodiscard]] nlohmann::json pod_template_json(const PodTemplateSpec& pod_template);
[[nodiscard]] nlohmann::json label_selector_json(const LabelSelector& selector);
/// to_json as compact text.
[[nodiscard]] std::string to_json_text(const Object& object);

/// Applies a JSON merge patch to `current` and validates the result as on load. Errors name
/// `file` and point at `pointer + "/patch/merge..."`; kind, name and namespace may not change.
/// Virtual times (creation, deletion, start, condition transitions) are kept from `current`.
[[nodiscard]] Object apply_merge_patch(const Object& current, std::string_view merge_patch_json,
                                       const std::string& file, const std::string& pointer);

}  // namespace gpusched::io
