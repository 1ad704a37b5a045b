// The pieces resource.k8s.io's kinds share, read and checked as
// pkg/apis/resource/validation/validation.go (release-1.36) checks them.
#include "io/resource_reader.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "dra/cel.hpp"
#include "io/api_fields.hpp"
#include "io/api_validation.hpp"
#include "io/object_json.hpp"
#include "io/resource_validation.hpp"

namespace gpusched::io {
namespace {

/// resource.DeviceSelectorsMaxSize, CELSelectorExpressionMaxLength, OpaqueParametersMaxLength,
/// BindingConditionsMaxSize (= BindingFailureConditionsMaxSize) and DeviceRequestsMaxSize.
constexpr std::size_t kDeviceSelectorsMaxSize = 32;
constexpr std::size_t kCELSelectorExpressionMaxLength = 10 * 1024;
constexpr std::size_t kOpaqueParametersMaxLength = 10 * 1024;
constexpr std::size_t kBindingConditionsMaxSize = 4;
constexpr std::size_t kDeviceRequestsMaxSize = 32;

constexpr std::string_view kRequestReferenceMsg =
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'";

/// strings.Split by '/'.
std::vector<std::string_view> split_slash(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t slash = text.find('/');
    out.push_back(text.substr(0, slash));
    if (slash == std::string_view::npos) return out;
    text.remove_prefix(slash + 1);
  }
}

std::string too_many(std::size_t size, std::size_t max) {
  return "Too many: " + std::to_string(size) + ": must have at most " + std::to_string(max) +
         " items";
}

}  // namespace

std::optional<dra::DeviceTaintEffect> device_taint_effect(std::string_view text) {
  for (dra::DeviceTaintEffect effect :
       {dra::DeviceTaintEffect::None, dra::DeviceTaintEffect::NoSchedule,
        dra::DeviceTaintEffect::NoExecute}) {
    if (to_string(effect) == text) return effect;
  }
  return std::nullopt;
}

RequestNames::RequestNames(const dra::ResourceClaimSpec& spec) {
  for (const dra::DeviceRequest& request : spec.requests) {
    std::vector<std::string>& subrequests = names_[request.name];
    for (const dra::DeviceSubRequest& sub : request.first_available) {
      subrequests.push_back(sub.name);
    }
  }
}

bool RequestNames::has(std::string_view reference) const {
  const std::vector<std::string_view> segments = split_slash(reference);
  if (segments.size() > 2) return false;
  const auto it = names_.find(segments[0]);
  if (it == names_.end()) return false;
  if (segments.size() == 1) return true;
  return std::find(it->second.begin(), it->second.end(), segments[1]) != it->second.end();
}

ResourceReader::ResourceReader(ObjectFields& fields, std::string kind, bool v1beta1)
    : fields_(fields), root_(fields.root()), kind_(std::move(kind)), v1beta1_(v1beta1) {}

ObjectMeta ResourceReader::metadata(bool namespaced) {
  ObjectMeta meta = fields_.metadata(namespaced);
  name_ = meta.name;
  return meta;
}

void ResourceReader::invalid(const JsonNode& at, std::string_view detail) const {
  at.fail_field(detail, "The " + kind_ + " " + go_quote(name_) + " is invalid: ");
}

void ResourceReader::invalid_on(const JsonNode& at, const FieldPath& path,
                                std::string_view detail) const {
  invalid(JsonNode(at.source(), at.json(), at.pointer(), path), detail);
}

void ResourceReader::check(const JsonNode& at, const std::vector<std::string>& details) const {
  if (!details.empty()) invalid(at, details.front());
}

void ResourceReader::check_on(const JsonNode& at, const FieldPath& path,
                              const std::vector<std::string>& details) const {
  if (!details.empty()) invalid_on(at, path, details.front());
}

std::vector<JsonNode> ResourceReader::list(const JsonNode& parent, std::string_view key,
                                           std::size_t max) const {
  const std::optional<JsonNode> node = parent.get(key);
  if (!node) return {};
  std::vector<JsonNode> items = node->elements();
  // validateSlice: the size check short-circuits the items' (DoS protection).
  if (items.size() > max) invalid(*node, too_many(items.size(), max));
  return items;
}

std::vector<std::pair<std::string, JsonNode>> ResourceReader::map(const JsonNode& parent,
                                                                  std::string_view key,
                                                                  std::size_t max) const {
  const std::optional<JsonNode> node = parent.get(key);
  if (!node) return {};
  std::vector<std::pair<std::string, JsonNode>> entries;
  for (auto entry : node->entries()) entries.push_back(std::move(entry));
  if (entries.size() > max) invalid(*node, too_many(entries.size(), max));
  return entries;
}

