#include "io/input_text.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/api_fields.hpp"
#include "io/json_release.hpp"
#include "io/yaml_source.hpp"

namespace gpusched::io {
namespace {

/// "UTF-16" or "UTF-32" when the text is in one of them (a byte-order mark, or an ASCII first
/// character next to a zero byte, as Windows tools save files); nullopt otherwise.
std::optional<std::string> wide_encoding(std::string_view text) {
  auto starts = [&](std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; };
  using namespace std::string_view_literals;
  if (starts("\xff\xfe\x00\x00"sv) || starts("\x00\x00\xfe\xff"sv)) return "UTF-32";
  if (starts("\xff\xfe"sv) || starts("\xfe\xff"sv)) return "UTF-16";
  if (text.size() >= 2 && (text[0] == '\0') != (text[1] == '\0')) return "UTF-16";
  return std::nullopt;
}

/// Refuses text that is not UTF-8 in a way a user can act on, where the parsers would call it
/// binary data.
std::string_view utf8_text(const std::string& file, std::string_view text) {
  if (const std::optional<std::string> encoding = wide_encoding(text)) {
    throw InputError(file, "",
                     "the file is " + *encoding + " text; gpusched reads UTF-8: re-save it as " +
                         "UTF-8 (for example `iconv -f " + *encoding + " -t UTF-8`)",
                     1);
  }
  return text;
}

}  // namespace

ParsedText::ParsedText(const std::string& file, std::string_view text,
                       std::vector<std::string>* warnings, std::vector<std::string>* unmodelled,
                       bool strict)
    : yaml_(is_yaml_input(file, utf8_text(file, text))) {
  if (yaml_) {
    YamlDocument document = parse_yaml(file, text);
    documents_ = document.documents;
    value_ = std::move(document.value);
    lines_ = std::move(document.lines);
    source_.emplace(JsonSource::with_lines(file, lines_));
  } else {
    source_.emplace(file, text);
    value_ = source_->parse();
  }
  source_->collect_warnings(warnings);
  source_->collect_unmodelled(unmodelled, strict);
}

ParsedText::~ParsedText() {
  release(value_);
}

std::string read_input_file(const std::filesystem::path& path, const std::string& file) {
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(file, "", "no such file");
  if (std::filesystem::is_directory(status)) {
    throw InputError(file, "", "is a directory, not a scenario file");
  }
  std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxFileBytes) throw InputError(file, "", file_too_large_reason());
  // The size is only a first check: a device (/dev/zero), a pipe or a file that grows has none
  // worth believing, so the limit is enforced on the bytes actually read.
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot read the file");
  std::string text;
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  std::array<char, 1 << 16> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    const auto count = static_cast<std::size_t>(in.gcount());
    if (text.size() + count > kMaxFileBytes) throw InputError(file, "", file_too_large_reason());
    if (text.capacity() < text.size() + count) {
      // Doubling, but never past the limit, so an endless input costs 1.5 times the limit at
      // most; a fresh string's reserve is exact (growing one in place may double again).
      std::string bigger;
      bigger.reserve(std::min<std::size_t>(kMaxFileBytes, 2 * (text.size() + count)));
      bigger.append(text);
      text.swap(bigger);
    }
    text.append(chunk.data(), count);
  }
  if (in.bad()) throw InputError(file, "", "cannot read the file");
  return text;
}

ManifestFile::ManifestFile(const std::filesystem::path& path, std::vector<std::string>* warnings,
                           std::vector<std::string>* unmodelled, bool strict)
    : text_(read_input_file(path, path.string())),
      parsed_(path.string(), text_, warnings, unmodelled, strict) {}

std::vector<JsonNode> ManifestFile::objects() const {
  return manifest_objects(parsed_);
}

std::vector<JsonNode> objects_of(const JsonNode& node) {
  const nlohmann::json& value = node.json();
  if (value.is_object()) {
    auto kind = value.find("kind");
    if (kind != value.end() && kind->is_string() && *kind == "List") {
      node.note_unknown_keys(api_fields::kList);
      return node.required("items").elements();
    }
  }
  return {node};
}

std::vector<JsonNode> manifest_objects(const ParsedText& text) {
  if (text.documents() == 0) return {};
  JsonNode root = text.root();
  if (text.documents() == 1) return objects_of(root);
  std::vector<JsonNode> out;
  for (const JsonNode& document : root.elements()) {
    std::vector<JsonNode> objects = objects_of(document);
    out.insert(out.end(), objects.begin(), objects.end());
  }
  return out;
}

}  // namespace gpusched::io
