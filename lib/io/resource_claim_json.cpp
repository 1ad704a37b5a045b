// A ResourceClaim's spec (also a template's spec.spec) and status, defaulted as
// pkg/apis/resource/v1/defaults.go and checked as validateResourceClaimSpec and
// validateResourceClaimStatusUpdate (pkg/apis/resource/validation/validation.go, release-1.36).
// A v1beta1 request is flat: its ExactDeviceRequest fields sit beside its name, and it has one
// when any of them is set (hasAnyMainRequestFieldsSet, pkg/apis/resource/v1beta1/conversion.go);
// errors name them under `exactly`, as the API server (which validates the v1 shape) does.
#include <algorithm>
#include <utility>

#include "io/api_fields.hpp"
#include "io/api_validation.hpp"
#include "io/resource_reader.hpp"
#include "io/resource_validation.hpp"

namespace gpusched::io {
namespace {

/// resource.DeviceRequestsMaxSize, DeviceConstraintsMaxSize, DeviceConfigMaxSize,
/// FirstAvailableDeviceRequestMaxSize, DeviceTolerationsMaxLength, AllocationResultsMaxSize
/// and ResourceClaimReservedForMaxSize; an allocation's config holds a class's and a claim's.
constexpr std::size_t kDeviceRequestsMaxSize = 32;
constexpr std::size_t kDeviceConstraintsMaxSize = 32;
constexpr std::size_t kDeviceConfigMaxSize = 32;
constexpr std::size_t kDeviceTolerationsMaxLength = 16;
constexpr std::size_t kAllocationConfigMaxSize = 2 * kDeviceConfigMaxSize;

/// Whether an element of `items` before `i` has the same key (validateSet's duplicates).
template <typename T, typename Key>
bool repeats(const std::vector<T>& items, std::size_t i, Key key) {
  return std::any_of(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(i),
                     [&](const T& item) { return key(item) == key(items[i]); });
}

class ClaimReader {
 public:
  explicit ClaimReader(const ResourceReader& reader) : r_(reader) {}

  /// validateDeviceClaim: requests, then constraints and configs referring to them.
  dra::ResourceClaimSpec spec(const JsonNode& spec) const {
    spec.note_unknown_keys(api_fields::kResourceClaimSpec);
    const JsonNode devices = ResourceReader::object_member(spec, "devices");
    devices.note_unknown_keys(api_fields::kDeviceClaim);
    dra::ResourceClaimSpec out;
    const std::vector<JsonNode> requests = r_.list(devices, "requests", kDeviceRequestsMaxSize);
    for (const JsonNode& item : requests) out.requests.push_back(request(item));
    for (std::size_t i = 0; i < out.requests.size(); ++i) {
      if (repeats(out.requests, i, [](const dra::DeviceRequest& r) { return r.name; })) {
        r_.invalid(requests[i], duplicate_value(out.requests[i].name));
      }
    }
    const RequestNames names(out);
    for (const JsonNode& item : r_.list(devices, "constraints", kDeviceConstraintsMaxSize)) {
      out.constraints.push_back(constraint(item, names));
    }
    for (const JsonNode& item : r_.list(devices, "config", kDeviceConfigMaxSize)) {
      item.note_unknown_keys(api_fields::kDeviceClaimConfiguration);
      dra::DeviceClaimConfiguration config;
      config.requests = r_.request_references(item, names);
      config.config = r_.opaque_configuration(item);
      out.config.push_back(std::move(config));
    }
    return out;
  }

