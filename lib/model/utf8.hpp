#pragma once
// UTF-8 read one character at a time, for the writers that must not pass on what their readers
// cannot take: control characters to a terminal, characters XML 1.0 forbids.

#include <cstddef>
#include <string_view>

namespace gpusched {

/// One character of a UTF-8 text, or one byte that starts none.
struct Utf8Char {
  char32_t code = 0;       ///< the code point; the byte itself when !valid
  std::size_t length = 1;  ///< bytes it takes; 1 when !valid
  bool valid = false;      ///< well-formed: no overlong form, surrogate or code point past U+10FFFF
  bool incomplete = false;  ///< !valid only because the text ends inside the sequence
};

/// The character of `text` that starts at byte `at` (< text.size()).
[[nodiscard]] Utf8Char decode_utf8(std::string_view text, std::size_t at);

}  // namespace gpusched
