#pragma once
// Reading the resource-hours of a NodeUsage or an Allocation.

#include <map>
#include <string>
#include <string_view>

namespace gpusched::report {

/// The unit-hours of `resource` in `hours`; 0 when it was never offered or requested.
[[nodiscard]] inline double hours_of(const std::map<std::string, double>& hours,
                                     std::string_view resource) {
  auto it = hours.find(std::string(resource));
  return it == hours.end() ? 0 : it->second;
}

}  // namespace gpusched::report
