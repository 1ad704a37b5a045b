#include "io/yaml_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <limits>
#include <optional>
#include <streambuf>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/json_release.hpp"
#include "model/go_text.hpp"

namespace gpusched::io {
namespace {

using nlohmann::json;

/// An istream over text already in memory, without copying it.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // read-only: the get area is never written
    setg(begin, begin, begin + text.size());
  }
};

/// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
/// U+10FFFF), as JSON strings must be: yaml-cpp passes such bytes through unchecked, and
/// nlohmann's dump() throws on them.
bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (n == 0 || i + n > text.size()) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7Fu >> n);
    for (std::size_t k = 1; k < n; ++k) {
      auto b = static_cast<unsigned char>(text[i + k]);
      if ((b >> 6) != 0x2) return false;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

bool is_one_of(std::string_view value, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

/// An integer as Go's strconv.ParseInt(s, 0, 64) / ParseUint read it (sign, 0x / 0o / 0b / 0
/// prefixes), which is what go-yaml tries first for a plain scalar.
std::optional<json> parse_go_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] | 0x20) == 'x') {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] | 0x20) == 'o') {
    base = 8;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] | 0x20) == 'b') {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    int digit = c >= '0' && c <= '9'                     ? c - '0'
                : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                         : 99;
    if (digit >= base) return std::nullopt;
    if (value > (std::numeric_limits<std::uint64_t>::max() - static_cast<unsigned>(digit)) /
                    static_cast<unsigned>(base)) {
      return std::nullopt;
    }
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(digit);
  }
  constexpr auto kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (value > kMaxInt + 1) return std::nullopt;
    return json(value == kMaxInt + 1 ? std::numeric_limits<std::int64_t>::min()
                                     : -static_cast<std::int64_t>(value));
  }
  if (value <= kMaxInt) return json(static_cast<std::int64_t>(value));
  return json(value);
}

/// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool is_yaml_float(std::string_view text) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < text.size() && text[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < text.size() && (text[i] | 0x20) == 'e') {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

