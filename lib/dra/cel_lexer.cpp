// CEL's lexer rules (cel-go v0.26.0 parser/gen/CEL.g4) and string unescaping
// (parser/unescape.go), hand-written: longest match, keywords before identifiers.
#include "dra/cel_lexer.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpusched::dra::cel::detail {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// utf8.ValidRune.
bool valid_rune(char32_t c) {
  return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
}

// The length of the escape sequence at `s[0] == '\\'` that CEL.g4's ESC_SEQ accepts, or 0.
std::size_t escape_length(std::string_view s) {
  if (s.size() < 2) return 0;
  switch (s[1]) {
    case 'a':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
    case '"':
    case '\'':
    case '\\':
    case '?':
    case '`':
      return 2;
    case 'x':
    case 'X':
      return s.size() >= 4 && is_hex(s[2]) && is_hex(s[3]) ? 4 : 0;
    case 'u': {
      if (s.size() < 6) return 0;
      for (std::size_t i = 2; i < 6; ++i) {
        if (!is_hex(s[i])) return 0;
      }
      return 6;
    }
    case 'U': {
      if (s.size() < 10) return 0;
      for (std::size_t i = 2; i < 10; ++i) {
        if (!is_hex(s[i])) return 0;
      }
      return 10;
    }
    case '0':
    case '1':
    case '2':
    case '3':
      return s.size() >= 4 && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7' ? 4 : 0;
    default:
      return 0;
  }
}