std::string ResourceReader::string_of(const JsonNode& parent, std::string_view key) {
  const std::optional<JsonNode> node = parent.get(key);
  return node ? node->string() : std::string();
}

JsonNode ResourceReader::member(const JsonNode& parent, std::string_view key) {
  std::optional<JsonNode> node = parent.get(key);
  return node ? *node : parent.missing(key);
}

JsonNode ResourceReader::object_member(const JsonNode& parent, std::string_view key) {
  if (std::optional<JsonNode> node = parent.get(key)) {
    node->expect_type(nlohmann::json::value_t::object, "an object");
    return *node;
  }
  static const nlohmann::json kEmpty = nlohmann::json::object();
  const JsonNode place = parent.missing(key);
  return {place.source(), kEmpty, place.pointer(), place.path()};
}

Quantity ResourceReader::quantity(const JsonNode& node) const {
  std::string text;
  std::string error;
  const std::optional<Quantity> value = read_quantity(node, text, &error);
  if (!value) invalid(node, invalid_value(text, error));
  return *value;
}

dra::CapacityRequests ResourceReader::quantities(const JsonNode& node) const {
  return fields_.resources(node);
}

std::vector<dra::DeviceSelector> ResourceReader::selectors(const JsonNode& owner) const {
  std::vector<dra::DeviceSelector> out;
  for (const JsonNode& item : list(owner, "selectors", kDeviceSelectorsMaxSize)) {
    item.note_unknown_keys(api_fields::kDeviceSelector);
    // validateSelector: CEL is the only selector type.
    const std::optional<JsonNode> cel = item.get("cel");
    if (!cel) invalid(item.missing("cel"), required_value());
    cel->note_unknown_keys(api_fields::kCELDeviceSelector);
    std::string expression = string_of(*cel, "expression");
    check_cel(member(*cel, "expression"), expression);
    out.push_back(dra::DeviceSelector{std::move(expression)});
  }
  return out;
}

void ResourceReader::check_cel(const JsonNode& at, const std::string& expression) const {
  if (expression.size() > kCELSelectorExpressionMaxLength) {
    invalid(at, "Too long: may not be more than " +
                    std::to_string(kCELSelectorExpressionMaxLength) + " bytes");
  }
  // The API server compiles stored expressions in an environment that declares
  // allowMultipleAllocations (DRAConsumableCapacity), so validation accepts it in every release.
  const dra::cel::CompileResult result =
      dra::cel::compile(expression, dra::cel::Features{.consumable_capacity = true});
  // Outside gpusched's subset: not the API server's verdict, so no API error, but a refusal
  // located at the expression (dra.md, "CEL subset").
  if (result.unsupported) at.fail(result.error);
  // convertCELErrorToValidationError: compilation errors are ErrorTypeInvalid.
  if (!result.error.empty()) invalid(at, invalid_value(expression, result.error));
}

std::vector<dra::DeviceToleration> ResourceReader::tolerations(const JsonNode& owner,
                                                               std::size_t max) const {
  std::vector<dra::DeviceToleration> out;
  for (const JsonNode& node : list(owner, "tolerations", max)) {
    node.note_unknown_keys(api_fields::kToleration);
    dra::DeviceToleration t;
    // validateDeviceToleration, after SetDefaults_DeviceToleration (operator Equal).
    if (const std::optional<JsonNode> key = node.get("key")) {
      t.key = key->string();
      if (!t.key.empty()) {
        for (const std::string& message : resource::qualified_name_errors(t.key)) {
          invalid(*key, invalid_value(t.key, message));
        }
      }
    }
    t.value = string_of(node, "value");
    const std::optional<JsonNode> op = node.get("operator");
    const std::string op_text = op ? op->string() : std::string();
    if (op_text == "Exists") {
      t.exists = true;
      if (!t.value.empty()) {
        invalid(*node.get("value"), invalid_value(t.value, "must be empty for operator `Exists`"));
      }
    } else if (op_text.empty() || op_text == "Equal") {
      for (const std::string& message : label_value_errors(t.value)) {
        invalid(member(node, "value"), invalid_value(t.value, message));
      }
    } else {
      invalid(*op, not_supported(op_text, {"Equal", "Exists"}));
    }
    if (const std::optional<JsonNode> effect = node.get("effect")) {
      const std::string text = effect->string();
      if (!text.empty()) {
        t.effect = device_taint_effect(text);
        if (!t.effect) invalid(*effect, not_supported(text, {"NoExecute", "NoSchedule", "None"}));
      }
    }
    if (const std::optional<JsonNode> seconds = node.get("tolerationSeconds")) {
      t.toleration_seconds = seconds->integer();
    }
    out.push_back(std::move(t));
  }
  return out;
}

