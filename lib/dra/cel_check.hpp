#pragma once
// The type check of a parsed selector against the DRA environment (compile.go's `device`
// variable over the Kubernetes base library), as cel-go v0.26.0's checker/checker.go does it:
// identifiers resolved, overloads chosen, every call annotated with the implementation the
// evaluator runs. Functions that exist in the Kubernetes environment but not in gpusched's
// subset are noted as unsupported; names that exist in neither are undeclared references.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dra/cel.hpp"
#include "dra/cel_ast.hpp"
#include "dra/cel_parser.hpp"
#include "dra/cel_regex.hpp"
#include "dra/cel_source.hpp"
#include "dra/cel_types.hpp"

namespace gpusched::dra::cel::detail {

struct CheckResult {
  std::vector<SourceError> errors;             ///< the checker's errors
  std::vector<SourceError> validation_errors;  ///< AST validators' (only without errors)
  std::vector<UnsupportedNote> unsupported;
  const Type* output = nullptr;  ///< the expression's type, parameters as dyn
  std::uint32_t slot_count = 0;  ///< comprehension and bind variables
  std::vector<Regex> regexes;    ///< compiled `matches` patterns
  /// env.Program's error (a constant pattern that does not compile, unvalidated).
  std::optional<std::string> program_error;
};

/// Checks and annotates `ast` in place.
[[nodiscard]] CheckResult check(Ast& ast, const Features& features, TypeStore& store);

}  // namespace gpusched::dra::cel::detail
