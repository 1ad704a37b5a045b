// RE2 syntax as Go's regexp/syntax parses it (parse.go, with regexp.Compile's Perl flags:
// ClassNL | OneLine | PerlX | UnicodeGroups), compiled to a Thompson program and run as a Pike VM
// (what regexp/backtrack.go and pikevm.go guarantee: linear time). Errors read as Go's
// ("error parsing regexp: missing closing ]: `[a`"). Anything the parser is not sure Go treats
// the same way is reported Unsupported rather than guessed.
#include "dra/cel_regex.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/utf8.hpp"

namespace gpusched::dra::cel::detail {
namespace {

constexpr char32_t kMaxRune = 0x10FFFF;
constexpr char32_t kRuneError = 0xFFFD;
constexpr std::size_t kMaxProgram = 20000;  // larger patterns are refused, not compiled
constexpr int kMaxDepth = 200;
constexpr int kMaxRepeat = 1000;  // regexp/syntax: repeat counts above 1000 are invalid

using Ranges = std::vector<std::pair<char32_t, char32_t>>;

struct Node {
  enum class Kind : std::uint8_t { Empty, Class, Any, Concat, Alternate, Repeat, Assert };
  Kind kind = Kind::Empty;
  Ranges ranges;          // Class
  bool dot_nl = false;    // Any: also matches '\n'
  int min = 0, max = -1;  // Repeat: max -1 is unbounded
  bool counted = false;   // Repeat written as {n,m}
  Regex::Assertion assertion = Regex::Assertion::BeginText;
  std::vector<std::unique_ptr<Node>> subs;
};

using NodePtr = std::unique_ptr<Node>;

struct Flags {
  bool fold = false;    // (?i)
  bool multi = false;   // (?m): ^ and $ at line boundaries
  bool dot_nl = false;  // (?s)
};

struct Failure {
  Regex::Status status = Regex::Status::Ok;
  std::string message;
};

bool is_word(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

bool is_alnum(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

void normalize(Ranges& r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  for (const auto& [lo, hi] : r) {
    if (!out.empty() && lo <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, hi);
    } else {
      out.emplace_back(lo, hi);
    }
  }
  r = std::move(out);
}

Ranges negate(Ranges r) {
  normalize(r);
  Ranges out;
  char32_t next = 0;
  for (const auto& [lo, hi] : r) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxRune) out.emplace_back(next, kMaxRune);
  return out;
}

// Perl classes (regexp/syntax perl_groups.go) and POSIX classes (posixGroup), all ASCII.
bool perl_class(char c, Ranges& out) {
  Ranges r;
  switch (c) {
    case 'd':
    case 'D':
      r = {{'0', '9'}};
      break;
    case 's':
    case 'S':
      r = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
      break;
    case 'w':
    case 'W':
      r = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
      break;
    default:
      return false;
  }
  if (c >= 'A' && c <= 'Z') r = negate(std::move(r));
  out.insert(out.end(), r.begin(), r.end());
  return true;
}

bool posix_class(std::string_view name, Ranges& r) {
  if (name == "alnum") {
    r = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
  } else if (name == "alpha") {
    r = {{'A', 'Z'}, {'a', 'z'}};
  } else if (name == "ascii") {
    r = {{0, 0x7F}};
  } else if (name == "blank") {
    r = {{'\t', '\t'}, {' ', ' '}};
  } else if (name == "cntrl") {
    r = {{0, 0x1F}, {0x7F, 0x7F}};
  } else if (name == "digit") {
    r = {{'0', '9'}};
  } else if (name == "graph") {
    r = {{'!', '~'}};
  } else if (name == "lower") {
    r = {{'a', 'z'}};
  } else if (name == "print") {
    r = {{' ', '~'}};
  } else if (name == "punct") {
    r = {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}};
  } else if (name == "space") {
    r = {{'\t', '\r'}, {' ', ' '}};
  } else if (name == "upper") {
    r = {{'A', 'Z'}};
  } else if (name == "word") {
    r = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  } else if (name == "xdigit") {
    r = {{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
  } else {
    return false;
  }
  return true;
}

// appendFoldedRange for ASCII: each letter with its other case, and the two non-ASCII runes
// whose simple folding orbit contains an ASCII letter (K: KELVIN SIGN, S: LONG S).
bool add_folded(Ranges& r, char32_t lo, char32_t hi) {
  r.emplace_back(lo, hi);
  if (hi >= 0x80) return false;
  for (char32_t c = lo; c <= hi; ++c) {
    if (c >= 'a' && c <= 'z') r.emplace_back(c - 32, c - 32);
    if (c >= 'A' && c <= 'Z') r.emplace_back(c + 32, c + 32);
    if (c == 'k' || c == 'K') r.emplace_back(0x212A, 0x212A);
    if (c == 's' || c == 'S') r.emplace_back(0x017F, 0x017F);
  }
  return true;
}

class Parser {
 public:
  explicit Parser(std::string_view pattern) : src_(pattern) {}

  NodePtr run(Failure& failure) {
    for (std::size_t i = 0; i < src_.size();) {
      const Utf8Char c = decode_utf8(src_, i);
      if (!c.valid) {
        fail(Regex::Status::Unsupported, "invalid UTF-8 in a regular expression");
        failure = failure_;
        return nullptr;
      }
      i += c.length;
    }
    NodePtr root = alternation(Flags{}, 0);
    if (ok() && pos_ < src_.size()) {
      // alternation() only stops early at an unmatched ')'.
      invalid("unexpected )", src_);
    }
    failure = failure_;
    return ok() ? std::move(root) : nullptr;
  }

 private:
  bool ok() const { return failure_.status == Regex::Status::Ok; }
  void fail(Regex::Status status, std::string message) {
    if (ok()) failure_ = {status, std::move(message)};
  }
  void invalid(std::string_view code, std::string_view expr) {
    fail(Regex::Status::Invalid,
         "error parsing regexp: " + std::string(code) + ": `" + std::string(expr) + "`");
  }
  void unsupported(std::string_view what) {
    fail(Regex::Status::Unsupported,
         "regular expression feature " + std::string(what) + " in \"" + std::string(src_) + "\"");
  }

  bool at_end() const { return pos_ >= src_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  char32_t next_rune() {
    const Utf8Char c = decode_utf8(src_, pos_);
    pos_ += c.length;
    return c.code;
  }

  static NodePtr make(Node::Kind kind) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    return n;
  }
  static NodePtr make_class(Ranges r) {
    NodePtr n = make(Node::Kind::Class);
    normalize(r);
    n->ranges = std::move(r);
    return n;
  }

  NodePtr literal(char32_t c, const Flags& flags) {
    Ranges r;
    if (flags.fold) {
      if (!add_folded(r, c, c)) unsupported("case-insensitive non-ASCII literal");
    } else {
      r.emplace_back(c, c);
    }
    return make_class(std::move(r));
  }

  // alternation: concat ('|' concat)*. Flags set by (?i) inside a group last to its end.
  NodePtr alternation(Flags flags, int depth) {
    if (depth > kMaxDepth) {
      unsupported("nesting deeper than 200 groups");
      return nullptr;
    }
    std::vector<NodePtr> branches;
    branches.push_back(concat(flags, depth));
    while (ok() && peek() == '|') {
      ++pos_;
      branches.push_back(concat(flags, depth));
    }
    if (branches.size() == 1) return std::move(branches[0]);
    NodePtr n = make(Node::Kind::Alternate);
    n->subs = std::move(branches);
    return n;
  }

  NodePtr concat(Flags& flags, int depth) {
    NodePtr n = make(Node::Kind::Concat);
    while (ok() && !at_end() && peek() != '|' && peek() != ')') {
      NodePtr atom = this->atom(flags, depth);
      if (!ok()) return nullptr;
      if (atom == nullptr) {
        // A flag group such as (?i) adds nothing; Go would apply a repetition that follows it to
        // the atom before the group.
        int min = 0, max = 0;
        bool counted = false;
        std::size_t end = 0;
        if (repeat_op_here(min, max, counted, end)) {
          unsupported("repetition after a flag group");
          return nullptr;
        }
        continue;
      }
      atom = repetitions(std::move(atom));
      if (!ok()) return nullptr;
      n->subs.push_back(std::move(atom));
    }
    return n;
  }

  // parseRepeat: {n}, {n,}, {n,m} with digits and no leading zeros; otherwise '{' is literal.
  bool parse_repeat(std::size_t at, int& min, int& max, std::size_t& end) const {
    auto number = [&](std::size_t& i, int& value) {
      if (i >= src_.size() || src_[i] < '0' || src_[i] > '9') return false;
      if (src_[i] == '0' && i + 1 < src_.size() && src_[i + 1] >= '0' && src_[i + 1] <= '9') {
        return false;
      }
      long v = 0;
      while (i < src_.size() && src_[i] >= '0' && src_[i] <= '9') {
        if (v < 100000000) v = v * 10 + (src_[i] - '0');
        ++i;
      }
      value = v >= 100000000 ? -1 : static_cast<int>(v);
      return true;
    };
    std::size_t i = at + 1;
    if (!number(i, min)) return false;
    if (i < src_.size() && src_[i] == ',') {
      ++i;
      if (i < src_.size() && src_[i] == '}') {
        max = -1;
      } else if (!number(i, max)) {
        return false;
      }
    } else {
      max = min;
    }
    if (i >= src_.size() || src_[i] != '}') return false;
    end = i + 1;
    return true;
  }

  bool repeat_op_here(int& min, int& max, bool& counted, std::size_t& end) const {
    counted = false;
    switch (peek()) {
      case '*':
        min = 0, max = -1, end = pos_ + 1;
        return true;
      case '+':
        min = 1, max = -1, end = pos_ + 1;
        return true;
      case '?':
        min = 0, max = 1, end = pos_ + 1;
        return true;
      case '{':
        counted = true;
        return parse_repeat(pos_, min, max, end);
      default:
        return false;
    }
  }

  NodePtr repetitions(NodePtr atom) {
    int min = 0, max = 0;
    bool counted = false;
    std::size_t end = 0;
    if (!repeat_op_here(min, max, counted, end)) return atom;
    const std::size_t op_start = pos_;
    pos_ = end;
    if (peek() == '?') ++pos_;  // non-greedy: the same language
    if (counted && (min < 0 || min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && min > max))) {
      invalid("invalid repeat count", src_.substr(op_start, pos_ - op_start));
      return nullptr;
    }
    int min2 = 0, max2 = 0;
    bool counted2 = false;
    std::size_t end2 = 0;
    if (repeat_op_here(min2, max2, counted2, end2)) {
      invalid("invalid nested repetition operator", src_.substr(op_start, end2 - op_start));
      return nullptr;
    }
    if (atom->kind == Node::Kind::Assert) {
      unsupported("repetition of an empty-width assertion");
      return nullptr;
    }
    NodePtr n = make(Node::Kind::Repeat);
    n->min = min;
    n->max = max;
    n->counted = counted;
    n->subs.push_back(std::move(atom));
    return n;
  }

  // One atom, or nullptr for a group that only sets flags.
  NodePtr atom(Flags& flags, int depth) {
    const std::size_t start = pos_;
    const char c = peek();
    switch (c) {
      case '(':
        return group(flags, depth);
      case '[':
        return char_class(flags);
      case '.': {
        ++pos_;
        NodePtr n = make(Node::Kind::Any);
        n->dot_nl = flags.dot_nl;
        return n;
      }
      case '^': {
        ++pos_;
        NodePtr n = make(Node::Kind::Assert);
        n->assertion = flags.multi ? Regex::Assertion::BeginLine : Regex::Assertion::BeginText;
        return n;
      }
      case '$': {
        ++pos_;
        NodePtr n = make(Node::Kind::Assert);
        n->assertion = flags.multi ? Regex::Assertion::EndLine : Regex::Assertion::EndText;
        return n;
      }
      case '*':
      case '+':
      case '?': {
        std::size_t end = pos_ + 1;
        if (end < src_.size() && src_[end] == '?') ++end;
        invalid("missing argument to repetition operator", src_.substr(start, end - start));
        return nullptr;
      }
      case '{': {
        int min = 0, max = 0;
        std::size_t end = 0;
        if (parse_repeat(pos_, min, max, end)) {
          invalid("missing argument to repetition operator", src_.substr(start, end - start));
          return nullptr;
        }
        ++pos_;
        return literal('{', flags);
      }
      case '\\':
        return escape(flags);
      default:
        return literal(next_rune(), flags);
    }
  }

  NodePtr group(Flags& flags, int depth) {
    const std::size_t start = pos_;
    ++pos_;  // '('
    Flags inner = flags;
    if (peek() == '?') {
      // parsePerlFlags: named groups, then flag groups.
      if (peek(1) == 'P' && peek(2) == '<') {
        pos_ += 3;
        if (!capture_name(start)) return nullptr;
      } else if (peek(1) == '<') {
        pos_ += 2;
        if (!capture_name(start)) return nullptr;
      } else {
        pos_ += 1;
        if (!perl_flags(start, inner)) return nullptr;
        if (src_[pos_ - 1] == ')') {
          flags = inner;  // (?i): for the rest of the enclosing group
          return nullptr;
        }
      }
    }
    NodePtr sub = alternation(inner, depth + 1);
    if (!ok()) return nullptr;
    if (peek() != ')') {
      invalid("missing closing )", src_.substr(start));
      return nullptr;
    }
    ++pos_;
    return sub;
  }

  bool capture_name(std::size_t start) {
    const std::size_t name_start = pos_;
    const std::size_t close = src_.find('>', pos_);
    if (close == std::string_view::npos) {
      invalid("invalid named capture", src_.substr(start));
      return false;
    }
    const std::string_view name = src_.substr(name_start, close - name_start);
    pos_ = close + 1;
    const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
      return is_word(static_cast<unsigned char>(ch));
    });
    if (!valid) {
      invalid("invalid named capture", src_.substr(start, pos_ - start));
      return false;
    }
    if (std::find(names_.begin(), names_.end(), name) != names_.end()) {
      invalid("duplicate capture group name", src_.substr(start, pos_ - start));
      return false;
    }
    names_.push_back(name);
    return true;
  }

