// ResourceSlice.spec as a DRA driver publishes it, checked as validateResourceSliceSpec
// (pkg/apis/resource/validation/validation.go, release-1.36). A v1beta1 device's fields sit
// under `basic` (pkg/apis/resource/v1beta1/conversion.go); its errors name the v1 field, as the
// API server's do, and point into `basic`.
#include <algorithm>
#include <utility>

#include "io/api_fields.hpp"
#include "io/api_validation.hpp"
#include "io/resource_reader.hpp"
#include "io/resource_validation.hpp"

namespace gpusched::io {
namespace {

/// resource.ResourceSliceMaxDevices, ResourceSliceMaxDevicesWithAdvancedFeatures (a slice
/// with taints or counter consumption), ResourceSliceMaxAttributesAndCapacitiesPerDevice,
/// DeviceTaintsMaxLength, ResourceSliceMaxCounterSets, ResourceSliceMaxCountersPerCounterSet,
/// ResourceSliceMaxDeviceCounterConsumptionsPerDevice,
/// ResourceSliceMaxCountersPerDeviceCounterConsumption, DeviceAttributeMaxValueLength and
/// CapacityRequestPolicyDiscreteMaxOptions.
constexpr std::size_t kMaxDevices = 128;
constexpr std::size_t kMaxDevicesWithAdvancedFeatures = 64;
constexpr std::size_t kMaxAttributesAndCapacities = 32;
constexpr std::size_t kDeviceTaintsMaxLength = 16;
constexpr std::size_t kMaxCounterSets = 8;
constexpr std::size_t kMaxCountersPerCounterSet = 32;
constexpr std::size_t kMaxCounterConsumptionsPerDevice = 2;
constexpr std::size_t kMaxCountersPerConsumption = 32;
constexpr std::size_t kAttributeMaxValueLength = 64;
constexpr std::size_t kRequestPolicyMaxOptions = 10;

constexpr std::string_view kPerDeviceNodeSelectionMsg =
    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
    "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";

std::string too_long(std::size_t max) {
  return "Too long: may not be more than " + std::to_string(max) + " bytes";
}

FieldPath child_path(const JsonNode& node, std::string_view field) {
  FieldPath path = node.path();
  path.push_back(PathStep{PathStep::Kind::Field, std::string(field), 0});
  return path;
}

class SliceReader {
 public:
  explicit SliceReader(const ResourceReader& reader) : r_(reader) {}

  void read(dra::ResourceSlice& slice) const {
    const JsonNode spec = ResourceReader::object_member(r_.root(), "spec");
    spec.note_unknown_keys(api_fields::kResourceSliceSpec);
    slice.driver = r_.driver_name(spec, "driver");
    slice.pool = pool(ResourceReader::object_member(spec, "pool"));
    node_selection(spec, slice);
    if (spec.get("sharedCounters") && spec.get("devices")) {
      r_.invalid(spec, invalid_value("", "only one of `sharedCounters` or `devices` is allowed"));
    }
    const std::vector<JsonNode> devices = r_.list(spec, "devices", max_devices(spec));
    for (const JsonNode& item : devices) {
      slice.devices.push_back(device(item, slice.per_device_node_selection));
    }
    for (std::size_t i = 0; i < slice.devices.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (slice.devices[j].name == slice.devices[i].name) {
          r_.invalid(devices[i], duplicate_value(slice.devices[i].name));
        }
      }
    }
    const std::vector<JsonNode> sets = r_.list(spec, "sharedCounters", kMaxCounterSets);
    for (const JsonNode& item : sets) slice.shared_counters.push_back(counter_set(item));
    for (std::size_t i = 0; i < slice.shared_counters.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (slice.shared_counters[j].name == slice.shared_counters[i].name) {
          r_.invalid(sets[i], duplicate_value(slice.shared_counters[i].name));
        }
      }
    }
  }

