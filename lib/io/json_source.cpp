#include "io/json_source.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/json_fast_reader.hpp"
#include "io/json_release.hpp"
#include "model/go_text.hpp"

namespace gpusched::io {
namespace {

/// The bytes a walk over a container stops at.
constexpr std::array<bool, 256> kStructural = [] {
  std::array<bool, 256> table{};
  for (const unsigned char c : {'"', '{', '}', '[', ']'}) table[c] = true;
  return table;
}();

/// A forward-only walk over JSON text already known to be valid; used only to find where a
/// value starts, so it never builds values.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  [[nodiscard]] std::size_t pos() const noexcept { return pos_; }
  void seek(std::size_t pos) noexcept { pos_ = pos; }
  [[nodiscard]] char peek() const noexcept { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_ws() {
    while (pos_ < text_.size() && is_json_whitespace(text_[pos_])) ++pos_;
  }
  /// Skips whitespace and then `c` if it is next.
  bool consume(char c) {
    skip_ws();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  /// Reads the string token at the cursor and returns its unescaped value.
  std::string read_string() {
    std::string out;
    ++pos_;  // opening quote
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\' || pos_ >= text_.size()) {
        out += c;
        continue;
      }
      char e = text_[pos_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u':
          append_utf8(out, read_code_point());
          break;
        default:
          out += e;
      }
    }
    ++pos_;  // closing quote
    return out;
  }

  /// Skips one value of any type.
  void skip_value() {
    skip_ws();
    char c = peek();
    if (c == '"') {
      skip_string();
    } else if (c == '{' || c == '[') {
      int depth = 0;
      do {
        // Inside a container only quotes, brackets and braces matter: the rest (names, numbers,
        // the indentation of a printed file) is passed over with one test a byte.
        while (pos_ < text_.size() && !kStructural[static_cast<unsigned char>(text_[pos_])]) {
          ++pos_;
        }
        if (pos_ == text_.size()) break;
        c = text_[pos_];
        if (c == '"') {
          skip_string();
          continue;
        }
        depth += c == '{' || c == '[' ? 1 : -1;
        ++pos_;
      } while (depth > 0 && pos_ < text_.size());
    } else {
      while (pos_ < text_.size() && !is_json_whitespace(text_[pos_]) && text_[pos_] != ',' &&
             text_[pos_] != '}' && text_[pos_] != ']') {
        ++pos_;
      }
    }
  }

 private:
  void skip_string() {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
    ++pos_;
  }

  unsigned read_hex4() {
    unsigned value = 0;
    for (int i = 0; i < 4 && pos_ < text_.size(); ++i, ++pos_) {
      char h = text_[pos_];
      int digit = h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10;
      value = value * 16 + static_cast<unsigned>(digit);
    }
    return value;
  }