  // After "(?": flags [i m s U], one optional '-', then ':' or ')'.
  bool perl_flags(std::size_t start, Flags& flags) {
    bool negated = false;
    bool saw_flag = false;
    while (!at_end()) {
      const char c = src_[pos_++];
      switch (c) {
        case 'i':
          flags.fold = !negated;
          saw_flag = true;
          break;
        case 'm':
          flags.multi = !negated;
          saw_flag = true;
          break;
        case 's':
          flags.dot_nl = !negated;
          saw_flag = true;
          break;
        case 'U':  // non-greedy by default: the same language
          saw_flag = true;
          break;
        case '-':
          if (negated) {
            invalid("invalid or unsupported Perl syntax", src_.substr(start, pos_ - start));
            return false;
          }
          negated = true;
          saw_flag = false;
          break;
        case ':':
        case ')':
          if (negated && !saw_flag) {
            invalid("invalid or unsupported Perl syntax", src_.substr(start, pos_ - start));
            return false;
          }
          return true;
        default:
          invalid("invalid or unsupported Perl syntax", src_.substr(start, pos_ - start));
          return false;
      }
    }
    invalid("missing closing )", src_.substr(start));
    return false;
  }

  // parseEscape for one character (outside or inside a class). Returns false on failure.
  bool escape_char(char32_t& out, std::size_t start, bool in_class) {
    ++pos_;  // '\\'
    if (at_end()) {
      invalid("trailing backslash at end of expression", "");
      return false;
    }
    const char32_t c = next_rune();
    if (c < 0x80 && !is_alnum(c)) {
      out = c;
      return true;
    }
    switch (c) {
      case 'a':
        out = '\a';
        return true;
      case 'f':
        out = '\f';
        return true;
      case 'n':
        out = '\n';
        return true;
      case 'r':
        out = '\r';
        return true;
      case 't':
        out = '\t';
        return true;
      case 'v':
        out = '\v';
        return true;
      case 'x': {
        if (peek() == '{') {
          const std::size_t close = src_.find('}', pos_);
          if (close == std::string_view::npos || close == pos_ + 1) break;
          char32_t v = 0;
          for (std::size_t i = pos_ + 1; i < close; ++i) {
            const char h = src_[i];
            const int d = h >= '0' && h <= '9'   ? h - '0'
                          : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                 : -1;
            if (d < 0 || v > kMaxRune) {
              v = kMaxRune + 1;
              break;
            }
            v = v * 16 + static_cast<char32_t>(d);
          }
          if (v > kMaxRune) break;
          pos_ = close + 1;
          out = v;
          return true;
        }
        char32_t v = 0;
        for (int k = 0; k < 2; ++k) {
          const char h = peek();
          const int d = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
          if (d < 0) {
            invalid("invalid escape sequence", src_.substr(start, pos_ - start));
            return false;
          }
          v = v * 16 + static_cast<char32_t>(d);
          ++pos_;
        }
        out = v;
        return true;
      }
      default:
        break;
    }
    if (c >= '0' && c <= '9') {
      unsupported("octal escape or backreference \\" + std::string(1, static_cast<char>(c)));
      return false;
    }
    if (!in_class && (c == 'p' || c == 'P' || c == 'Q')) {
      unsupported("\\" + std::string(1, static_cast<char>(c)));
      return false;
    }
    if (in_class && (c == 'p' || c == 'P')) {
      unsupported("\\" + std::string(1, static_cast<char>(c)));
      return false;
    }
    invalid("invalid escape sequence", src_.substr(start, pos_ - start));
    return false;
  }