// unescape.go's unescapeChar for strings (not bytes): one escape sequence, already known to be
// well-formed, appended as UTF-8. Returns the error unescape.go reports, if any.
std::optional<std::string> unescape_one(std::string_view seq, std::string& out) {
  char32_t value = 0;
  switch (seq[1]) {
    case 'a':
      value = '\a';
      break;
    case 'b':
      value = '\b';
      break;
    case 'f':
      value = '\f';
      break;
    case 'n':
      value = '\n';
      break;
    case 'r':
      value = '\r';
      break;
    case 't':
      value = '\t';
      break;
    case 'v':
      value = '\v';
      break;
    case 'x':
    case 'X':
    case 'u':
    case 'U':
      for (std::size_t i = 2; i < seq.size(); ++i) value = value << 4 | hex_value(seq[i]);
      if (!valid_rune(value)) return "invalid unicode code point";
      break;
    case '0':
    case '1':
    case '2':
    case '3':
      value = static_cast<char32_t>((seq[1] - '0') * 64 + (seq[2] - '0') * 8 + (seq[3] - '0'));
      break;
    default:  // the quotes, backslash, '?' and '`' stand for themselves
      value = static_cast<char32_t>(seq[1]);
      break;
  }
  append_utf8(out, value);
  return std::nullopt;
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  LexResult run() {
    LexResult result;
    while (true) {
      skip_space();
      if (pos_ >= src_.size()) break;
      const std::size_t start = pos_;
      Token token;
      if (!next(token)) {
        if (!error_)
          error_ = SourceError{
              start, "Syntax error: token recognition error at: '" + recognition_text(start) + "'"};
        result.error = std::move(error_);
        return result;
      }
      if (error_) {
        result.error = std::move(error_);
        return result;
      }
      token.offset = static_cast<std::uint32_t>(start);
      token.length = static_cast<std::uint32_t>(pos_ - start);
      if (token.kind != Tok::String) token.text = std::string(src_.substr(start, pos_ - start));
      result.tokens.push_back(std::move(token));
    }
    Token end;
    end.offset = static_cast<std::uint32_t>(src_.size());
    result.tokens.push_back(std::move(end));
    return result;
  }

 private:
  std::string recognition_text(std::size_t start) const {
    // ANTLR names the text it could not match: here the first character.
    std::size_t n = 1;
    const auto lead = static_cast<unsigned char>(src_[start]);
    if (lead >= 0xF0) {
      n = 4;
    } else if (lead >= 0xE0) {
      n = 3;
    } else if (lead >= 0xC0) {
      n = 2;
    }
    return std::string(src_.substr(start, n));
  }

  void skip_space() {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool peek_is(std::size_t at, char c) const { return at < src_.size() && src_[at] == c; }

  bool next(Token& t) {
    const char c = src_[pos_];
    if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) {
      return number(t);
    }
    if (c == '"' || c == '\'') return string_literal(t, false);
    if ((c == 'r' || c == 'R') && (peek_is(pos_ + 1, '"') || peek_is(pos_ + 1, '\''))) {
      ++pos_;
      return string_literal(t, true);
    }
    if ((c == 'b' || c == 'B')) {
      std::size_t q = pos_ + 1;
      bool raw = false;
      if (peek_is(q, 'r') || peek_is(q, 'R')) {
        raw = true;
        ++q;
      }
      if (peek_is(q, '"') || peek_is(q, '\'')) {
        pos_ = q;
        if (!string_literal(t, raw)) return false;
        t.kind = Tok::Bytes;
        return true;
      }
    }
    if (is_letter(c) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < src_.size() &&
             (is_letter(src_[pos_]) || is_digit(src_[pos_]) || src_[pos_] == '_')) {
        ++pos_;
      }
      const std::string_view word = src_.substr(start, pos_ - start);
      t.kind = word == "true"    ? Tok::True
               : word == "false" ? Tok::False
               : word == "null"  ? Tok::Null
               : word == "in"    ? Tok::In
                                 : Tok::Ident;
      return true;
    }
    if (c == '`') {
      std::size_t end = pos_ + 1;
      while (end < src_.size() &&
             (is_letter(src_[end]) || is_digit(src_[end]) ||
              std::string_view("_.-/ ").find(src_[end]) != std::string_view::npos)) {
        ++end;
      }
      if (end == pos_ + 1 || !peek_is(end, '`')) return false;
      pos_ = end + 1;
      t.kind = Tok::EscapedIdent;
      return true;
    }
    return punctuation(t);
  }

  bool punctuation(Token& t) {
    const char c = src_[pos_];
    const char d = pos_ + 1 < src_.size() ? src_[pos_ + 1] : '\0';
    auto two = [&](Tok kind) {
      pos_ += 2;
      t.kind = kind;
      return true;
    };
    auto one = [&](Tok kind) {
      pos_ += 1;
      t.kind = kind;
      return true;
    };
    switch (c) {
      case '=':
        return d == '=' ? two(Tok::Eq) : false;
      case '!':
        return d == '=' ? two(Tok::Ne) : one(Tok::Not);
      case '<':
        return d == '=' ? two(Tok::Le) : one(Tok::Lt);
      case '>':
        return d == '=' ? two(Tok::Ge) : one(Tok::Gt);
      case '&':
        return d == '&' ? two(Tok::And) : false;
      case '|':
        return d == '|' ? two(Tok::Or) : false;
      case '(':
        return one(Tok::LParen);
      case ')':
        return one(Tok::RParen);
      case '[':
        return one(Tok::LBracket);
      case ']':
        return one(Tok::RBracket);
      case '{':
        return one(Tok::LBrace);
      case '}':
        return one(Tok::RBrace);
      case '.':
        return one(Tok::Dot);
      case ',':
        return one(Tok::Comma);
      case ':':
        return one(Tok::Colon);
      case '?':
        return one(Tok::Question);
      case '+':
        return one(Tok::Plus);
      case '-':
        return one(Tok::Minus);
      case '*':
        return one(Tok::Star);
      case '/':
        return one(Tok::Slash);
      case '%':
        return one(Tok::Percent);
      default:
        return false;
    }
  }

  // NUM_FLOAT, NUM_INT, NUM_UINT.
  bool number(Token& t) {
    const std::size_t start = pos_;
    if (src_[pos_] == '0' && peek_is(pos_ + 1, 'x') && pos_ + 2 < src_.size() &&
        is_hex(src_[pos_ + 2])) {
      pos_ += 2;
      while (pos_ < src_.size() && is_hex(src_[pos_])) ++pos_;
      t.kind = Tok::Int;
      if (peek_is(pos_, 'u') || peek_is(pos_, 'U')) {
        ++pos_;
        t.kind = Tok::Uint;
      }
      return true;
    }
    while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    bool is_double = false;
    if (peek_is(pos_, '.') && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1])) {
      ++pos_;
      while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
      is_double = true;
    }
    if (peek_is(pos_, 'e') || peek_is(pos_, 'E')) {
      std::size_t e = pos_ + 1;
      if (peek_is(e, '+') || peek_is(e, '-')) ++e;
      if (e < src_.size() && is_digit(src_[e])) {
        while (e < src_.size() && is_digit(src_[e])) ++e;
        pos_ = e;
        is_double = true;
      }
    }
    if (is_double) {
      t.kind = Tok::Double;
      return true;
    }
    if (pos_ == start) return false;
    t.kind = Tok::Int;
    if (peek_is(pos_, 'u') || peek_is(pos_, 'U')) {
      ++pos_;
      t.kind = Tok::Uint;
    }
    return true;
  }

  // STRING (pos_ at the opening quote; a raw prefix already consumed), decoded as unescape.go
  // does: "\r\n" and "\r" become "\n", escapes are replaced unless the literal is raw.
  bool string_literal(Token& t, bool raw) {
    const char quote = src_[pos_];
    const bool triple = peek_is(pos_ + 1, quote) && peek_is(pos_ + 2, quote);
    const std::size_t literal_start = raw ? pos_ - 1 : pos_;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= src_.size()) return false;
      const char c = src_[pos_];
      if (triple) {
        if (c == quote && peek_is(pos_ + 1, quote) && peek_is(pos_ + 2, quote)) {
          pos_ += 3;
          break;
        }
      } else {
        if (c == quote) {
          ++pos_;
          break;
        }
        if (c == '\n' || c == '\r') return false;
      }
      if (c == '\\' && !raw) {
        const std::size_t n = escape_length(src_.substr(pos_));
        if (n == 0) return false;
        if (auto err = unescape_one(src_.substr(pos_, n), out)) {
          error_ = SourceError{literal_start, *err};
          pos_ += n;
          continue;
        }
        pos_ += n;
        continue;
      }
      if (c == '\r') {
        out += '\n';
        pos_ += peek_is(pos_ + 1, '\n') ? 2 : 1;
        continue;
      }
      out += c;
      ++pos_;
    }
    t.kind = Tok::String;
    t.text = std::move(out);
    return true;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  std::optional<SourceError> error_;
};

}  // namespace

LexResult lex(std::string_view source) {
  return Lexer(source).run();
}

std::string describe(const Token& token) {
  if (token.kind == Tok::End) return "<EOF>";
  if (token.kind == Tok::String) return "string literal";
  return "'" + token.text + "'";
}

}  // namespace gpusched::dra::cel::detail
