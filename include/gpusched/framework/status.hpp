#pragma once
/// What a plugin returns (pkg/scheduler/framework/interface.go Code and Status).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/framework/interned.hpp"

namespace gpusched {

class StringPool;

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

/// framework.Status: a plugin's code, its reasons (interned in the cluster's string pool) and
/// the plugin that returned it, which the Framework fills in. Success carries no reasons.
struct Status {
  // From a code alone, as a plugin returns Success or Skip (framework.NewStatus(code)).
  Status(Code code_ = Code::Success, std::string_view plugin_ = {},  // NOLINT: implicit on purpose
         Reasons reasons_ = {})
      : code(code_), plugin(plugin_), reasons(std::move(reasons_)) {}

  Code code;
  std::string_view plugin;
  Reasons reasons;

  /// Status.IsSuccess.
  [[nodiscard]] bool ok() const noexcept { return code == Code::Success; }
  /// Status.Message(): the reasons joined with ", ".
  [[nodiscard]] std::string message(const StringPool& pool) const;
};

}  // namespace gpusched