  /// validateResourceClaimStatusUpdate for a status given with the claim.
  dra::ResourceClaimStatus status(const JsonNode& status,
                                  const dra::ResourceClaimSpec& spec) const {
    status.note_unknown_keys(api_fields::kResourceClaimStatus);
    dra::ResourceClaimStatus out;
    const std::vector<JsonNode> consumers =
        r_.list(status, "reservedFor", dra::kReservedForMaxSize);
    for (const JsonNode& item : consumers) {
      item.note_unknown_keys(api_fields::kResourceClaimConsumerReference);
      dra::ConsumerReference ref;
      ref.resource = required_string(item, "resource");
      ref.name = required_string(item, "name");
      ref.uid = required_string(item, "uid");
      out.reserved_for.push_back(std::move(ref));
    }
    for (std::size_t i = 0; i < out.reserved_for.size(); ++i) {
      if (repeats(out.reserved_for, i, [](const dra::ConsumerReference& c) { return c.uid; })) {
        r_.invalid(consumers[i], duplicate_value(out.reserved_for[i].uid));
      }
    }
    const std::optional<JsonNode> allocation = status.get("allocation");
    if (!out.reserved_for.empty() && !allocation) {
      r_.invalid(*status.get("reservedFor"),
                 forbidden("may not be specified when `allocated` is not set"));
    }
    if (allocation) out.allocation = allocation_result(*allocation, RequestNames(spec));
    return out;
  }

 private:
  std::string required_string(const JsonNode& owner, std::string_view key) const {
    std::string text = ResourceReader::string_of(owner, key);
    if (text.empty()) r_.invalid(ResourceReader::member(owner, key), required_value());
    return text;
  }

  /// A request name (validateRequestName: a DNS label).
  std::string request_name(const JsonNode& owner) const {
    std::string name = ResourceReader::string_of(owner, "name");
    for (const std::string& message : dns1123_label_errors(name)) {
      r_.invalid(ResourceReader::member(owner, "name"), invalid_value(name, message));
    }
    return name;
  }

  /// validateDeviceRequest: a name and exactly one of `exactly` and `firstAvailable`.
  dra::DeviceRequest request(const JsonNode& item) const {
    item.note_unknown_keys(r_.v1beta1() ? api_fields::Fields(api_fields::kDeviceRequestV1beta1)
                                        : api_fields::Fields(api_fields::kDeviceRequest));
    dra::DeviceRequest out;
    out.name = request_name(item);
    const std::optional<JsonNode> first = item.get("firstAvailable");
    const bool has_first = first && !first->elements().empty();
    std::optional<JsonNode> exactly;
    if (!r_.v1beta1()) {
      exactly = item.get("exactly");
    } else if (has_exact_fields(item)) {
      FieldPath path = item.path();
      path.push_back(PathStep{PathStep::Kind::Field, "exactly", 0});
      exactly = JsonNode(item.source(), item.json(), item.pointer(), std::move(path));
    }
    if (!has_first && !exactly) {
      r_.invalid(item, required_value("exactly one of `exactly` or `firstAvailable` is required"));
    }
    if (has_first && exactly) {
      r_.invalid(item, invalid_value("null",
                                     "exactly one of `exactly` or `firstAvailable` is required, "
                                     "but multiple fields are set"));
    }
    if (exactly) {
      out.exactly = exact_request(*exactly);
      return out;
    }
    const std::vector<JsonNode> subrequests =
        r_.list(item, "firstAvailable", dra::kFirstAvailableMaxSize);
    for (const JsonNode& sub : subrequests) out.first_available.push_back(subrequest(sub));
    for (std::size_t i = 0; i < out.first_available.size(); ++i) {
      if (repeats(out.first_available, i, [](const dra::DeviceSubRequest& s) { return s.name; })) {
        r_.invalid(subrequests[i], duplicate_value(out.first_available[i].name));
      }
    }
    return out;
  }

  /// hasAnyMainRequestFieldsSet of a v1beta1 request.
  static bool has_exact_fields(const JsonNode& item) {
    if (!ResourceReader::string_of(item, "deviceClassName").empty()) return true;
    if (!ResourceReader::string_of(item, "allocationMode").empty()) return true;
    if (const std::optional<JsonNode> count = item.get("count"); count && count->integer() != 0) {
      return true;
    }
    return item.get("selectors") || item.get("adminAccess") || item.get("tolerations") ||
           item.get("capacity");
  }