/// Builds JSON values from yaml-cpp's parse events, recording the line of every value.
class Builder : public YAML::EventHandler {
 public:
  explicit Builder(const std::string& file) : file_(file), stream_(lines_.add_root(1)) {}
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;
  /// Empties the trees without allocating: a parse that ran out of memory unwinds through here.
  ~Builder() {
    for (Frame& frame : stack_) release(frame.value);
    if (root_) release(*root_);
    for (auto& [anchor, anchored] : anchors_) release(anchored.value);
    for (json& document : documents_) release(document);
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp 0.7 loops forever on a stray ',' (",", "- a\n,"; jbeder/yaml-cpp#1040): each
    // document it reports starts at the same place and consumes nothing.
    if (last_document_start_ == mark.pos) {
      fail(mark, "",
           "invalid YAML at column " + std::to_string(mark.column + 1) + ": unexpected token");
    }
    last_document_start_ = mark.pos;
    root_.reset();
    anchors_.clear();
  }

  void OnDocumentEnd() override {
    if (root_ && !root_->is_null()) {
      documents_.push_back(std::move(*root_));
      document_ids_.push_back(root_id_);
    } else if (root_) {
      lines_.drop_last();  // an empty document, dropped: its null value is the last recorded
    }
    root_.reset();
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (expecting_key()) return take_key(mark, "null", false);
    place(mark);
    attach(json(nullptr), 1, 0, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) fail(mark, "", "alias of an undefined anchor");
    const Anchored& anchored = it->second;
    if (expecting_key()) {
      if (!anchored.value.is_string()) fail(mark, "", "a mapping key must be a string");
      return take_key(mark, anchored.value.get<std::string>(), false);
    }
    alias_nodes_ += anchored.nodes;
    if (alias_nodes_ > kMaxYamlAliasNodes) {
      fail(mark, "",
           "aliases expand to more than " + std::to_string(kMaxYamlAliasNodes) + " values");
    }
    if (static_cast<int>(stack_.size()) + anchored.height > kMaxJsonDepth) fail_depth(mark);
    place(mark);
    attach(anchored.value, anchored.nodes, anchored.height, 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (!is_utf8(value)) fail(mark, "", "invalid UTF-8 in a string");
    if (expecting_key()) return take_key(mark, value, tag == "?");
    place(mark);
    attach(resolve(mark, tag, value), 1, 0, anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    open(mark, anchor, json::array(), false);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    open(mark, anchor, json::object(), true);
  }
  void OnMapEnd() override { close(); }

  /// The documents and their lines, joined into one value when there are several.
  YamlDocument finish() {
    YamlDocument out;
    out.documents = documents_.size();
    if (documents_.empty()) return out;
    if (documents_.size() == 1) {
      out.value = std::move(documents_[0]);
      lines_.seal(document_ids_[0]);
    } else {
      // The documents were recorded as the stream's elements, so `/1/metadata` is found as is.
      out.value = json::array();
      for (json& document : documents_) out.value.push_back(std::move(document));
      lines_.seal(stream_);
    }
    out.lines = std::move(lines_);
    return out;
  }

 private:
  struct Frame {
    json value;
    std::string pointer;
    PointerLines::Id id = 0;
    YAML::anchor_t anchor = 0;
    bool is_map = false;
    std::optional<std::string> key;          ///< the key whose value comes next
    bool merging = false;                    ///< the pending key is the merge key `<<`
    std::unordered_set<std::string> merged;  ///< keys taken from `<<`, which explicit keys override
    std::size_t nodes = 1;
    int height = 1;
  };
  struct Anchored {
    json value;
    std::size_t nodes = 1;
    int height = 0;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& pointer,
                         std::string reason) const {
    throw InputError(file_, pointer, std::move(reason), mark.is_null() ? 0 : mark.line + 1);
  }
  [[noreturn]] void fail_depth(const YAML::Mark& mark) const {
    fail(mark, "", "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }

  [[nodiscard]] bool expecting_key() const {
    return !stack_.empty() && stack_.back().is_map && !stack_.back().key;
  }

  void take_key(const YAML::Mark& mark, std::string key, bool plain) {
    Frame& frame = stack_.back();
    const std::string pointer = frame.pointer + "/" + escape_pointer_token(key);
    frame.merging = plain && key == "<<";
    if (!frame.merging && frame.value.contains(key) && !frame.merged.contains(key)) {
      fail(mark, pointer, "key \"" + key + "\" already set in map");
    }
    frame.merged.erase(key);
    frame.key = std::move(key);
  }

  /// The pointer of the value about to be read, for errors.
  [[nodiscard]] std::string next_pointer() const {
    if (stack_.empty()) return "";
    const Frame& frame = stack_.back();
    return frame.pointer + "/" +
           (frame.is_map ? escape_pointer_token(*frame.key) : std::to_string(frame.value.size()));
  }

  /// Records the line of the value about to be read.
  PointerLines::Id place(const YAML::Mark& mark) {
    const int line = mark.line + 1;
    if (stack_.empty()) return root_id_ = lines_.add_element(stream_, documents_.size(), line);
    const Frame& frame = stack_.back();
    return frame.is_map ? lines_.add_member(frame.id, *frame.key, line)
                        : lines_.add_element(frame.id, frame.value.size(), line);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, json value, bool is_map) {
    if (expecting_key()) fail(mark, "", "a mapping key must be a string, not a collection");
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) fail_depth(mark);
    Frame frame;
    frame.pointer = next_pointer();
    frame.id = place(mark);
    frame.value = std::move(value);
    frame.anchor = anchor;
    frame.is_map = is_map;
    stack_.push_back(std::move(frame));
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    attach(std::move(frame.value), frame.nodes, frame.height, frame.anchor);
  }

  /// `<<: *base` or `<<: [*a, *b]`: keys not set explicitly come from the merged maps, the
  /// first map listed winning.
  void merge(Frame& frame, const json& value) {
    auto merge_one = [&](const json& map) {
      if (!map.is_object()) {
        throw InputError(file_, frame.pointer + "/<<",
                         "map merge requires a map or a sequence of maps as the value",
                         lines_.line(frame.id));
      }
      for (const auto& [key, member] : map.items()) {
        if (frame.value.contains(key)) continue;
        frame.value[key] = member;
        frame.merged.insert(key);
      }
    };
    if (value.is_array()) {
      for (const json& map : value) merge_one(map);
    } else {
      merge_one(value);
    }
  }

  void attach(json value, std::size_t nodes, int height, YAML::anchor_t anchor) {
    if (anchor != 0) anchors_[anchor] = Anchored{value, nodes, height};
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Frame& frame = stack_.back();
    frame.nodes += nodes;
    frame.height = std::max(frame.height, height + 1);
    if (!frame.is_map) {
      frame.value.push_back(std::move(value));
      return;
    }
    if (frame.merging) {
      merge(frame, value);
    } else {
      frame.value[*frame.key] = std::move(value);
    }
    frame.key.reset();
    frame.merging = false;
  }

  /// The value of the scalar about to be attached.
  json resolve(const YAML::Mark& mark, const std::string& tag, const std::string& value) const {
    constexpr std::string_view kCore = "tag:yaml.org,2002:";
    if (tag == "?") return resolve_plain(mark, value);
    if (tag.starts_with(kCore)) {
      std::string_view type = std::string_view(tag).substr(kCore.size());
      if (type == "str") return value;
      if (type == "int" || type == "float" || type == "bool" || type == "null") {
        json resolved = resolve_plain(mark, value);
        bool ok = type == "int"     ? resolved.is_number_integer()
                  : type == "float" ? resolved.is_number()
                  : type == "bool"  ? resolved.is_boolean()
                                    : resolved.is_null();
        if (!ok)
          fail(mark, next_pointer(), "cannot decode !!" + std::string(type) + " \"" + value + "\"");
        return resolved;
      }
    }
    return value;  // quoted ("!") or a tag of its own: a string
  }

  /// A plain scalar as go-yaml (v2, YAML 1.1) resolves it for sigs.k8s.io/yaml.
  json resolve_plain(const YAML::Mark& mark, const std::string& value) const {
    if (is_one_of(value, {"", "~", "null", "Null", "NULL"})) return nullptr;
    if (is_one_of(value,
                  {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
      return true;
    }
    if (is_one_of(value,
                  {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
      return false;
    }
    if (is_one_of(value, {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
                          "-.inf", "-.Inf", "-.INF"})) {
      fail(mark, next_pointer(), "the YAML value " + value + " has no JSON form");
    }
    if (std::string_view("+-.0123456789").find(value[0]) == std::string_view::npos) return value;
    std::string plain = value;
    std::erase(plain, '_');
    if (std::optional<json> integer = parse_go_integer(plain)) return *integer;
    if (is_yaml_float(plain)) {
      errno = 0;
      double number = std::strtod(plain.c_str(), nullptr);
      if (errno != ERANGE) return number;
    }
    return value;
  }

  const std::string& file_;
  PointerLines lines_;
  PointerLines::Id stream_;       ///< the stream, whose elements are the documents
  PointerLines::Id root_id_ = 0;  ///< the current document's
  std::vector<Frame> stack_;
  std::optional<json> root_;
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::size_t alias_nodes_ = 0;
  std::vector<json> documents_;
  std::optional<int> last_document_start_;  ///< Mark::pos of the last document's start
  std::vector<PointerLines::Id> document_ids_;
};

}  // namespace

bool is_yaml_input(std::string_view file, std::string_view text) noexcept {
  auto ends_with = [&](std::string_view suffix) {
    if (file.size() < suffix.size()) return false;
    std::string_view tail = file.substr(file.size() - suffix.size());
    return std::equal(tail.begin(), tail.end(), suffix.begin(),
                      [](char a, char b) { return (a | 0x20) == b; });
  };
  if (ends_with(".yaml") || ends_with(".yml")) return true;
  if (ends_with(".json")) return false;
  std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] != '{';
}

YamlDocument parse_yaml(const std::string& file, std::string_view text) {
  if (text.size() > kMaxYamlBytes) {
    throw InputError(file, "",
                     "YAML file is larger than the limit of " +
                         std::to_string(kMaxYamlBytes >> 20) + " MiB (JSON may have " +
                         std::to_string(kMaxFileBytes >> 20) + " MiB: `yq -o json` converts it)",
                     0);
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError(file, "", "file is empty", 0);
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", c);
      throw InputError(file, "", "binary data, not YAML text (byte " + std::string(byte) + ")",
                       line_at(text, i));
    }
  }
  ViewBuffer buffer(text);
  std::istream in(&buffer);
  Builder builder(file);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw InputError(file, "", "invalid YAML: " + e.msg, 0);
    throw InputError(file, "",
                     "invalid YAML at column " + std::to_string(e.mark.column + 1) + ": " + e.msg,
                     e.mark.line + 1);
  }
  return builder.finish();
}

}  // namespace gpusched::io