  /// The code point of a \u escape (after the "\u"), joining a surrogate pair.
  unsigned read_code_point() {
    unsigned cp = read_hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
      pos_ += 2;
      unsigned low = read_hex4();
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

/// Moves the scanner from an object's '{' to the value of `key`; false when it is absent.
bool enter_member(Scanner& scanner, const std::string& key) {
  scanner.consume('{');
  while (true) {
    scanner.skip_ws();
    if (scanner.peek() != '"') return false;
    bool hit = scanner.read_string() == key;
    scanner.consume(':');
    scanner.skip_ws();
    if (hit) return true;
    scanner.skip_value();
    if (!scanner.consume(',')) return false;
  }
}

/// The array index a pointer token names, if it is one.
std::optional<std::size_t> array_index(const std::string& token) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  // Beyond std::size_t no array has such an element: not an index (std::stoul would throw).
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (error != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return index;
}

/// Moves the scanner from an array element (or from just after the '[') `count` elements on;
/// false when the array ends first.
bool skip_elements(Scanner& scanner, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    scanner.skip_ws();
    if (scanner.peek() == ']') return false;
    scanner.skip_value();
    if (!scanner.consume(',')) return false;
  }
  scanner.skip_ws();
  return scanner.peek() != ']' && scanner.peek() != '\0';
}

/// Moves the scanner from an array's '[' to its element `token`; false when out of range.
bool enter_element(Scanner& scanner, const std::string& token) {
  const std::optional<std::size_t> index = array_index(token);
  if (!index) return false;
  scanner.consume('[');
  return skip_elements(scanner, *index);
}

/// RFC 6901 reference tokens, unescaped (~1 -> '/', ~0 -> '~').
std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (start <= pointer.size() && !pointer.empty()) {
    std::size_t end = pointer.find('/', start);
    if (end == std::string_view::npos) end = pointer.size();
    std::string token;
    for (std::size_t i = start; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end) {
        token += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    tokens.push_back(std::move(token));
    start = end + 1;
  }
  return tokens;
}

/// Removes nlohmann's exception prefix, context and token echo from a parse error, keeping the
/// lexer's own words ("unexpected end of input; expected string literal").
std::string plain_parse_message(const std::string& what) {
  std::string message = what;
  if (std::size_t dash = message.find(" - "); dash != std::string::npos) {
    message = message.substr(dash + 3);
  } else if (std::size_t colon = message.find(": "); colon != std::string::npos) {
    message = message.substr(colon + 2);
  }
  if (std::size_t last = message.find("; last read: "); last != std::string::npos) {
    message.resize(last);
  }
  return message;
}

/// Refuses an object holding a key twice (JSON text already known to be valid), naming the
/// duplicate's place, its dotted path and its line.
void check_unique_keys(Scanner& scanner, std::string& path, std::string& pointer,
                       const std::string& file, std::string_view text) {
  scanner.skip_ws();
  const char c = scanner.peek();
  const std::size_t path_size = path.size();
  const std::size_t pointer_size = pointer.size();
  if (c == '{') {
    scanner.consume('{');
    std::set<std::string, std::less<>> keys;
    while (!scanner.consume('}')) {
      scanner.consume(',');
      scanner.skip_ws();
      const std::size_t at = scanner.pos();
      std::string key = scanner.read_string();
      scanner.consume(':');
      path += (path.empty() ? "" : ".") + key;
      pointer += "/" + escape_pointer_token(key);
      if (!keys.insert(std::move(key)).second) {
        throw InputError(file, pointer, "duplicate field \"" + path + "\"", line_at(text, at));
      }
      check_unique_keys(scanner, path, pointer, file, text);
      path.resize(path_size);
      pointer.resize(pointer_size);
    }
  } else if (c == '[') {
    scanner.consume('[');
    for (std::size_t index = 0; !scanner.consume(']'); ++index) {
      if (index > 0) scanner.consume(',');
      path += "[" + std::to_string(index) + "]";
      pointer += "/" + std::to_string(index);
      check_unique_keys(scanner, path, pointer, file, text);
      path.resize(path_size);
      pointer.resize(pointer_size);
    }
  } else {
    scanner.skip_value();
  }
}

/// The DOM nlohmann's json_sax_dom_parser builds (detail/input/json_sax.hpp, 3.11), built with
/// two differences. Each member goes in with the end of its object as the hint: a file gpusched
/// or kubectl wrote has its keys in order, so the insert compares the key with the last one
/// only (std::map's hinted insert), where a search from the root compared it at every level. And
/// each object's keys are counted as they come: an object holding fewer members than it was given
/// keys had one repeated, the sign to look for duplicates with check_unique_keys, which names the
/// field; without one the text needs no second walk.
class DomBuilder {
 public:
  using Json = nlohmann::json;
  explicit DomBuilder(Json& root) : root_(root) {}

