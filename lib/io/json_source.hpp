#pragma once
/// The raw text of a JSON input: size and nesting limits checked before parsing, parse errors
/// in plain words, and the line of a JSON pointer for error messages.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusched::io {

/// Deepest nesting of arrays and objects accepted; checked before nlohmann parses recursively.
inline constexpr int kMaxJsonDepth = 64;

/// The 1-based line of each value of a document read from YAML, found by JSON pointer. Values
/// are recorded as children of values already recorded, by key or index, so each costs ~16
/// bytes whatever its depth or its keys' length (a map from pointer text cost ~150 bytes a
/// value and grew with the depth: a 40 MB YAML file needed 3.7 GB).
class PointerLines {
 public:
  using Id = std::uint32_t;

  /// Records a value without a parent (a document, or a stream of them) at `line`.
  Id add_root(int line);
  /// Records `parent`'s member `key` (a mapping's) or element `index` (a sequence's) at `line`.
  Id add_member(Id parent, std::string_view key, int line);
  Id add_element(Id parent, std::size_t index, int line);
  /// Forgets the value recorded last, which must have no children (an empty document dropped).
  void drop_last();
  /// Makes `root` the value the empty pointer names and sorts for lookups; call once, after
  /// the last value is recorded.
  void seal(Id root);

  [[nodiscard]] int line(Id id) const { return lines_.at(id); }
  /// The line recorded for `pointer` or, failing that, for its longest recorded prefix; 0 when
  /// none is (nothing recorded, or not sealed).
  [[nodiscard]] int line_of(std::string_view pointer) const;

 private:
  static constexpr std::uint32_t kIndexBit = 1u << 31;
  struct Entry {
    Id parent;
    std::uint32_t token;  ///< an interned key, or kIndexBit | an index
    Id child;
  };
  [[nodiscard]] Id add(Id parent, std::uint32_t token, int line);

  std::unordered_map<std::string, std::uint32_t> keys_;  ///< interned mapping keys
  std::vector<Entry> children_;                          ///< by (parent, token, child) once sealed
  std::vector<int> lines_;                               ///< by Id
  std::optional<Id> root_;
};

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
  /// recorded for the pointer or, failing that, for its longest recorded prefix. Pointers asked
  /// for in document order cost one pass over the text in all.
  [[nodiscard]] int line_of(std::string_view pointer) const;

  /// Throws InputError(file, pointer, reason, line_of(pointer)).
  [[noreturn]] void fail(const std::string& pointer, std::string reason) const;

  /// Where warn() appends: the loader's list of what the input holds but gpusched ignores.
  /// Without one (the default) warnings are dropped. `sink` must outlive the source.
  void collect_warnings(std::vector<std::string>* sink) noexcept { warnings_ = sink; }
  [[nodiscard]] bool collects_warnings() const noexcept { return warnings_ != nullptr; }
  /// Where warn() appends, for another input read on this one's behalf; null when none.
  [[nodiscard]] std::vector<std::string>* warnings_sink() const noexcept { return warnings_; }
  /// Appends `file:line: pointer: reason` (located_message) to the warnings, if collected.
  void warn(const std::string& pointer, const std::string& reason) const;

  /// Where not_modelled() appends: what the input holds that can change where or whether a pod
  /// runs but that gpusched does not model (Scenario::notes); under `strict` (`--strict`) it
  /// fails instead. `sink` must outlive this.
  void collect_unmodelled(std::vector<std::string>* sink, bool strict) noexcept {
    unmodelled_ = sink;
    strict_ = strict;
  }
  /// Appends `file:line: pointer: reason`, if collected; fails there under `strict`.
  void not_modelled(const std::string& pointer, const std::string& reason) const;

  /// Checks size, emptiness, binary content and nesting depth, then parses. Parse errors become
  /// InputErrors with the line of the offending byte and nlohmann's jargon removed.
  [[nodiscard]] nlohmann::json parse() const;

 private:
  /// A pointer token and the offset of the value it leads to.
  struct Step {
    std::string token;
    std::size_t offset;
  };

  /// Offset of the value at `pointer` in the text, or of the deepest value on its way.
  [[nodiscard]] std::size_t offset_of(std::string_view pointer) const;

  std::string file_;
  std::string_view text_;
  const PointerLines* lines_ = nullptr;
  std::vector<std::string>* warnings_ = nullptr;
  std::vector<std::string>* unmodelled_ = nullptr;
  bool strict_ = false;
  // A warning asks for a line once per unknown field, and a dump from a newer Kubernetes can
  // hold one in every object: walking from the start each time would be quadratic. So the last
  // walk is kept to resume from, and the line of the last offset asked for is counted on from
  // (an index of every line's start cost a fresh array of 8 bytes a line).
  mutable std::vector<Step> last_walk_;
  mutable std::size_t counted_offset_ = 0;
  mutable int counted_line_ = 1;
};

/// The reason given for input over io::kMaxFileBytes.
[[nodiscard]] std::string file_too_large_reason();

/// 1-based line containing byte `offset` of `text`.
[[nodiscard]] int line_at(std::string_view text, std::size_t offset) noexcept;

}  // namespace gpusched::io
