#include "gpusched/report/terminal_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

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

/// Whether a byte ends a run of printable ASCII (tab and line feed belong to the run).
bool ends_plain(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n') || c >= 0x7F;
}

/// Whether any of the eight bytes read at `at` may end a run: below 0x20 (tab and line feed
/// too, which the byte test then lets by), 0x7F or above. Never false when one does (the bit
/// tricks can only err the other way, after a byte that does).
bool word_may_end_plain(const char* at) {
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  constexpr std::uint64_t kHigh = 0x8080808080808080;
  std::uint64_t word = 0;
  std::memcpy(&word, at, sizeof word);
  const std::uint64_t below_space = (word - kOnes * 0x20) & ~word & kHigh;
  const std::uint64_t del_or_above = ((word + kOnes) | word) & kHigh;
  return (below_space | del_or_above) != 0;
}

/// The end of the run of printable ASCII from `from`: eight bytes at a time where none may end
/// it (a report is mostly such runs), then byte by byte through the word that may.
std::size_t plain_end(std::string_view text, std::size_t from) {
  std::size_t at = from;
  while (true) {
    while (at + 8 <= text.size() && !word_may_end_plain(text.data() + at)) at += 8;
    const std::size_t word_end = std::min(text.size(), at + 8);
    for (; at < word_end; ++at) {
      if (ends_plain(static_cast<unsigned char>(text[at]))) return at;
    }
    if (at == text.size()) return at;
  }
}

}  // namespace

std::size_t append_terminal_text(std::string& out, std::string_view text, bool more) {
  std::size_t i = 0;
  while (i < text.size()) {
    // Printable ASCII, the bulk of any report, is copied in runs.
    const std::size_t plain = plain_end(text, i);
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