  NodePtr escape(const Flags& flags) {
    const std::size_t start = pos_;
    const char c = peek(1);
    auto assertion = [&](Regex::Assertion a) {
      pos_ += 2;
      NodePtr n = make(Node::Kind::Assert);
      n->assertion = a;
      return n;
    };
    switch (c) {
      case 'A':
        return assertion(Regex::Assertion::BeginText);
      case 'z':
        return assertion(Regex::Assertion::EndText);
      case 'b':
        return assertion(Regex::Assertion::WordBoundary);
      case 'B':
        return assertion(Regex::Assertion::NotWordBoundary);
      case 'C':
        invalid("invalid escape sequence", src_.substr(start, 2));
        return nullptr;
      default:
        break;
    }
    Ranges r;
    if (perl_class(c, r)) {
      pos_ += 2;
      return make_class(std::move(r));
    }
    char32_t literal_char = 0;
    if (!escape_char(literal_char, start, false)) return nullptr;
    return literal(literal_char, flags);
  }

  NodePtr char_class(const Flags& flags) {
    const std::size_t start = pos_;
    ++pos_;  // '['
    bool negated = false;
    if (peek() == '^') {
      negated = true;
      ++pos_;
    }
    Ranges r;
    bool first = true;
    while (at_end() || peek() != ']' || first) {
      if (at_end()) {
        invalid("missing closing ]", src_.substr(start));
        return nullptr;
      }
      first = false;
      // POSIX [:name:] and [:^name:].
      if (peek() == '[' && peek(1) == ':') {
        const std::size_t close = src_.find(":]", pos_ + 2);
        if (close != std::string_view::npos) {
          std::string_view name = src_.substr(pos_ + 2, close - pos_ - 2);
          const bool neg = !name.empty() && name[0] == '^';
          if (neg) name.remove_prefix(1);
          Ranges pr;
          if (!posix_class(name, pr)) {
            invalid("invalid character class range", src_.substr(pos_, close + 2 - pos_));
            return nullptr;
          }
          if (neg) pr = negate(std::move(pr));
          add_all(r, pr, flags);
          pos_ = close + 2;
          continue;
        }
      }
      if (peek() == '\\' && (peek(1) == 'p' || peek(1) == 'P')) {
        unsupported("\\" + std::string(1, peek(1)));
        return nullptr;
      }
      Ranges perl;
      if (peek() == '\\' && perl_class(peek(1), perl)) {
        pos_ += 2;
        add_all(r, perl, flags);
        continue;
      }
      const std::size_t range_start = pos_;
      char32_t lo = 0;
      if (!class_char(lo, start)) return nullptr;
      char32_t hi = lo;
      if (peek() == '-' && pos_ + 1 < src_.size() && src_[pos_ + 1] != ']') {
        ++pos_;
        if (!class_char(hi, start)) return nullptr;
        if (hi < lo) {
          invalid("invalid character class range", src_.substr(range_start, pos_ - range_start));
          return nullptr;
        }
      }
      if (flags.fold) {
        if (!add_folded(r, lo, hi)) {
          unsupported("case-insensitive non-ASCII class");
          return nullptr;
        }
      } else {
        r.emplace_back(lo, hi);
      }
    }
    ++pos_;  // ']'
    if (negated) r = negate(std::move(r));
    return make_class(std::move(r));
  }

