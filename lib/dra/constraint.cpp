#include "dra/constraint.hpp"

#include <algorithm>

namespace gpusched::dra {

const DeviceAttribute* lookup_attribute(const Device& device, std::string_view driver,
                                        std::string_view qualified_name) {
  if (const auto it = device.attributes.find(qualified_name); it != device.attributes.end()) {
    return &it->second;
  }
  const std::size_t slash = qualified_name.find('/');
  if (slash == std::string_view::npos || qualified_name.substr(0, slash) != driver) return nullptr;
  const auto it = device.attributes.find(qualified_name.substr(slash + 1));
  return it == device.attributes.end() ? nullptr : &it->second;
}

Constraint::Constraint(const DeviceConstraint& spec)
    : requests_(spec.requests),
      attribute_name_(spec.match_attribute ? *spec.match_attribute
                                           : spec.distinct_attribute.value_or("")),
      distinct_(!spec.match_attribute && spec.distinct_attribute) {}

bool Constraint::applies(std::string_view request, std::string_view sub_request) const {
  if (requests_.empty()) return true;
  auto has = [&](std::string_view name) {
    return std::find(requests_.begin(), requests_.end(), name) != requests_.end();
  };
  if (sub_request.empty()) return has(request);
  return has(request) || has(std::string(request) + "/" + std::string(sub_request));
}

bool Constraint::add(std::string_view request, std::string_view sub_request, const Device& device,
                     std::string_view driver) {
  if (!applies(request, sub_request)) return true;
  const DeviceAttribute* attribute = lookup_attribute(device, driver, attribute_name_);
  if (attribute == nullptr) return false;
  return distinct_ ? add_distinct(request, *attribute) : add_match(*attribute);
}

bool Constraint::add_match(const DeviceAttribute& attribute) {
  if (num_devices_ == 0) {
    first_ = attribute;
  } else if (first_->kind != attribute.kind || !(*first_ == attribute)) {
    // Versions compare as strings: semver 2.0.0 values are in their minimal form.
    return false;
  }
  ++num_devices_;
  return true;
}

bool Constraint::add_distinct(std::string_view request, const DeviceAttribute& attribute) {
  if (num_devices_ > 0) {
    for (const auto& [name, taken] : taken_) {
      if (taken == attribute) return false;
    }
  }
  taken_.insert_or_assign(std::string(request), attribute);
  ++num_devices_;
  return true;
}

void Constraint::remove(std::string_view request, std::string_view sub_request) {
  if (!applies(request, sub_request)) return;
  if (distinct_) {
    if (const auto it = taken_.find(request); it != taken_.end()) taken_.erase(it);
  }
  --num_devices_;
}

}  // namespace gpusched::dra
