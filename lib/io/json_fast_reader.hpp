#pragma once
/// A reader for the JSON text nlohmann's parser accepts without a second look, handing a SAX
/// handler the events nlohmann::json::sax_parse would hand it, in the same order and with the
/// same values: nlohmann's lexer reads a byte at a time through its input adapter and was most
/// of the time a scenario file took to parse. It gives up (read() is false) on anything else: a
/// syntax error, a byte order mark, an escaped surrogate, an integer beyond 64 bits, a double
/// out of range, nesting beyond its own bound, or a handler that stops. The caller then parses
/// the text again with nlohmann, whose errors and edge cases stay the only ones a user sees.
///
/// The grammar is RFC 8259's, as nlohmann 3.11 reads it (detail/lexer.hpp): whitespace is space,
/// tab, line feed and carriage return; strings hold no byte below 0x20 and only well-formed
/// UTF-8 (Unicode Table 3-7); an integer without a fraction or exponent is number_integer when
/// negative, number_unsigned otherwise; any other number is number_float with its text.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

namespace gpusched::io {

/// JSON's whitespace (RFC 8259): space, tab, line feed and carriage return.
[[nodiscard]] constexpr bool is_json_whitespace(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

template <class Handler>
class JsonFastReader {
 public:
  JsonFastReader(std::string_view text, Handler& handler)
      : p_(text.data()), end_(text.data() + text.size()), handler_(handler) {}

  /// True when the text was one JSON value and whitespace, every event handed over and accepted.
  [[nodiscard]] bool read() {
    skip_whitespace();
    if (!value()) return false;
    skip_whitespace();
    return p_ == end_;
  }

 private:
  /// Deeper texts are left to nlohmann's parser, which does not recurse.
  static constexpr int kMaxDepth = 256;

  static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

  void skip_whitespace() noexcept {
    while (p_ != end_ && is_json_whitespace(*p_)) ++p_;
  }

  bool value() {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string() && handler_.string(buffer_);
      case 't':
        return literal("true") && handler_.boolean(true);
      case 'f':
        return literal("false") && handler_.boolean(false);
      case 'n':
        return literal("null") && handler_.null();
      default:
        return number();
    }
  }

  bool object() {
    if (!open() || !handler_.start_object(static_cast<std::size_t>(-1))) return false;
    for (Next next = first('}'); next != Next::Closed; next = after('}')) {
      if (next == Next::Fault) return false;
      if (p_ == end_ || *p_ != '"' || !string() || !handler_.key(buffer_)) return false;
      skip_whitespace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_whitespace();
      if (!value()) return false;
    }
    return handler_.end_object();
  }

  bool array() {
    if (!open() || !handler_.start_array(static_cast<std::size_t>(-1))) return false;
    for (Next next = first(']'); next != Next::Closed; next = after(']')) {
      if (next == Next::Fault || !value()) return false;
    }
    return handler_.end_array();
  }

  /// What comes in a container: a member or element, its closing bracket, or a fault.
  enum class Next { Item, Closed, Fault };

  /// Past an opening bracket, one level deeper.
  bool open() noexcept {
    ++p_;
    return ++depth_ <= kMaxDepth;
  }
  /// Right after the opening bracket: the closing one (an empty container) or the first item.
  Next first(char close) noexcept {
    skip_whitespace();
    if (p_ != end_ && *p_ == close) return closed();
    return Next::Item;
  }
  /// After an item: a comma and the next item, or the closing bracket.
  Next after(char close) noexcept {
    skip_whitespace();
    if (p_ == end_) return Next::Fault;
    if (*p_ == ',') {
      ++p_;
      skip_whitespace();
      return Next::Item;
    }
    return *p_ == close ? closed() : Next::Fault;
  }
  Next closed() noexcept {
    ++p_;
    --depth_;
    return Next::Closed;
  }

  bool literal(std::string_view word) noexcept {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::memcmp(p_, word.data(), word.size()) != 0)
      return false;
    p_ += word.size();
    return true;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    } else {
      return false;
    }
    bool is_float = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      is_float = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      is_float = true;
    }
    if (is_float) {
      // Correctly rounded, as glibc's strtod that nlohmann calls; out of range (either way) is
      // left to nlohmann.
      double number = 0;
      const auto [end, error] = std::from_chars(start, p_, number);
      if (error != std::errc() || end != p_ || !std::isfinite(number)) return false;
      token_.assign(start, p_);
      return handler_.number_float(number, token_);
    }
    if (negative) {
      std::int64_t number = 0;
      const auto [end, error] = std::from_chars(start, p_, number);
      return error == std::errc() && end == p_ && handler_.number_integer(number);
    }
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(start, p_, number);
    return error == std::errc() && end == p_ && handler_.number_unsigned(number);
  }

  /// A string's value into buffer_, from its opening quote.
  bool string() {
    ++p_;
    buffer_.clear();
    for (;;) {
      const char* run = p_;
      while (p_ != end_ && plain(static_cast<unsigned char>(*p_))) ++p_;
      buffer_.append(run, p_);
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!escape()) return false;
      } else if (c < 0x20 || !utf8_sequence()) {
        return false;
      }
    }
  }

  static constexpr bool plain(unsigned char c) noexcept {
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  }

  bool escape() {
    if (end_ - p_ < 2) return false;
    const char c = p_[1];
    p_ += 2;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        buffer_.push_back(c);
        return true;
      case 'b':
        buffer_.push_back('\b');
        return true;
      case 'f':
        buffer_.push_back('\f');
        return true;
      case 'n':
        buffer_.push_back('\n');
        return true;
      case 'r':
        buffer_.push_back('\r');
        return true;
      case 't':
        buffer_.push_back('\t');
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    if (end_ - p_ < 4) return false;
    std::uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = *p_++;
      code <<= 4;
      if (h >= '0' && h <= '9') {
        code |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        code |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        code |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return false;
      }
    }
    if (code >= 0xD800 && code <= 0xDFFF) return false;  // surrogates: nlohmann's to pair
    if (code < 0x80) {
      buffer_.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      buffer_.push_back(static_cast<char>(0xC0 | (code >> 6)));
      buffer_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      buffer_.push_back(static_cast<char>(0xE0 | (code >> 12)));
      buffer_.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      buffer_.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
    return true;
  }

  /// One well-formed UTF-8 sequence from a byte at or above 0x80, appended.
  bool utf8_sequence() {
    const auto lead = static_cast<unsigned char>(*p_);
    int length = 0;
    unsigned char low = 0x80;  // the second byte's range
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ < length) return false;
    const auto second = static_cast<unsigned char>(p_[1]);
    if (second < low || second > high) return false;
    for (int i = 2; i < length; ++i) {
      const auto next = static_cast<unsigned char>(p_[i]);
      if (next < 0x80 || next > 0xBF) return false;
    }
    buffer_.append(p_, static_cast<std::size_t>(length));
    p_ += length;
    return true;
  }

  const char* p_;
  const char* end_;
  Handler& handler_;
  int depth_ = 0;
  std::string buffer_;
  std::string token_;
};

}  // namespace gpusched::io
