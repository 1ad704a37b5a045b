#pragma once
// A claim's device constraints during the allocator's search (structured/internal/incubating:
// matchAttributeConstraint in allocator_incubating.go, distinctAttributeConstraint in
// constraint.go, v0.36.2). Constraints are monotonic: once a device breaks one, adding more
// devices cannot mend it, so the search backtracks at once.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/dra.hpp"

namespace gpusched::dra {

/// lookupAttribute: the fully qualified name first, then, when its domain is the device's
/// driver, the bare id.
[[nodiscard]] const DeviceAttribute* lookup_attribute(const Device& device, std::string_view driver,
                                                      std::string_view qualified_name);

class Constraint {
 public:
  /// A constraint of the claim; `requests` empty means it covers every request.
  Constraint(const DeviceConstraint& spec);  // NOLINT: implicit
  /// add: whether `device` may join; if so it is tracked until remove() with the same names.
  [[nodiscard]] bool add(std::string_view request, std::string_view sub_request,
                         const Device& device, std::string_view driver);
  void remove(std::string_view request, std::string_view sub_request);

 private:
  [[nodiscard]] bool applies(std::string_view request, std::string_view sub_request) const;
  [[nodiscard]] bool add_match(const DeviceAttribute& attribute);
  [[nodiscard]] bool add_distinct(std::string_view request, const DeviceAttribute& attribute);

  std::vector<std::string> requests_;
  std::string attribute_name_;
  bool distinct_ = false;
  int num_devices_ = 0;
  std::optional<DeviceAttribute> first_;  ///< matchAttribute: the value every device must have
  /// distinctAttribute: the value taken per request name (upstream keys its map by request).
  std::map<std::string, DeviceAttribute, std::less<>> taken_;
};

}  // namespace gpusched::dra
