#pragma once
// A compiled selector (cel.hpp's opaque Program): the checked tree with its annotations, the
// compiled regular expressions and the constants folded at compile time.

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "dra/cel.hpp"
#include "dra/cel_ast.hpp"
#include "dra/cel_regex.hpp"
#include "dra/cel_value.hpp"

namespace gpusched::dra::cel {

class Program {
 public:
  detail::Ast ast;
  std::uint32_t slot_count = 0;
  std::vector<detail::Regex> regexes;
  std::vector<detail::Value> constants;
  std::deque<std::string> constant_text;  ///< what constants' views point into
  std::deque<std::vector<detail::Value>> constant_lists;
};

namespace detail {

/// resourceapi.CELSelectorExpressionMaxCost: evaluation stops past this many steps. gpusched
/// counts one per evaluated node and comprehension iteration, not cel-go's cost model.
inline constexpr std::uint64_t kCostLimit = 1000000;

/// CompilationResult.DeviceMatches: validates the device's version attributes as
/// getAttributeValue does, evaluates, and converts the result to bool.
[[nodiscard]] EvalResult evaluate(const Program& program, const DeviceView& device);

/// Evaluates a subtree that reads no variable (a literal list, `quantity("1Gi")`) once, keeping
/// what the value points at in the program, so that evaluation reuses it.
[[nodiscard]] Value fold_constant(Program& program, NodeId id);

}  // namespace detail
}  // namespace gpusched::dra::cel