 private:
  /// validateResourcePool; generation and resourceSliceCount are taken as given (no default).
  dra::ResourcePool pool(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kResourcePool);
    dra::ResourcePool out;
    out.name = ResourceReader::string_of(node, "name");
    r_.check(ResourceReader::member(node, "name"), pool_name_errors(out.name));
    const std::optional<JsonNode> count = node.get("resourceSliceCount");
    out.resource_slice_count = count ? count->integer() : 0;
    if (out.resource_slice_count <= 0) {
      r_.invalid(ResourceReader::member(node, "resourceSliceCount"),
                 invalid_value(out.resource_slice_count, "must be greater than zero"));
    }
    const std::optional<JsonNode> generation = node.get("generation");
    out.generation = generation ? generation->integer() : 0;
    if (out.generation < 0) {
      r_.invalid(*generation,
                 invalid_value(out.generation, "must be greater than or equal to zero"));
    }
    return out;
  }

  /// validateNodeName: ValidateNodeName, a DNS subdomain.
  void node_name(const JsonNode& at, const std::string& name) const {
    for (const std::string& message : dns1123_subdomain_errors(name)) {
      r_.invalid(at, invalid_value(name, message));
    }
  }

  /// A `*bool` that must be unset or true; whether it is true.
  bool true_or_unset(const JsonNode& owner, std::string_view key) const {
    const std::optional<JsonNode> node = owner.get(key);
    if (!node) return false;
    if (!node->boolean())
      r_.invalid(*node, invalid_value_raw("false", "must be either unset or set to true"));
    return true;
  }

  /// Exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection.
  void node_selection(const JsonNode& spec, dra::ResourceSlice& slice) const {
    std::vector<std::string> set;
    if (const std::optional<JsonNode> name = spec.get("nodeName")) {
      std::string text = name->string();
      if (text.empty()) {
        r_.invalid(*name, invalid_value("", "must be either unset or set to a non-empty string"));
      }
      set.emplace_back("`nodeName`");
      node_name(*name, text);
      slice.node_name = std::move(text);
    }
    if (const std::optional<JsonNode> selector = spec.get("nodeSelector")) {
      set.emplace_back("`nodeSelector`");
      slice.node_selector = r_.node_selector(*selector);
      // One term only, which simplifies merging the selectors of devices from several slices.
      if (slice.node_selector->terms.size() != 1) {
        r_.invalid(ResourceReader::member(*selector, "nodeSelectorTerms"),
                   invalid_value_raw(go_node_selector_terms(slice.node_selector->terms),
                                     "must have exactly one node selector term"));
      }
    }
    if (true_or_unset(spec, "allNodes")) {
      set.emplace_back("`allNodes`");
      slice.all_nodes = true;
    }
    if (true_or_unset(spec, "perDeviceNodeSelection")) {
      set.emplace_back("`perDeviceNodeSelection`");
      slice.per_device_node_selection = true;
    }
    constexpr std::string_view kExactlyOne =
        "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
        "required";
    if (set.empty()) r_.invalid(spec, required_value(kExactlyOne));
    if (set.size() > 1) {
      r_.invalid(spec, invalid_value("{" + joined(set) + "}",
                                     std::string(kExactlyOne) + ", but multiple fields are set"));
    }
  }

  /// The fields of a device: the device itself in v1, its `basic` in v1beta1, named by the
  /// device's path as the API server (which validates the v1 shape) names them.
  JsonNode device_body(const JsonNode& item) const {
    if (!r_.v1beta1()) {
      item.note_unknown_keys(api_fields::kDevice);
      return item;
    }
    item.note_unknown_keys(api_fields::kDeviceV1beta1);
    const JsonNode basic = ResourceReader::object_member(item, "basic");
    basic.note_unknown_keys(api_fields::kDevice);
    return {basic.source(), basic.json(), basic.pointer(), item.path()};
  }

  /// A slice whose devices use taints or consume counters holds at most 64 of them.
  std::size_t max_devices(const JsonNode& spec) const {
    const std::optional<JsonNode> devices = spec.get("devices");
    if (!devices || !devices->json().is_array()) return kMaxDevices;
    for (const nlohmann::json& device : devices->json()) {
      const nlohmann::json* body = &device;
      if (r_.v1beta1() && device.is_object() && device.contains("basic")) body = &device["basic"];
      if (!body->is_object()) continue;
      for (const char* key : {"taints", "consumesCounters"}) {
        const auto it = body->find(key);
        if (it != body->end() && it->is_array() && !it->empty()) {
          return kMaxDevicesWithAdvancedFeatures;
        }
      }
    }
    return kMaxDevices;
  }

  /// validateDevice, in its order.
  dra::Device device(const JsonNode& item, bool per_device_node_selection) const {
    dra::Device out;
    const JsonNode body = device_body(item);
    out.name = ResourceReader::string_of(item, "name");
    for (const std::string& message : dns1123_label_errors(out.name)) {
      r_.invalid(ResourceReader::member(item, "name"), invalid_value(out.name, message));
    }
    if (const std::optional<JsonNode> allow = body.get("allowMultipleAllocations")) {
      out.allow_multiple_allocations = allow->boolean();
    }
    const auto attributes = r_.map(body, "attributes", kNoLimit);
    const auto capacity = r_.map(body, "capacity", kNoLimit);
    if (attributes.size() + capacity.size() > kMaxAttributesAndCapacities) {
      r_.invalid(body, invalid_value(static_cast<std::int64_t>(attributes.size() + capacity.size()),
                                     "the total number of attributes and capacities must not "
                                     "exceed " +
                                         std::to_string(kMaxAttributesAndCapacities)));
    }
    const FieldPath attributes_path = child_path(body, "attributes");
    for (const auto& [name, entry] : attributes) {
      r_.check_on(entry, attributes_path, device_qualified_name_errors(name));
      out.attributes.emplace(name, attribute(entry));
    }
    const FieldPath capacity_path = child_path(body, "capacity");
    for (const auto& [name, entry] : capacity) {
      r_.check_on(entry, capacity_path, device_qualified_name_errors(name));
      out.capacity.emplace(name,
                           device_capacity(entry, out.allow_multiple_allocations.value_or(false)));
    }
    for (const JsonNode& taint : r_.list(body, "taints", kDeviceTaintsMaxLength)) {
      out.taints.push_back(device_taint(taint));
    }
    const std::vector<JsonNode> consumptions =
        r_.list(body, "consumesCounters", kMaxCounterConsumptionsPerDevice);
    for (const JsonNode& consumption : consumptions) {
      out.consumes_counters.push_back(counter_consumption(consumption));
    }
    for (std::size_t i = 0; i < out.consumes_counters.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (out.consumes_counters[j].counter_set == out.consumes_counters[i].counter_set) {
          r_.invalid(consumptions[i], duplicate_value(out.consumes_counters[i].counter_set));
        }
      }
    }
    device_node_selection(body, per_device_node_selection, out);
    r_.binding_conditions(body, out.binding_conditions, out.binding_failure_conditions);
    if (!out.binding_conditions.empty()) {
      // DRADeviceBindingConditions (beta, on from 1.36): PreBind waits for the driver to report
      // the conditions, which nothing in the replay does.
      ResourceReader::member(body, "bindingConditions")
          .note_not_modelled(
              "binding conditions are not modelled: from Kubernetes 1.36 the scheduler waits at "
              "PreBind (up to 10 minutes) for the driver to set them; gpusched binds at once");
    }
    if (const std::optional<JsonNode> binds = body.get("bindsToNode")) {
      out.binds_to_node = binds->boolean();
    }
    return out;
  }

  /// validateDeviceAttribute: exactly one typed value.
  dra::DeviceAttribute attribute(const JsonNode& entry) const {
    entry.note_unknown_keys(api_fields::kDeviceAttribute);
    std::optional<std::int64_t> int_value;
    std::optional<bool> bool_value;
    std::optional<std::string> string_value;
    std::optional<std::string> version_value;
    if (const std::optional<JsonNode> node = entry.get("int")) int_value = node->integer();
    if (const std::optional<JsonNode> node = entry.get("bool")) bool_value = node->boolean();
    if (const std::optional<JsonNode> node = entry.get("string")) {
      string_value = node->string();
      if (string_value->size() > kAttributeMaxValueLength) {
        r_.invalid(*node, too_long(kAttributeMaxValueLength));
      }
    }
    if (const std::optional<JsonNode> node = entry.get("version")) {
      version_value = node->string();
      if (!is_semver(*version_value)) {
        r_.invalid(*node, invalid_value(*version_value,
                                        "must be a string compatible with semver.org spec 2.0.0"));
      }
      if (version_value->size() > kAttributeMaxValueLength) {
        r_.invalid(*node, too_long(kAttributeMaxValueLength));
      }
    }
    const int set = int(int_value.has_value()) + int(bool_value.has_value()) +
                    int(string_value.has_value()) + int(version_value.has_value());
    if (set == 0) r_.invalid(entry, invalid_value("", "exactly one value must be specified"));
    if (set > 1) {
      r_.invalid(entry, invalid_value_raw(
                            go_device_attribute(int_value, bool_value, string_value, version_value),
                            "exactly one value must be specified"));
    }
    if (int_value) return dra::DeviceAttribute::of_int(*int_value);
    if (bool_value) return dra::DeviceAttribute::of_bool(*bool_value);
    if (string_value) return dra::DeviceAttribute::of_string(std::move(*string_value));
    return dra::DeviceAttribute::of_version(std::move(*version_value));
  }

  /// A DeviceCapacity; a request policy only on a device that allows multiple allocations
  /// (validateSingleAllocatableDeviceCapacity / validateMultiAllocatableDeviceCapacity).
  dra::DeviceCapacity device_capacity(const JsonNode& entry, bool allow_multiple) const {
    entry.note_unknown_keys(api_fields::kDeviceCapacity);
    dra::DeviceCapacity out;
    if (const std::optional<JsonNode> value = entry.get("value")) out.value = r_.quantity(*value);
    if (const std::optional<JsonNode> policy = entry.get("requestPolicy")) {
      if (!allow_multiple) r_.invalid(*policy, forbidden("allowMultipleAllocations must be true"));
      out.request_policy = request_policy(*policy, out.value);
    }
    return out;
  }

  std::optional<Quantity> optional_quantity(const JsonNode& owner, std::string_view key) const {
    const std::optional<JsonNode> node = owner.get(key);
    return node ? std::optional<Quantity>(r_.quantity(*node)) : std::nullopt;
  }

  /// A CapacityRequestPolicy, checked as validateRequestPolicy against the capacity's value.
  dra::CapacityRequestPolicy request_policy(const JsonNode& node, const Quantity& capacity) const {
    node.note_unknown_keys(api_fields::kCapacityRequestPolicy);
    dra::CapacityRequestPolicy out;
    out.default_value = optional_quantity(node, "default");
    std::vector<JsonNode> value_nodes;
    if (const std::optional<JsonNode> values = node.get("validValues")) {
      value_nodes = values->elements();
      for (const JsonNode& value : value_nodes) out.valid_values.push_back(r_.quantity(value));
    }
    const std::optional<JsonNode> range = node.get("validRange");
    if (range) {
      range->note_unknown_keys(api_fields::kCapacityRequestPolicyRange);
      out.valid_range = dra::CapacityRequestPolicyRange{optional_quantity(*range, "min"),
                                                        optional_quantity(*range, "max"),
                                                        optional_quantity(*range, "step")};
    }
    if (!out.valid_values.empty() && range) {
      r_.invalid(node, forbidden("exactly one policy can be specified, cannot specify "
                                 "\"validValues\" and \"validRange\" at the same time"));
    }
    if (!out.valid_values.empty()) {
      if (!out.default_value) {
        r_.invalid(node.missing("default"), required_value("required when validValues is defined"));
      }
      valid_values(*node.get("validValues"), value_nodes, out.valid_values, *out.default_value,
                   capacity);
    } else if (range) {
      if (!out.default_value) {
        r_.invalid(node.missing("default"), required_value("required when validRange is defined"));
      }
      valid_range(*range, *node.get("default"), *out.valid_range, *out.default_value, capacity);
    }
    return out;
  }

  /// validateRequestPolicyValidValues.
  void valid_values(const JsonNode& list, const std::vector<JsonNode>& nodes,
                    const std::vector<Quantity>& values, const Quantity& default_value,
                    const Quantity& capacity) const {
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      if (values[i] > values[i + 1]) {
        r_.invalid(nodes[i + 1], invalid_value(values[i + 1].to_string(),
                                               "values must be sorted in ascending order"));
      }
    }
    if (values.size() > kRequestPolicyMaxOptions) {
      r_.invalid(list, "Too many: " + std::to_string(values.size()) + ": must have at most " +
                           std::to_string(kRequestPolicyMaxOptions) + " items");
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] > capacity) {
        r_.invalid(nodes[i],
                   invalid_value(values[i].to_string(),
                                 "option is larger than capacity value: " + capacity.to_string()));
      }
    }
    // Without DRAFractionalCapacityRange, options are told apart by their whole value.
    for (std::size_t i = 0; i < values.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (values[j].value() == values[i].value()) {
          r_.invalid(nodes[i], duplicate_value(std::to_string(values[i].value())));
        }
      }
    }
    if (std::find(values.begin(), values.end(), default_value) == values.end()) {
      r_.invalid(list, invalid_value(default_value.to_string(),
                                     "default value is not valid according to the requestPolicy"));
    }
  }

  /// validateRequestPolicyRange, on whole values (DRAFractionalCapacityRange off). Errors about
  /// the default name `validRange.default`, as upstream's do.
  void valid_range(const JsonNode& node, const JsonNode& default_node,
                   const dra::CapacityRequestPolicyRange& range, const Quantity& default_value,
                   const Quantity& capacity) const {
    const FieldPath default_path = child_path(node, "default");
    if (!range.min) {
      r_.invalid(node.missing("min"), required_value("required when validRange is defined"));
    }
    const Quantity& min = *range.min;
    const JsonNode min_node = *node.get("min");
    if (min > capacity) {
      r_.invalid(min_node, invalid_value(min.to_string(), "min is larger than capacity value: " +
                                                              capacity.to_string()));
    }
    if (default_value < min) {
      r_.invalid_on(
          default_node, default_path,
          invalid_value(default_value.to_string(), "default is less than min: " + min.to_string()));
    }
    if (range.max) {
      const JsonNode max_node = *node.get("max");
      if (min > *range.max) {
        r_.invalid(max_node, invalid_value(min.to_string(),
                                           "min is larger than max: " + range.max->to_string()));
      }
      if (*range.max > capacity) {
        r_.invalid(max_node,
                   invalid_value(range.max->to_string(),
                                 "max is larger than capacity value: " + capacity.to_string()));
      }
      if (default_value > *range.max) {
        r_.invalid_on(default_node, default_path,
                      invalid_value(default_value.to_string(),
                                    "default is more than max: " + range.max->to_string()));
      }
    }
    if (!range.step) return;
    const Quantity& step = *range.step;
    const JsonNode step_node = *node.get("step");
    if (step.milli() <= 0) {
      r_.invalid(step_node, invalid_value(step.to_string(), "must be greater than zero"));
    }
    const Quantity added = min.plus(step);
    if (added > capacity) {
      r_.invalid(step_node, invalid_value(step.to_string(), "one step " + added.to_string() +
                                                                " is larger than capacity value: " +
                                                                capacity.to_string()));
    }
    // validateInt64Range: the whole-value arithmetic below holds for non-negative values only.
    const std::pair<const char*, std::optional<Quantity>> bounds[] = {
        {"default", default_value}, {"min", min}, {"max", range.max}, {"step", step}};
    for (const auto& [name, value] : bounds) {
      if (value && value->milli() < 0) {
        const FieldPath path = child_path(node, name);
        r_.invalid_on(name == std::string_view("default") ? default_node : *node.get(name), path,
                      invalid_value(value->to_string(), "must be greater than or equal to 0"));
      }
    }
    // validateRequestPolicyRangeStep, for the default and the max.
    auto multiple = [&](const Quantity& value) {
      if ((value.value() - min.value()) % step.value() != 0) {
        r_.invalid(step_node,
                   invalid_value(value.to_string(), "value is not a multiple of a given step (" +
                                                        step.to_string() + ") from (" +
                                                        min.to_string() + ")"));
      }
    };
    multiple(default_value);
    if (range.max) multiple(*range.max);
  }

  /// validateDeviceTaint (timeAdded is accepted and not kept).
  dra::DeviceTaint device_taint(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kDeviceTaint);
    dra::DeviceTaint out;
    out.key = ResourceReader::string_of(node, "key");
    for (const std::string& message : resource::qualified_name_errors(out.key)) {
      r_.invalid(ResourceReader::member(node, "key"), invalid_value(out.key, message));
    }
    out.value = ResourceReader::string_of(node, "value");
    for (const std::string& message : label_value_errors(out.value)) {
      r_.invalid(*node.get("value"), invalid_value(out.value, message));
    }
    const std::string effect = ResourceReader::string_of(node, "effect");
    if (effect.empty()) r_.invalid(ResourceReader::member(node, "effect"), required_value());
    const std::optional<dra::DeviceTaintEffect> parsed = device_taint_effect(effect);
    if (!parsed) {
      r_.invalid(*node.get("effect"), not_supported(effect, {"NoExecute", "NoSchedule", "None"}));
    }
    out.effect = *parsed;
    if (const std::optional<JsonNode> added = node.get("timeAdded")) (void)added->string();
    return out;
  }

  /// Counters by name (DNS labels, at most `max`), each `{"value": quantity}`.
  dra::CounterMap counters(const JsonNode& owner, std::size_t max) const {
    if (!owner.get("counters") || owner.get("counters")->json().empty()) {
      r_.invalid(ResourceReader::member(owner, "counters"), required_value());
    }
    const FieldPath path = child_path(owner, "counters");
    dra::CounterMap out;
    for (const auto& [name, entry] : r_.map(owner, "counters", max)) {
      for (const std::string& message : dns1123_label_errors(name)) {
        r_.invalid_on(entry, path, invalid_value(name, message));
      }
      entry.note_unknown_keys(api_fields::kCounter);
      const std::optional<JsonNode> value = entry.get("value");
      out.emplace(name, value ? r_.quantity(*value) : Quantity());
    }
    return out;
  }

  /// A name that is required and a DNS label (counter sets).
  std::string counter_name(const JsonNode& owner, std::string_view key) const {
    std::string name = ResourceReader::string_of(owner, key);
    if (name.empty()) r_.invalid(ResourceReader::member(owner, key), required_value());
    for (const std::string& message : dns1123_label_errors(name)) {
      r_.invalid(*owner.get(key), invalid_value(name, message));
    }
    return name;
  }

  /// validateCounterSet.
  dra::CounterSet counter_set(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kCounterSet);
    dra::CounterSet out;
    out.name = counter_name(node, "name");
    out.counters = counters(node, kMaxCountersPerCounterSet);
    return out;
  }

  /// validateDeviceCounterConsumption.
  dra::DeviceCounterConsumption counter_consumption(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kDeviceCounterConsumption);
    dra::DeviceCounterConsumption out;
    out.counter_set = counter_name(node, "counterSet");
    out.counters = counters(node, kMaxCountersPerConsumption);
    return out;
  }

  /// A device's own node selection: exactly one of nodeName, nodeSelector, allNodes when the
  /// slice has perDeviceNodeSelection, none otherwise.
  void device_node_selection(const JsonNode& body, bool per_device, dra::Device& out) const {
    const std::optional<JsonNode> name = body.get("nodeName");
    const std::optional<JsonNode> selector = body.get("nodeSelector");
    const std::optional<JsonNode> all = body.get("allNodes");
    if (!per_device) {
      if (name || selector || all) {
        r_.invalid(body, invalid_value("null",
                                       "`nodeName`, `nodeSelector` and `allNodes` can only be set "
                                       "if `perDeviceNodeSelection` is set to true in the "
                                       "ResourceSlice spec"));
      }
      return;
    }
    std::vector<std::string> set;
    if (name) {
      std::string text = name->string();
      if (text.empty()) r_.invalid(*name, invalid_value("", "must not be empty"));
      set.emplace_back("`nodeName`");
      node_name(*name, text);
      out.node_name = std::move(text);
    }
    if (selector) {
      set.emplace_back("`nodeSelector`");
      out.node_selector = r_.node_selector(*selector);
    }
    if (true_or_unset(body, "allNodes")) {
      set.emplace_back("`allNodes`");
      out.all_nodes = true;
    }
    if (set.empty()) r_.invalid(body, required_value(kPerDeviceNodeSelectionMsg));
    if (set.size() > 1) {
      r_.invalid(body, invalid_value("{" + joined(set) + "}", kPerDeviceNodeSelectionMsg));
    }
  }

  const ResourceReader& r_;
};

}  // namespace

void read_resource_slice_spec(const ResourceReader& reader, dra::ResourceSlice& slice) {
  SliceReader(reader).read(slice);
}

}  // namespace gpusched::io