  bool null() { return value(nullptr); }
  bool boolean(bool value) { return this->value(value); }
  bool number_integer(Json::number_integer_t value) { return this->value(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return this->value(value); }
  bool number_float(Json::number_float_t value, const Json::string_t& /*text*/) {
    return this->value(value);
  }
  bool string(Json::string_t& value) { return this->value(value); }
  bool binary(Json::binary_t& value) { return this->value(std::move(value)); }
  bool start_object(std::size_t /*length*/) {
    if (!deeper()) return false;
    levels_.push_back({place(Json::value_t::object), 0});
    return true;
  }
  bool key(Json::string_t& name) {
    Level& level = levels_.back();
    ++level.keys;
    auto& members = *level.value->get_ptr<Json::object_t*>();
    member_ = &members.emplace_hint(members.end(), name, nullptr)->second;
    return true;
  }
  bool end_object() {
    const Level& level = levels_.back();
    repeated_ = repeated_ || level.value->size() != level.keys;
    levels_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*length*/) {
    if (!deeper()) return false;
    levels_.push_back({place(Json::value_t::array), 0});
    return true;
  }
  bool end_array() {
    levels_.pop_back();
    return true;
  }
  /// nlohmann's parser reports its errors here; they are thrown as json_sax_dom_parser throws
  /// them, for JsonSource::parse to put in plain words.
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& error) {
    throw error;
  }

  [[nodiscard]] bool repeated() const noexcept { return repeated_; }

 private:
  struct Level {
    Json* value;
    std::size_t keys;  ///< given so far, for an object
  };

  /// Whether one level more stays within kMaxJsonDepth (false: parsing stops).
  bool deeper() const noexcept { return levels_.size() < static_cast<std::size_t>(kMaxJsonDepth); }

  /// Puts `v` where the next value goes (json_sax_dom_parser::handle_value): the root, the end
  /// of the array being read, or the member whose key came last.
  template <class V>
  Json* place(V&& v) {
    if (levels_.empty()) {
      root_ = Json(std::forward<V>(v));
      return &root_;
    }
    Json& parent = *levels_.back().value;
    if (parent.is_array()) {
      auto& elements = *parent.get_ptr<Json::array_t*>();
      return &elements.emplace_back(std::forward<V>(v));
    }
    *member_ = Json(std::forward<V>(v));
    return member_;
  }
  template <class V>
  bool value(V&& v) {
    place(std::forward<V>(v));
    return true;
  }

  Json& root_;
  std::vector<Level> levels_;  ///< the arrays and objects being read, outermost first
  Json* member_ = nullptr;     ///< the member whose key came last
  bool repeated_ = false;
};

}  // namespace

std::string file_too_large_reason() {
  return "file is larger than the limit of " + std::to_string(kMaxFileBytes >> 20) + " MiB";
}

int line_at(std::string_view text, std::size_t offset) noexcept {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

PointerLines::Id PointerLines::add(Id parent, std::uint32_t token, int line) {
  const auto id = static_cast<Id>(lines_.size());
  if (parent != id) children_.push_back(Entry{parent, token, id});
  lines_.push_back(line);
  return id;
}

PointerLines::Id PointerLines::add_root(int line) {
  return add(static_cast<Id>(lines_.size()), 0, line);
}

PointerLines::Id PointerLines::add_member(Id parent, std::string_view key, int line) {
  auto [it, added] = keys_.try_emplace(std::string(key), static_cast<std::uint32_t>(keys_.size()));
  return add(parent, it->second, line);
}

PointerLines::Id PointerLines::add_element(Id parent, std::size_t index, int line) {
  return add(parent, kIndexBit | static_cast<std::uint32_t>(index), line);
}

void PointerLines::drop_last() {
  if (!children_.empty() && children_.back().child + 1 == lines_.size()) children_.pop_back();
  lines_.pop_back();
}

void PointerLines::seal(Id root) {
  root_ = root;
  // By child too: a key given twice (`<<` merge keys) finds its first value, as the text reads.
  std::sort(children_.begin(), children_.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.parent, a.token, a.child) < std::tie(b.parent, b.token, b.child);
  });
  children_.shrink_to_fit();
  lines_.shrink_to_fit();
}