dra::DeviceConfiguration ResourceReader::opaque_configuration(const JsonNode& owner) const {
  const std::optional<JsonNode> opaque = owner.get("opaque");
  if (!opaque) invalid(owner.missing("opaque"), required_value());
  opaque->note_unknown_keys(api_fields::kOpaqueDeviceConfiguration);
  dra::DeviceConfiguration out;
  out.driver = driver_name(*opaque, "driver");
  // validateRawExtension: required, at most 10 KiB, a JSON object.
  const std::optional<JsonNode> parameters = opaque->get("parameters");
  if (!parameters) invalid(opaque->missing("parameters"), required_value());
  out.parameters = parameters->json().dump();
  if (out.parameters.size() > kOpaqueParametersMaxLength) {
    invalid(*parameters, "Too long: may not be more than " +
                             std::to_string(kOpaqueParametersMaxLength) + " bytes");
  }
  if (!parameters->json().is_object()) {
    invalid(*parameters, invalid_value("<value omitted>", "must be a valid JSON object"));
  }
  return out;
}

void ResourceReader::binding_conditions(const JsonNode& owner, std::vector<std::string>& conditions,
                                        std::vector<std::string>& failure_conditions) const {
  auto read = [&](std::string_view key, std::vector<std::string>& out) {
    std::vector<JsonNode> items = list(owner, key, kBindingConditionsMaxSize);
    for (const JsonNode& item : items) {
      std::string condition = item.string();
      for (const std::string& message : resource::qualified_name_errors(condition)) {
        invalid(item, invalid_value(condition, message));
      }
      out.push_back(std::move(condition));
    }
    return items;
  };
  const std::vector<JsonNode> condition_nodes = read("bindingConditions", conditions);
  const std::vector<JsonNode> failure_nodes = read("bindingFailureConditions", failure_conditions);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    if (!seen.insert(conditions[i]).second) {
      invalid(condition_nodes[i], duplicate_value(conditions[i]));
    }
  }
  std::set<std::string> failures_seen;
  for (std::size_t i = 0; i < failure_conditions.size(); ++i) {
    const std::string& condition = failure_conditions[i];
    if (!failures_seen.insert(condition).second) {
      invalid(failure_nodes[i], duplicate_value(condition));
    }
    if (seen.contains(condition)) {
      invalid(failure_nodes[i],
              invalid_value(condition,
                            "bindingFailureConditions must not overlap with bindingConditions"));
    }
  }
  if (conditions.empty() && !failure_conditions.empty()) {
    invalid(member(owner, "bindingConditions"),
            invalid_value_raw(
                go_string_slice(conditions, owner.get("bindingConditions") != std::nullopt),
                "bindingConditions are required to use bindingFailureConditions"));
  }
  if (failure_conditions.empty() && !conditions.empty()) {
    invalid(
        member(owner, "bindingFailureConditions"),
        invalid_value_raw(go_string_slice(failure_conditions,
                                          owner.get("bindingFailureConditions") != std::nullopt),
                          "bindingFailureConditions are required to use bindingConditions"));
  }
}

dra::NodeSelector ResourceReader::node_selector(const JsonNode& node) const {
  return dra::NodeSelector{fields_.node_selector(node)};
}

std::vector<std::string> ResourceReader::request_references(const JsonNode& owner,
                                                            const RequestNames& names) const {
  std::vector<std::string> out;
  const std::vector<JsonNode> items = list(owner, "requests", kDeviceRequestsMaxSize);
  for (const JsonNode& item : items) {
    out.push_back(item.string());
    request_reference(item, out.back(), names);
  }
  // validateSet: duplicates after every item.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (std::find(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(i), out[i]) !=
        out.begin() + static_cast<std::ptrdiff_t>(i)) {
      invalid(items[i], duplicate_value(out[i]));
    }
  }
  return out;
}

void ResourceReader::request_reference(const JsonNode& at, const std::string& reference,
                                       const RequestNames& names) const {
  const std::vector<std::string_view> segments = split_slash(reference);
  if (segments.size() > 2) invalid(at, invalid_value(reference, kRequestReferenceMsg));
  for (std::string_view segment : segments) {
    for (const std::string& message : dns1123_label_errors(segment)) {
      invalid(at, invalid_value(segment, message));
    }
  }
  if (!names.has(reference)) invalid(at, invalid_value(reference, kRequestReferenceMsg));
}

std::string ResourceReader::driver_name(const JsonNode& parent, std::string_view key) const {
  std::string name = string_of(parent, key);
  check(member(parent, key), driver_name_errors(name));
  return name;
}

}  // namespace gpusched::io
