#include "model/utf8.hpp"

namespace gpusched {

Utf8Char decode_utf8(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  Utf8Char c{lead, 1, false, false};
  if (lead < 0x80) {
    c.valid = true;
    return c;
  }
  const std::size_t n = (lead >> 5) == 0x6    ? 2
                        : (lead >> 4) == 0xE  ? 3
                        : (lead >> 3) == 0x1E ? 4
                                              : 0;
  if (n == 0) return c;
  char32_t code = lead & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if (at + k >= text.size()) {
      c.incomplete = true;
      return c;
    }
    const auto b = static_cast<unsigned char>(text[at + k]);
    if ((b >> 6) != 0x2) return c;
    code = (code << 6) | (b & 0x3Fu);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMin[n] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return c;
  return {code, n, true, false};
}

}  // namespace gpusched