int PointerLines::line_of(std::string_view pointer) const {
  if (!root_) return 0;
  Id at = *root_;
  auto find = [&](std::uint32_t token) -> std::optional<Id> {
    const Entry probe{at, token, 0};
    auto it = std::lower_bound(children_.begin(), children_.end(), probe,
                               [](const Entry& a, const Entry& b) {
                                 return std::tie(a.parent, a.token) < std::tie(b.parent, b.token);
                               });
    if (it == children_.end() || it->parent != at || it->token != token) return std::nullopt;
    return it->child;
  };
  for (const std::string& token : pointer_tokens(pointer)) {
    std::optional<Id> child;
    if (auto key = keys_.find(token); key != keys_.end()) child = find(key->second);
    if (!child && !token.empty() && token.size() < 10 &&
        token.find_first_not_of("0123456789") == std::string::npos) {
      child = find(kIndexBit | static_cast<std::uint32_t>(std::stoul(token)));
    }
    if (!child) break;
    at = *child;
  }
  return lines_[at];
}

int JsonSource::line_of(std::string_view pointer) const {
  if (lines_ != nullptr) return lines_->line_of(pointer);
  if (text_.empty()) return 0;
  // 1 + the line feeds before the offset, counted from the last offset asked for (or from the
  // start when that is nearer).
  const std::size_t offset = std::min(offset_of(pointer), text_.size());
  const auto newlines = [&](std::size_t from, std::size_t to) {
    return static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(from),
                                       text_.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
  };
  if (offset >= counted_offset_) {
    counted_line_ += newlines(counted_offset_, offset);
  } else if (offset < counted_offset_ - offset) {
    counted_line_ = 1 + newlines(0, offset);
  } else {
    counted_line_ -= newlines(offset, counted_offset_);
  }
  counted_offset_ = offset;
  return counted_line_;
}

std::size_t JsonSource::offset_of(std::string_view pointer) const {
  // Resume from the last walk: the tokens both pointers start with are not walked again, and a
  // later element of the array where they part is reached from the earlier one.
  const std::vector<std::string> tokens = pointer_tokens(pointer);
  std::size_t kept = 0;
  while (kept < tokens.size() && kept < last_walk_.size() &&
         last_walk_[kept].token == tokens[kept]) {
    ++kept;
  }
  std::optional<Step> parted;
  if (kept < last_walk_.size()) parted = last_walk_[kept];
  last_walk_.resize(kept);
  Scanner scanner(text_);
  scanner.skip_ws();
  if (kept > 0) scanner.seek(last_walk_.back().offset);
  std::size_t found = scanner.pos();
  for (std::size_t i = kept; i < tokens.size(); ++i) {
    bool entered = false;
    if (scanner.peek() == '{') {
      entered = enter_member(scanner, tokens[i]);
    } else if (scanner.peek() == '[') {
      const std::optional<std::size_t> from = parted ? array_index(parted->token) : std::nullopt;
      const std::optional<std::size_t> to = array_index(tokens[i]);
      if (i == kept && from && to && *from <= *to) {
        scanner.seek(parted->offset);
        entered = skip_elements(scanner, *to - *from);
      } else {
        entered = enter_element(scanner, tokens[i]);
      }
    }
    if (!entered) break;
    scanner.skip_ws();
    found = scanner.pos();
    last_walk_.push_back({tokens[i], found});
  }
  return found;
}

void JsonSource::fail(const std::string& pointer, std::string reason) const {
  throw InputError(file_, pointer, std::move(reason), line_of(pointer));
}

void JsonSource::warn(const std::string& pointer, const std::string& reason) const {
  if (warnings_ == nullptr) return;
  warnings_->push_back(located_message(file_, pointer, reason, line_of(pointer)));
}

void JsonSource::not_modelled(const std::string& pointer, const std::string& reason) const {
  // As kind_filter.cpp words it for kinds.
  if (strict_) fail(pointer, reason + "; --strict refuses what would change placement");
  if (unmodelled_ == nullptr) return;
  unmodelled_->push_back(
      located_message(file_, pointer, reason + " (refused under --strict)", line_of(pointer)));
}