  void add_all(Ranges& r, const Ranges& add, const Flags& flags) {
    for (const auto& [lo, hi] : add) {
      if (flags.fold && hi < 0x80) {
        add_folded(r, lo, hi);
      } else {
        r.emplace_back(lo, hi);
      }
    }
  }

  bool class_char(char32_t& out, std::size_t class_start) {
    if (at_end()) {
      invalid("missing closing ]", src_.substr(class_start));
      return false;
    }
    if (peek() == '\\') return escape_char(out, pos_, true);
    out = next_rune();
    return true;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  Failure failure_;
  std::vector<std::string_view> names_;
};

// regexp/syntax repeatIsValid: nested counted repetitions multiply; Go refuses products above
// 1000 in some shapes. The shapes are left to Go: any product above 1000 is refused here.
bool repeat_size_ok(const Node& n, long budget) {
  if (n.kind == Node::Kind::Repeat && n.counted) {
    const long m = n.max >= 0 ? n.max : n.min;
    if (m > budget) return false;
    if (m > 0) budget /= m;
  }
  for (const auto& s : n.subs) {
    if (!repeat_size_ok(*s, budget)) return false;
  }
  return true;
}

class Compiler {
 public:
  explicit Compiler(Regex& out) : re_(out) {}

  bool emit(const Node& n) {
    if (re_.program.size() > kMaxProgram) return false;
    switch (n.kind) {
      case Node::Kind::Empty:
        return true;
      case Node::Kind::Class: {
        Regex::Inst i;
        i.op = Regex::Op::Rune;
        i.x = static_cast<std::uint32_t>(re_.ranges.size());
        i.y = static_cast<std::uint32_t>(n.ranges.size());
        re_.ranges.insert(re_.ranges.end(), n.ranges.begin(), n.ranges.end());
        re_.program.push_back(i);
        return true;
      }
      case Node::Kind::Any: {
        Regex::Inst i;
        i.op = n.dot_nl ? Regex::Op::Any : Regex::Op::AnyNotNL;
        re_.program.push_back(i);
        return true;
      }
      case Node::Kind::Assert: {
        Regex::Inst i;
        i.op = Regex::Op::Assert;
        i.assertion = n.assertion;
        re_.program.push_back(i);
        return true;
      }
      case Node::Kind::Concat:
        for (const auto& s : n.subs) {
          if (!emit(*s)) return false;
        }
        return true;
      case Node::Kind::Alternate: {
        std::vector<std::size_t> jumps;
        for (std::size_t k = 0; k < n.subs.size(); ++k) {
          std::size_t split = 0;
          const bool last = k + 1 == n.subs.size();
          if (!last) split = push(Regex::Op::Split);
          if (!emit(*n.subs[k])) return false;
          if (!last) {
            jumps.push_back(push(Regex::Op::Jmp));
            re_.program[split].x = static_cast<std::uint32_t>(split + 1);
            re_.program[split].y = here();
          }
        }
        for (std::size_t j : jumps) re_.program[j].x = here();
        return true;
      }
      case Node::Kind::Repeat:
        return repeat(*n.subs[0], n.min, n.max);
    }
    return false;
  }

