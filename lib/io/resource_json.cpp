// resource.k8s.io's four kinds read as the API server takes them on create: the served
// versions (v1, v1beta2 of the same shape, v1beta1 converted), defaults, then
// pkg/apis/resource/validation/validation.go's checks (release-1.36) in its order. The pieces
// are read by resource_reader.cpp, resource_slice_json.cpp and resource_claim_json.cpp.
#include "io/resource_json.hpp"

#include <algorithm>
#include <iterator>

#include "io/api_fields.hpp"
#include "io/api_validation.hpp"
#include "io/resource_reader.hpp"

namespace gpusched::io {
namespace {

constexpr std::string_view kResourceKinds[] = {"DeviceClass", "ResourceSlice", "ResourceClaim",
                                               "ResourceClaimTemplate"};

/// The other versions Kubernetes 1.34 to 1.36 serve: v1beta2 has v1's shape, v1beta1 is
/// converted (pkg/apis/resource/v1beta1/conversion.go).
constexpr std::string_view kV1beta2 = "resource.k8s.io/v1beta2";
constexpr std::string_view kV1beta1 = "resource.k8s.io/v1beta1";

/// resource.DeviceConfigMaxSize: a class's configs.
constexpr std::size_t kDeviceConfigMaxSize = 32;

/// ObjectMeta's fields in the Go struct's order, in which validateFieldAllowList reports those a
/// template's metadata may not set (all but labels and annotations).
constexpr std::string_view kTemplateForbiddenMetaFields[] = {"name",
                                                             "generateName",
                                                             "namespace",
                                                             "selfLink",
                                                             "uid",
                                                             "resourceVersion",
                                                             "generation",
                                                             "creationTimestamp",
                                                             "deletionTimestamp",
                                                             "deletionGracePeriodSeconds",
                                                             "ownerReferences",
                                                             "finalizers",
                                                             "managedFields"};

/// reflect.DeepEqual with the zero value, for a field as JSON gives it.
bool is_zero(const nlohmann::json& value) {
  if (value.is_string()) return value.get_ref<const std::string&>().empty();
  if (value.is_number()) return value == 0;
  if (value.is_boolean()) return !value.get<bool>();
  return value.empty();  // null, and empty arrays and objects
}

/// ValidateDeviceClass.
dra::DeviceClass read_device_class(ResourceReader& r) {
  dra::DeviceClass out;
  out.metadata = r.metadata(false);
  const JsonNode spec = ResourceReader::object_member(r.root(), "spec");
  spec.note_unknown_keys(api_fields::kDeviceClassSpec);
  out.selectors = r.selectors(spec);
  for (const JsonNode& item : r.list(spec, "config", kDeviceConfigMaxSize)) {
    item.note_unknown_keys(api_fields::kDeviceClassConfiguration);
    out.config.push_back(r.opaque_configuration(item));
  }
  if (const std::optional<JsonNode> name = spec.get("extendedResourceName")) {
    std::string text = name->string();
    if (!resource::is_extended(text)) {
      r.invalid(*name, invalid_value(text, "must be a valid extended resource name"));
    }
    // KEP-5004 (DRAExtendedResource, beta and on from 1.36): kube-scheduler serves a pod's
    // `<name>` request from this class's devices on nodes whose allocatable lacks it.
    out.extended_resource_name = std::move(text);
  }
  return out;
}

/// ValidateResourceSlice.
dra::ResourceSlice read_resource_slice(ResourceReader& r) {
  dra::ResourceSlice out;
  out.metadata = r.metadata(false);
  read_resource_slice_spec(r, out);
  return out;
}

/// ValidateResourceClaim, and the status of a claim read back from a cluster.
dra::ResourceClaim read_resource_claim(ResourceReader& r) {
  dra::ResourceClaim out;
  out.metadata = r.metadata(true);
  out.spec = read_claim_spec(r, r.root());
  if (const std::optional<JsonNode> status = r.root().get("status")) {
    out.status = read_claim_status(r, *status, out.spec);
  }
  return out;
}

/// ValidateResourceClaimTemplate: ValidateTemplateObjectMeta on spec.metadata (annotations,
/// labels, nothing else), then the claim's spec at spec.spec.
dra::ResourceClaimTemplate read_resource_claim_template(ResourceReader& r) {
  dra::ResourceClaimTemplate out;
  out.metadata = r.metadata(true);
  const JsonNode spec = ResourceReader::object_member(r.root(), "spec");
  spec.note_unknown_keys(api_fields::kResourceClaimTemplateSpec);
  if (const std::optional<JsonNode> meta = spec.get("metadata")) {
    meta->note_unknown_keys(api_fields::kObjectMeta);
    if (const std::optional<JsonNode> annotations = meta->get("annotations")) {
      out.claim_annotations = r.fields().annotations(*annotations);
    }
    if (const std::optional<JsonNode> labels = meta->get("labels")) {
      out.claim_labels = r.fields().labels(*labels);
    }
    for (std::string_view field : kTemplateForbiddenMetaFields) {
      if (const std::optional<JsonNode> value = meta->get(field);
          value && !is_zero(value->json())) {
        r.invalid(*value, forbidden("cannot be set for a template"));
      }
    }
  }
  out.spec = read_claim_spec(r, spec);
  return out;
}

}  // namespace

bool is_resource_kind(std::string_view kind) noexcept {
  return std::find(std::begin(kResourceKinds), std::end(kResourceKinds), kind) !=
         std::end(kResourceKinds);
}

std::span<const std::string_view> resource_kinds() noexcept {
  return kResourceKinds;
}

Object parse_resource_object(ObjectFields& fields, const std::string& kind) {
  const JsonNode& root = fields.root();
  bool v1beta1 = false;
  if (const std::optional<JsonNode> version = root.get("apiVersion")) {
    const std::string text = version->string();
    v1beta1 = text == kV1beta1;
    if (text != dra::kApiVersion && text != kV1beta2 && !v1beta1) {
      version->fail("apiVersion \"" + text + "\" does not serve kind " + kind + "; use \"" +
                    std::string(dra::kApiVersion) + "\"");
    }
  }
  root.note_unknown_keys(kind == "ResourceClaim" ? api_fields::Fields(api_fields::kObject)
                                                 : api_fields::Fields(api_fields::kSpecObject));
  ResourceReader reader(fields, kind, v1beta1);
  if (kind == "DeviceClass") return read_device_class(reader);
  if (kind == "ResourceSlice") return read_resource_slice(reader);
  if (kind == "ResourceClaim") return read_resource_claim(reader);
  return read_resource_claim_template(reader);
}

std::string_view resource_api_version(const dra::DeviceClass&) noexcept {
  return dra::kApiVersion;
}
std::string_view resource_api_version(const dra::ResourceSlice&) noexcept {
  return dra::kApiVersion;
}
std::string_view resource_api_version(const dra::ResourceClaim&) noexcept {
  return dra::kApiVersion;
}
std::string_view resource_api_version(const dra::ResourceClaimTemplate&) noexcept {
  return dra::kApiVersion;
}

}  // namespace gpusched::io
