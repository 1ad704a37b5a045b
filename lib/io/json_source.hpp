#pragma once
/// The raw text of a JSON input: size and nesting limits checked before parsing, parse errors
/// in plain words, and the line of a JSON pointer for error messages.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

namespace gpusched::io {

/// Deepest nesting of arrays and objects accepted; checked before nlohmann parses recursively.
inline constexpr int kMaxJsonDepth = 64;

/// The 1-based line of each value of a document read from YAML, by JSON pointer.
using PointerLines = std::unordered_map<std::string, int>;

/// A named JSON text. Errors thrown through it carry the file and, when the text is known,
/// the line of the place they point at.
class JsonSource {
 public:
  /// `text` must outlive the source; empty text (a patch built at run time) means lines are
  /// unknown.
  JsonSource(std::string file, std::string_view text) : file_(std::move(file)), text_(text) {}
  /// A document read from YAML (or built otherwise) whose lines are known by pointer; `lines`
  /// must outlive the source.
  [[nodiscard]] static JsonSource with_lines(std::string file, const PointerLines& lines) {
    JsonSource source(std::move(file), std::string_view{});
    source.lines_ = &lines;
    return source;
  }

  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] std::string_view text() const noexcept { return text_; }

  /// 1-based line of the value at `pointer`; when the pointer leads nowhere, the line of the
  /// deepest value on its way. 0 when the text is unknown. For a YAML document, the line
  /// recorded for the pointer or, failing that, for its longest recorded prefix.
  [[nodiscard]] int line_of(std::string_view pointer) const;

  /// Throws InputError(file, pointer, reason, line_of(pointer)).
  [[noreturn]] void fail(const std::string& pointer, std::string reason) const;

  /// Checks size, emptiness, binary content and nesting depth, then parses. Parse errors become
  /// InputErrors with the line of the offending byte and nlohmann's jargon removed.
  [[nodiscard]] nlohmann::json parse() const;

 private:
  std::string file_;
  std::string_view text_;
  const PointerLines* lines_ = nullptr;
};

/// The reason given for input over io::kMaxFileBytes.
[[nodiscard]] std::string file_too_large_reason();

/// 1-based line containing byte `offset` of `text`.
[[nodiscard]] int line_at(std::string_view text, std::size_t offset) noexcept;

}  // namespace gpusched::io