 private:
  std::size_t push(Regex::Op op) {
    Regex::Inst i;
    i.op = op;
    re_.program.push_back(i);
    return re_.program.size() - 1;
  }
  std::uint32_t here() const { return static_cast<std::uint32_t>(re_.program.size()); }

  bool star(const Node& sub) {
    const std::size_t split = push(Regex::Op::Split);
    if (!emit(sub)) return false;
    const std::size_t jmp = push(Regex::Op::Jmp);
    re_.program[jmp].x = static_cast<std::uint32_t>(split);
    re_.program[split].x = static_cast<std::uint32_t>(split + 1);
    re_.program[split].y = here();
    return true;
  }

  bool repeat(const Node& sub, int min, int max) {
    for (int k = 0; k < min; ++k) {
      if (!emit(sub)) return false;
    }
    if (max < 0) return star(sub);
    std::vector<std::size_t> splits;
    for (int k = min; k < max; ++k) {
      splits.push_back(push(Regex::Op::Split));
      re_.program[splits.back()].x = here();
      if (!emit(sub)) return false;
    }
    for (std::size_t s : splits) re_.program[s].y = here();
    return true;
  }

  Regex& re_;
};

}  // namespace

Regex::Status Regex::compile(std::string_view pattern, Regex& out, std::string& message) {
  Failure failure;
  Parser parser(pattern);
  NodePtr root = parser.run(failure);
  if (failure.status != Status::Ok) {
    message = failure.message;
    return failure.status;
  }
  if (!repeat_size_ok(*root, kMaxRepeat)) {
    message = "regular expression feature nested counted repetition above 1000 in \"" +
              std::string(pattern) + "\"";
    return Status::Unsupported;
  }
  out = Regex{};
  Compiler compiler(out);
  if (!compiler.emit(*root) || out.program.size() > kMaxProgram) {
    message = "regular expression too large: \"" + std::string(pattern) + "\"";
    return Status::Unsupported;
  }
  Inst match;
  match.op = Op::Match;
  out.program.push_back(match);
  return Status::Ok;
}

