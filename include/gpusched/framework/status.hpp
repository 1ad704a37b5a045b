#pragma once
/// Plugin status codes (pkg/scheduler/framework/interface.go Code).

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/framework/string_pool.hpp"

namespace gpusched {

enum class Code : std::uint8_t {
  Success,
  Error,
  Unschedulable,                 ///< "U": preemption may help
  UnschedulableAndUnresolvable,  ///< "UU": preemption cannot help
  Wait,
  Skip,
  Pending,
};

/// Failure reasons as interned strings; kept by callers and reused so the Filter loop does not
/// allocate once warmed up.
using Reasons = std::vector<StrId>;

/// Code.IsRejected(): Unschedulable, UnschedulableAndUnresolvable or Pending.
[[nodiscard]] constexpr bool is_rejected(Code code) noexcept {
  return code == Code::Unschedulable || code == Code::UnschedulableAndUnresolvable ||
         code == Code::Pending;
}

[[nodiscard]] std::string_view to_string(Code code) noexcept;

}  // namespace gpusched