  /// validateDeviceClass: required, a DNS subdomain.
  std::string device_class_name(const JsonNode& owner) const {
    std::string name = ResourceReader::string_of(owner, "deviceClassName");
    if (name.empty())
      r_.invalid(ResourceReader::member(owner, "deviceClassName"), required_value());
    for (const std::string& message : dns1123_subdomain_errors(name)) {
      r_.invalid(*owner.get("deviceClassName"), invalid_value(name, message));
    }
    return name;
  }

  /// allocationMode and count after SetDefaults_ExactDeviceRequest (ExactCount, count 1),
  /// checked as validateDeviceAllocationMode. `All` keeps count 0 (unset).
  void allocation_mode(const JsonNode& owner, dra::AllocationMode& mode,
                       std::int64_t& count) const {
    const std::optional<JsonNode> mode_node = owner.get("allocationMode");
    std::string text = mode_node ? mode_node->string() : std::string();
    const std::optional<JsonNode> count_node = owner.get("count");
    count = count_node ? count_node->integer() : 0;
    if (text.empty()) text = "ExactCount";
    if (text == "ExactCount" && count == 0) count = 1;
    if (text == "All") {
      mode = dra::AllocationMode::All;
      if (count != 0) {
        r_.invalid(*count_node, invalid_value(count,
                                              "must not be specified when allocationMode "
                                              "is 'All'"));
      }
    } else if (text == "ExactCount") {
      mode = dra::AllocationMode::ExactCount;
      if (count <= 0) r_.invalid(*count_node, invalid_value(count, "must be greater than zero"));
    } else {
      r_.invalid(*mode_node, not_supported(text, {"All", "ExactCount"}));
    }
  }

  std::optional<dra::CapacityRequests> capacity(const JsonNode& owner) const {
    const std::optional<JsonNode> node = owner.get("capacity");
    if (!node) return std::nullopt;
    node->note_unknown_keys(api_fields::kCapacityRequirements);
    const std::optional<JsonNode> requests = node->get("requests");
    return requests ? r_.quantities(*requests) : dra::CapacityRequests{};
  }

  /// validateExactDeviceRequest.
  dra::ExactDeviceRequest exact_request(const JsonNode& node) const {
    if (!r_.v1beta1()) node.note_unknown_keys(api_fields::kExactDeviceRequest);
    dra::ExactDeviceRequest out;
    out.device_class_name = device_class_name(node);
    out.selectors = r_.selectors(node);
    allocation_mode(node, out.allocation_mode, out.count);
    if (const std::optional<JsonNode> admin = node.get("adminAccess")) {
      out.admin_access = admin->boolean();
    }
    out.tolerations = r_.tolerations(node, kDeviceTolerationsMaxLength);
    out.capacity = capacity(node);
    return out;
  }

  /// validateDeviceSubRequest.
  dra::DeviceSubRequest subrequest(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kDeviceSubRequest);
    dra::DeviceSubRequest out;
    out.name = request_name(node);
    out.device_class_name = device_class_name(node);
    out.selectors = r_.selectors(node);
    allocation_mode(node, out.allocation_mode, out.count);
    out.tolerations = r_.tolerations(node, kDeviceTolerationsMaxLength);
    out.capacity = capacity(node);
    return out;
  }

  /// validateDeviceConstraint: the requests it applies to, and matchAttribute or
  /// distinctAttribute (a fully qualified name).
  dra::DeviceConstraint constraint(const JsonNode& item, const RequestNames& names) const {
    item.note_unknown_keys(api_fields::kDeviceConstraint);
    dra::DeviceConstraint out;
    out.requests = r_.request_references(item, names);
    const std::optional<JsonNode> match = item.get("matchAttribute");
    const std::optional<JsonNode> distinct = item.get("distinctAttribute");
    if (match) out.match_attribute = match->string();
    if (distinct) out.distinct_attribute = distinct->string();
    if (match) {
      r_.check(*match, fully_qualified_name_errors(*out.match_attribute));
    } else if (distinct) {
      r_.check(*distinct, fully_qualified_name_errors(*out.distinct_attribute));
    } else {
      // The text with DRAConsumableCapacity on (1.36), upstream's wording included; 1.34 and
      // 1.35 say `constraints[i].matchAttribute: Required value`.
      r_.invalid(item, required_value("exactly one of \"matchAttribute\" or \"distinctAttribute\" "
                                      "is required, but multiple fields are set"));
    }
    return out;
  }