namespace {

struct Position {
  bool begin = false;
  bool end = false;
  char32_t prev = 0;  // valid when !begin
  char32_t next = 0;  // valid when !end
};

bool holds(Regex::Assertion a, const Position& p) {
  const bool prev_word = !p.begin && is_word(p.prev);
  const bool next_word = !p.end && is_word(p.next);
  switch (a) {
    case Regex::Assertion::BeginText:
      return p.begin;
    case Regex::Assertion::EndText:
      return p.end;
    case Regex::Assertion::BeginLine:
      return p.begin || p.prev == '\n';
    case Regex::Assertion::EndLine:
      return p.end || p.next == '\n';
    case Regex::Assertion::WordBoundary:
      return prev_word != next_word;
    case Regex::Assertion::NotWordBoundary:
      return prev_word == next_word;
  }
  return false;
}

// A list of program counters in caller-provided storage.
struct PcList {
  std::uint32_t* items;
  std::size_t size;
  void push_back(std::uint32_t pc) { items[size++] = pc; }
};

char32_t rune_at(std::string_view text, std::size_t at, std::size_t& size) {
  const Utf8Char c = decode_utf8(text, at);
  size = c.length;
  return c.valid ? c.code : kRuneError;
}

}  // namespace

bool Regex::search(std::string_view text) const {
  // Thread lists hold each pc at most once; the stack holds at most one entry per edge. Small
  // programs (the usual selector patterns) run on the stack, without allocating.
  const std::size_t n = program.size();
  constexpr std::size_t kSmall = 64;
  std::array<std::uint32_t, kSmall * 5> small{};
  std::vector<std::uint32_t> heap;
  std::uint32_t* base = small.data();
  if (n > kSmall) {
    heap.assign(n * 5, 0);
    base = heap.data();
  }
  std::uint32_t* mark = base;
  PcList current{base + n, 0};
  PcList next{base + 2 * n, 0};
  PcList stack{base + 3 * n, 0};
  std::uint32_t generation = 1;

  // Follows empty transitions from `pc` into `list`; true when Match is reached.
  auto add = [&](PcList& list, std::uint32_t start, const Position& pos) {
    stack.size = 0;
    stack.push_back(start);
    while (stack.size > 0) {
      const std::uint32_t pc = stack.items[--stack.size];
      if (mark[pc] == generation) continue;
      mark[pc] = generation;
      const Inst& inst = program[pc];
      switch (inst.op) {
        case Op::Match:
          return true;
        case Op::Jmp:
          stack.push_back(inst.x);
          break;
        case Op::Split:
          stack.push_back(inst.y);
          stack.push_back(inst.x);
          break;
        case Op::Assert:
          if (holds(inst.assertion, pos)) stack.push_back(pc + 1);
          break;
        default:
          list.push_back(pc);
          break;
      }
    }
    return false;
  };

  auto step = [&](const Inst& inst, char32_t c) {
    switch (inst.op) {
      case Op::Any:
        return true;
      case Op::AnyNotNL:
        return c != '\n';
      case Op::Rune: {
        const auto first = ranges.begin() + inst.x;
        const auto last = first + inst.y;
        auto it =
            std::upper_bound(first, last, c, [](char32_t v, const auto& r) { return v < r.first; });
        return it != first && c <= (it - 1)->second;
      }
      default:
        return false;
    }
  };

  std::size_t pos = 0;
  std::size_t size = 0;
  Position here;
  here.begin = true;
  here.end = text.empty();
  if (!here.end) here.next = rune_at(text, 0, size);
  while (true) {
    if (add(current, 0, here)) return true;
    if (here.end) return false;
    const char32_t c = here.next;
    const std::size_t after = pos + size;
    Position there;
    there.prev = c;
    there.end = after >= text.size();
    std::size_t next_size = 0;
    if (!there.end) there.next = rune_at(text, after, next_size);
    ++generation;
    next.size = 0;
    for (std::size_t k = 0; k < current.size; ++k) {
      const std::uint32_t pc = current.items[k];
      if (step(program[pc], c) && add(next, pc + 1, there)) return true;
    }
    std::swap(current, next);
    pos = after;
    size = next_size;
    here = there;
  }
}

}  // namespace gpusched::dra::cel::detail
