#pragma once
// The RE2 syntax Go's regexp package accepts (regexp/syntax with the Perl flags regexp.Compile
// uses), for CEL's `matches`: parsed into a small program and run as a Pike VM, so matching is
// linear in the text and never recurses. Only a boolean "matches anywhere" is needed, which does
// not depend on RE2's leftmost-first choice between alternatives.
//
// A pattern is either valid (and evaluated exactly), invalid (Go's regexp.Compile would reject it),
// or uses a feature this engine leaves out (Unicode classes, octal escapes, case folding beyond
// ASCII, ...), which the caller refuses as unsupported rather than guessing.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::dra::cel::detail {

class Regex {
 public:
  enum class Status : std::uint8_t { Ok, Invalid, Unsupported };

  /// Compiles `pattern`. On Invalid, `message` is Go's error ("error parsing regexp: missing
  /// closing ]: `[a`"); on Unsupported, it names the feature.
  static Status compile(std::string_view pattern, Regex& out, std::string& message);

  /// regexp.MatchString: whether the pattern matches anywhere in `text` (UTF-8; an invalid byte
  /// reads as U+FFFD, as Go decodes it).
  [[nodiscard]] bool search(std::string_view text) const;

  // The program (public for the compiler in cel_regex.cpp).
  enum class Op : std::uint8_t { Rune, Any, AnyNotNL, Split, Jmp, Match, Assert };
  enum class Assertion : std::uint8_t {
    BeginText,
    EndText,
    BeginLine,
    EndLine,
    WordBoundary,
    NotWordBoundary,
  };
  struct Inst {
    Op op = Op::Match;
    Assertion assertion = Assertion::BeginText;
    std::uint32_t x = 0;   ///< Split/Jmp target; Rune: first range
    std::uint32_t y = 0;   ///< Split second target; Rune: range count
    bool negated = false;  ///< Rune: matches the complement of the ranges
  };
  std::vector<Inst> program;
  std::vector<std::pair<char32_t, char32_t>> ranges;  ///< Rune ranges, sorted, inclusive
};

}  // namespace gpusched::dra::cel::detail