  /// validateAllocationResult.
  dra::AllocationResult allocation_result(const JsonNode& node, const RequestNames& names) const {
    node.note_unknown_keys(api_fields::kAllocationResult);
    dra::AllocationResult out;
    const JsonNode devices = ResourceReader::object_member(node, "devices");
    devices.note_unknown_keys(api_fields::kDeviceAllocationResult);
    for (const JsonNode& item : r_.list(devices, "results", dra::kAllocationResultsMaxSize)) {
      out.devices.push_back(result(item, names));
    }
    for (const JsonNode& item : r_.list(devices, "config", kAllocationConfigMaxSize)) {
      out.config.push_back(allocation_config(item, names));
    }
    if (const std::optional<JsonNode> selector = node.get("nodeSelector")) {
      out.node_selector = r_.node_selector(*selector);
    }
    // allocationTimestamp is the API server's record of when; the replay's clock starts anew.
    if (const std::optional<JsonNode> at = node.get("allocationTimestamp")) (void)at->string();
    return out;
  }

  /// validateDeviceRequestAllocationResult.
  dra::DeviceRequestAllocationResult result(const JsonNode& item, const RequestNames& names) const {
    item.note_unknown_keys(api_fields::kDeviceRequestAllocationResult);
    dra::DeviceRequestAllocationResult out;
    out.request = ResourceReader::string_of(item, "request");
    r_.request_reference(ResourceReader::member(item, "request"), out.request, names);
    out.driver = r_.driver_name(item, "driver");
    out.pool = ResourceReader::string_of(item, "pool");
    r_.check(ResourceReader::member(item, "pool"), pool_name_errors(out.pool));
    out.device = ResourceReader::string_of(item, "device");
    for (const std::string& message : dns1123_label_errors(out.device)) {
      r_.invalid(ResourceReader::member(item, "device"), invalid_value(out.device, message));
    }
    r_.binding_conditions(item, out.binding_conditions, out.binding_failure_conditions);
    out.tolerations = r_.tolerations(item, kNoLimit);
    if (const std::optional<JsonNode> share = item.get("shareID")) {
      out.share_id = share->string();
      r_.check(*share, uid_errors(*out.share_id));
    }
    if (const std::optional<JsonNode> admin = item.get("adminAccess")) {
      out.admin_access = admin->boolean();
    }
    if (const std::optional<JsonNode> consumed = item.get("consumedCapacity")) {
      out.consumed_capacity = r_.quantities(*consumed);
    }
    return out;
  }

  /// validateDeviceAllocationConfiguration.
  dra::DeviceAllocationConfiguration allocation_config(const JsonNode& item,
                                                       const RequestNames& names) const {
    item.note_unknown_keys(api_fields::kDeviceAllocationConfiguration);
    dra::DeviceAllocationConfiguration out;
    const std::string source = required_string(item, "source");
    if (source == "FromClaim") {
      out.source = dra::ConfigSource::FromClaim;
    } else if (source != "FromClass") {
      r_.invalid(*item.get("source"), not_supported(source, {"FromClaim", "FromClass"}));
    }
    out.requests = r_.request_references(item, names);
    out.config = r_.opaque_configuration(item);
    return out;
  }

  const ResourceReader& r_;
};

}  // namespace

dra::ResourceClaimSpec read_claim_spec(const ResourceReader& reader, const JsonNode& parent) {
  return ClaimReader(reader).spec(ResourceReader::object_member(parent, "spec"));
}

dra::ResourceClaimStatus read_claim_status(const ResourceReader& reader, const JsonNode& status,
                                           const dra::ResourceClaimSpec& spec) {
  return ClaimReader(reader).status(status, spec);
}

}  // namespace gpusched::io
