#pragma once
// CEL's grammar (cel-go v0.26.0 parser/gen/CEL.g4) by recursive descent, with the standard
// macros (parser/macro.go: has, all, exists, exists_one, existsOne) and cel.bind
// (ext/bindings.go) expanded as cel-go expands them. Constructs outside the subset gpusched
// evaluates become Unsupported nodes, so that the whole expression is still syntax-checked.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dra/cel_ast.hpp"
#include "dra/cel_source.hpp"

namespace gpusched::dra::cel::detail {

/// cel-go's parser defaults: parser.MaxRecursionDepth and ExpressionSizeCodePointLimit.
inline constexpr int kMaxRecursionDepth = 250;
inline constexpr std::size_t kMaxCodePoints = 100000;

/// A construct outside the subset, with the byte offset it starts at.
struct UnsupportedNote {
  std::size_t offset = 0;
  std::string message;  ///< what follows "unsupported CEL: "
};

struct ParseResult {
  Ast ast;
  std::vector<SourceError> errors;  ///< syntax and macro errors
  std::vector<UnsupportedNote> unsupported;
};

[[nodiscard]] ParseResult parse(std::string_view source);

}  // namespace gpusched::dra::cel::detail
