#include "io/input_text.hpp"

#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/api_fields.hpp"
#include "io/yaml_source.hpp"

namespace gpusched::io {

ParsedText::ParsedText(const std::string& file, std::string_view text,
                       std::vector<std::string>* warnings)
    : yaml_(is_yaml_input(file, text)) {
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
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in) throw InputError(file, "", "cannot read the file");
  return std::move(buffer).str();
}

ManifestFile::ManifestFile(const std::filesystem::path& path, std::vector<std::string>* warnings)
    : text_(read_input_file(path, path.string())), parsed_(path.string(), text_, warnings) {}

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
