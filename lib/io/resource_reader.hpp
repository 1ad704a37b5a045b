#pragma once
/// What the readers of resource.k8s.io's four kinds share: the object's errors in the API
/// server's words (`The ResourceClaim "c" is invalid: spec.devices.requests[0].name: ...`,
/// pkg/apis/resource/validation/validation.go at release-1.36), and the pieces more than one kind
/// embeds (CEL selectors, tolerations, opaque configuration, binding conditions, node selectors,
/// references to a claim's requests). Values are defaulted as pkg/apis/resource/v1/defaults.go
/// does before they are checked, as the API server does.

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/dra.hpp"
#include "gpusched/model/quantity.hpp"
#include "io/json_node.hpp"
#include "io/object_fields.hpp"

namespace gpusched::io {

/// No size limit, for ResourceReader::list.
inline constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

/// DeviceTaintEffect from its name; nullopt for another.
[[nodiscard]] std::optional<dra::DeviceTaintEffect> device_taint_effect(std::string_view text);

/// The requests of a claim and their subrequests (validation.go's requestNames), which the
/// claim's constraints, configs and allocation results refer to as `<request>` or
/// `<request>/<subrequest>`.
class RequestNames {
 public:
  explicit RequestNames(const dra::ResourceClaimSpec& spec);
  /// requestNames.Has.
  [[nodiscard]] bool has(std::string_view reference) const;

 private:
  /// Request name -> its subrequests' names (none for an `exactly` request).
  std::map<std::string, std::vector<std::string>, std::less<>> names_;
};

class ResourceReader {
 public:
  /// `v1beta1`: the object is written in resource.k8s.io/v1beta1 (flat requests, `basic`
  /// devices), converted to v1 as pkg/apis/resource/v1beta1/conversion.go does.
  ResourceReader(ObjectFields& fields, std::string kind, bool v1beta1);

  [[nodiscard]] const JsonNode& root() const { return root_; }
  [[nodiscard]] ObjectFields& fields() const { return fields_; }
  [[nodiscard]] bool v1beta1() const noexcept { return v1beta1_; }

  /// metadata, checked as for any object; its name then names the object in messages.
  [[nodiscard]] ObjectMeta metadata(bool namespaced);

  // --- errors ---------------------------------------------------------------------------

  /// `The <Kind> "<name>" is invalid: <field path of at>: <detail>`, at `at`.
  [[noreturn]] void invalid(const JsonNode& at, std::string_view detail) const;
  /// The same naming `path` while pointing at `at`: upstream reports a map's key errors on the
  /// map (validateMap), and some errors on a field the JSON does not have (v1beta1).
  [[noreturn]] void invalid_on(const JsonNode& at, const FieldPath& path,
                               std::string_view detail) const;
  /// Fails with the first of `details`, if any.
  void check(const JsonNode& at, const std::vector<std::string>& details) const;
  void check_on(const JsonNode& at, const FieldPath& path,
                const std::vector<std::string>& details) const;
  /// The elements of the list at `parent`'s `key` (none when absent), after validateSlice's size
  /// check: `Too many: <n>: must have at most <max> items`.
  [[nodiscard]] std::vector<JsonNode> list(const JsonNode& parent, std::string_view key,
                                           std::size_t max) const;
  /// The same for a map (validateMap): its entries, at most `max`.
  [[nodiscard]] std::vector<std::pair<std::string, JsonNode>> map(const JsonNode& parent,
                                                                  std::string_view key,
                                                                  std::size_t max) const;

  // --- pieces ---------------------------------------------------------------------------

  /// A string member, "" when absent.
  [[nodiscard]] static std::string string_of(const JsonNode& parent, std::string_view key);
  /// Member `key` of `parent`, or the place it would be.
  [[nodiscard]] static JsonNode member(const JsonNode& parent, std::string_view key);
  /// The object at `parent`'s `key`, or an empty one at its place: upstream validates an absent
  /// struct as its zero value.
  [[nodiscard]] static JsonNode object_member(const JsonNode& parent, std::string_view key);
  /// A quantity written as a string or a number.
  [[nodiscard]] Quantity quantity(const JsonNode& node) const;
  /// A map of names to quantities (capacity requests, consumed capacity).
  [[nodiscard]] dra::CapacityRequests quantities(const JsonNode& node) const;
  /// `selectors` of `owner` (validateSelectorSlice): at most 32, each a CEL expression that
  /// compiles. An expression outside gpusched's CEL subset is refused here, located, with
  /// `unsupported CEL: ...`.
  [[nodiscard]] std::vector<dra::DeviceSelector> selectors(const JsonNode& owner) const;
  /// `tolerations` of `owner`, at most `max` (kNoLimit for an allocation result's copy),
  /// defaulted (operator Equal) and checked (validateDeviceToleration).
  [[nodiscard]] std::vector<dra::DeviceToleration> tolerations(const JsonNode& owner,
                                                               std::size_t max) const;
  /// `opaque` of a DeviceConfiguration at `owner` (validateDeviceConfiguration).
  [[nodiscard]] dra::DeviceConfiguration opaque_configuration(const JsonNode& owner) const;
  /// `bindingConditions` and `bindingFailureConditions` of `owner` (a device or a result),
  /// checked as validateDeviceBindingParameters.
  void binding_conditions(const JsonNode& owner, std::vector<std::string>& conditions,
                          std::vector<std::string>& failure_conditions) const;
  /// A core/v1 NodeSelector.
  [[nodiscard]] dra::NodeSelector node_selector(const JsonNode& node) const;
  /// `requests` of a constraint or config (validateRequestNameRef over a set of at most 32).
  [[nodiscard]] std::vector<std::string> request_references(const JsonNode& owner,
                                                            const RequestNames& names) const;
  /// validateRequestNameRef of one reference at `at`.
  void request_reference(const JsonNode& at, const std::string& reference,
                         const RequestNames& names) const;
  /// A name checked as validateDriverName at `parent`'s `key`.
  [[nodiscard]] std::string driver_name(const JsonNode& parent, std::string_view key) const;

 private:
  /// validateCELExpression: the length, then dra::cel::compile.
  void check_cel(const JsonNode& at, const std::string& expression) const;

  ObjectFields& fields_;
  JsonNode root_;
  std::string kind_;
  std::string name_;
  bool v1beta1_;
};

/// ResourceSlice.spec (resource_slice_json.cpp).
void read_resource_slice_spec(const ResourceReader& reader, dra::ResourceSlice& slice);
/// The ResourceClaimSpec at `parent`'s `spec` (absent: the empty spec), defaulted and checked as
/// validateResourceClaimSpec (resource_claim_json.cpp).
[[nodiscard]] dra::ResourceClaimSpec read_claim_spec(const ResourceReader& reader,
                                                     const JsonNode& parent);
/// A ResourceClaimStatus (an exported cluster's claims), checked as the API server checks a
/// status update (validateResourceClaimStatusUpdate).
[[nodiscard]] dra::ResourceClaimStatus read_claim_status(const ResourceReader& reader,
                                                         const JsonNode& status,
                                                         const dra::ResourceClaimSpec& spec);

}  // namespace gpusched::io
