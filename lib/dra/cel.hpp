#pragma once
// The subset of CEL that device selectors use (k8s.io/dynamic-resource-allocation/cel/compile.go
// at v0.36.2, over cel-go and the Kubernetes CEL libraries). No C++ CEL library is packaged in
// Debian, so gpusched interprets the subset real DeviceClasses and claims use; an expression
// outside it is refused when compiled ("unsupported CEL: ..."), never evaluated to a guess.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpusched/model/dra.hpp"

namespace gpusched::dra::cel {

/// cel.Features: which variables the environment declares.
struct Features {
  /// DRAConsumableCapacity: `device.allowMultipleAllocations` exists.
  bool consumable_capacity = false;
  friend bool operator==(const Features&, const Features&) = default;
};

/// What an expression sees of one device (cel.Device).
struct DeviceView {
  std::string_view driver;
  const AttributeMap* attributes = nullptr;  ///< never null when evaluated
  const CapacityMap* capacity = nullptr;     ///< never null when evaluated
  std::optional<bool> allow_multiple_allocations;
};

/// The outcome of one evaluation: a bool, or a runtime error in cel-go's words
/// (`no such key: memory`), which the allocator wraps as `CEL runtime error: <error>`.
struct EvalResult {
  bool matches = false;
  std::optional<std::string> error;
};

class Program;  // the checked syntax tree, private to cel.cpp

/// A compiled expression (CompilationResult): either a program or an error.
struct CompileResult {
  std::shared_ptr<const Program> program;  ///< null when `error` is set
  /// The compile error: a syntax or type error ("compilation failed: ...") or, for an
  /// expression outside the subset, one that starts with "unsupported CEL: ".
  std::string error;
  bool unsupported = false;  ///< `error` is about the subset, not about the expression

  /// Evaluates against one device. Precondition: program != nullptr.
  [[nodiscard]] EvalResult matches(const DeviceView& device) const;
};

/// Compiles one selector expression (compiler.CompileCELExpression): parse, check that it uses
/// only the subset and the declared variables, and that its type is bool (or dyn).
[[nodiscard]] CompileResult compile(std::string_view expression, const Features& features);

/// cel.Cache: compiled expressions by text. Not thread-safe; one per allocator user.
class Cache {
 public:
  explicit Cache(Features features) : features_(features) {}
  [[nodiscard]] const CompileResult& get_or_compile(std::string_view expression);
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }

 private:
  Features features_;
  std::map<std::string, CompileResult, std::less<>> entries_;
};

}  // namespace gpusched::dra::cel
