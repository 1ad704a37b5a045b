#include "gpusched/report/terminal_text.hpp"

#include <cstdio>

#include "model/utf8.hpp"

namespace gpusched::report {
namespace {

void append_escape(std::string& out, const char* format, unsigned value) {
  char buf[8];
  std::snprintf(buf, sizeof buf, format, value);
  out += buf;
}

bool is_control(char32_t code) {
  return (code < 0x20 && code != '\t' && code != '\n') || (code >= 0x7F && code <= 0x9F);
}

}  // namespace

std::size_t append_terminal_text(std::string& out, std::string_view text, bool more) {
  std::size_t i = 0;
  while (i < text.size()) {
    // Printable ASCII, the bulk of any report, is copied in runs.
    std::size_t plain = i;
    while (plain < text.size()) {
      const auto c = static_cast<unsigned char>(text[plain]);
      if ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7F) break;
      ++plain;
    }
    out.append(text, i, plain - i);
    i = plain;
    if (i == text.size()) break;
    const Utf8Char c = decode_utf8(text, i);
    if (c.incomplete && more) return i;
    if (!c.valid) {
      append_escape(out, "\\x%02x", static_cast<unsigned>(c.code));
    } else if (is_control(c.code)) {
      append_escape(out, "\\u%04x", static_cast<unsigned>(c.code));
    } else {
      out.append(text, i, c.length);
    }
    i += c.length;
  }
  return text.size();
}

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_terminal_text(out, text);
  return out;
}

}  // namespace gpusched::report
