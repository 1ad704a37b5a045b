#pragma once
// Compile errors shown as cel-go shows them (common/error.go ToDisplayString and
// common/errors.go): "ERROR: <input>:1:8: undeclared reference to 'x' (in container '')"
// followed by the source line and a caret under the column.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::dra::cel::detail {

/// One compile error: a byte offset into the expression (nullopt: common.NoLocation) and text.
struct SourceError {
  std::optional<std::size_t> offset;
  std::string message;
};

/// The errors sorted by line and column (stably, as Errors.ToDisplayString sorts them), each
/// decorated with its snippet, joined by newlines.
[[nodiscard]] std::string display_errors(std::string_view source, std::vector<SourceError> errors);

}  // namespace gpusched::dra::cel::detail