namespace {

/// Refuses text with control bytes (binary) or nested deeper than kMaxJsonDepth, naming the
/// first such byte's line.
void check_text(const std::string& file, std::string_view text) {
  // Control bytes are never valid in JSON text, not even inside strings; a file with them is
  // binary, and saying so is clearer than a lexer error.
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", c);
      throw InputError(file, "", "binary data, not JSON text (byte " + std::string(byte) + ")",
                       line_at(text, i));
    }
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) {
        throw InputError(file, "",
                         "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels",
                         line_at(text, i));
      }
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

}  // namespace

nlohmann::json JsonSource::parse() const {
  if (text_.size() > kMaxFileBytes) {
    throw InputError(file_, "", file_too_large_reason(), 0);
  }
  std::size_t first = 0;
  while (first < text_.size() && is_json_whitespace(text_[first])) ++first;
  if (first == text_.size()) throw InputError(file_, "", "file is empty", 0);

  // Binary data and nesting beyond kMaxJsonDepth are refused before the parser's own words, as
  // the first of them in the text: JSON text that parses holds neither (no control byte but
  // whitespace outside strings, none inside; the builder stops beyond the depth), so the text
  // is walked for them only when parsing fails.
  //
  // nlohmann::json::parse's own tree would be freed by a destructor that allocates: out of
  // memory there is std::terminate. So the tree is built here and released (io::release).
  //
  // The fast reader reads what nlohmann would accept as nlohmann would; on anything else it
  // gives up and nlohmann parses the text from the start, with its own errors.
  nlohmann::json value;
  try {
    std::optional<DomBuilder> builder(std::in_place, value);
    if (!JsonFastReader(text_, *builder).read()) {
      release(value);
      value = nlohmann::json();
      builder.emplace(value);
      if (!nlohmann::json::sax_parse(text_, &*builder)) {
        release(value);
        check_text(file_, text_);
        throw InputError(file_, "",
                         "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels", 0);
      }
    }
    // Duplicate keys are refused as the API server's strict decoding refuses them
    // (sigs.k8s.io/json: `duplicate field "spec.replicas"`), and as YAML refuses them; nlohmann
    // keeps the last silently. Where the builder saw a key's hash twice in an object, a second
    // walk over the text, now known to be valid, finds them and names the field (nlohmann's
    // parser callback would, but makes parsing some 60 times slower).
    if (builder->repeated()) {
      Scanner scanner(text_);
      std::string path;
      std::string pointer;
      check_unique_keys(scanner, path, pointer, file_, text_);
    }
    return value;
  } catch (const std::bad_alloc&) {
    release(value);
    check_text(file_, text_);
    throw;
  } catch (const nlohmann::json::parse_error& e) {
    release(value);
    check_text(file_, text_);
    std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    offset = std::min(offset, text_.size());
    std::size_t line_start = text_.rfind('\n', offset == 0 ? 0 : offset - 1);
    line_start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
    std::size_t column = offset - line_start + 1;
    throw InputError(
        file_, "",
        "invalid JSON at column " + std::to_string(column) + ": " + plain_parse_message(e.what()),
        line_at(text_, offset));
  } catch (const nlohmann::json::out_of_range& e) {
    release(value);
    check_text(file_, text_);
    // 406: a number beyond a double's range, such as 1e999; the error carries no position, so
    // find the number it quotes.
    std::string message = e.what();
    if (std::size_t bracket = message.find("] "); bracket != std::string::npos) {
      message.erase(0, bracket + 2);
    }
    std::size_t open = message.find('\'');
    std::size_t close = message.rfind('\'');
    std::size_t offset = open < close ? text_.find(message.substr(open + 1, close - open - 1))
                                      : std::string_view::npos;
    throw InputError(file_, "", "invalid JSON: " + message,
                     offset == std::string_view::npos ? 0 : line_at(text_, offset));
  }
}

}  // namespace gpusched::io
