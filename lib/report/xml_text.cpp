#include "report/xml_text.hpp"

#include "model/utf8.hpp"

namespace gpusched::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// A character XML 1.0 allows (its Char production) that is no control character: HTML reads
/// DEL and C1 as errors, and a numeric reference to C1 as Windows-1252.
bool is_xml_text(char32_t code) {
  if (code < 0x20) return code == '\t' || code == '\n' || code == '\r';
  if (code >= 0x7F && code <= 0x9F) return false;
  return code != 0xFFFE && code != 0xFFFF;  // surrogates never decode as valid UTF-8
}

}  // namespace

std::string xml_escaped(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += attribute ? "&quot;" : "\"";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      case '\r':
        out += "&#13;";
        break;
      default: {
        // Invalid UTF-8 (from a file name, say) would make the whole document ill-formed.
        const Utf8Char decoded = decode_utf8(text, i);
        if (decoded.valid && is_xml_text(decoded.code)) {
          out.append(text, i, decoded.length);
        } else {
          out += kReplacement;
        }
        i += decoded.length;
        continue;
      }
    }
    ++i;
  }
  return out;
}

}  // namespace gpusched::report
