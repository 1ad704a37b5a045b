#pragma once
/// An input file of either syntax: JSON, or YAML converted to the same JSON tree. Also the
/// objects a manifest holds: a single object, a `kind: List`, or a multi-document YAML stream.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json_node.hpp"
#include "io/json_source.hpp"

namespace gpusched::io {

/// A parsed JSON or YAML text (is_yaml_input decides which). It refers to its own members, so
/// it is neither copied nor moved; `text` must outlive it.
class ParsedText {
 public:
  /// `warnings`, when given, collects what the text holds but gpusched ignores
  /// (JsonSource::collect_warnings), `unmodelled` what it holds that can change placement but
  /// is not modelled, refused under `strict` (JsonSource::collect_unmodelled); they must
  /// outlive this.
  ParsedText(const std::string& file, std::string_view text,
             std::vector<std::string>* warnings = nullptr,
             std::vector<std::string>* unmodelled = nullptr, bool strict = false);
  ParsedText(const ParsedText&) = delete;
  ParsedText& operator=(const ParsedText&) = delete;
  /// Frees the tree without allocating (io::release), as memory may have run out.
  ~ParsedText();

  [[nodiscard]] bool yaml() const noexcept { return yaml_; }
  /// Documents in the stream: 1 for JSON; 0 for YAML holding only comments or empty documents.
  [[nodiscard]] std::size_t documents() const noexcept { return documents_; }
  [[nodiscard]] const JsonSource& source() const noexcept { return *source_; }
  /// The value, or for a stream of several documents an array of them.
  [[nodiscard]] JsonNode root() const { return {*source_, value_, ""}; }

 private:
  bool yaml_ = false;
  std::size_t documents_ = 1;
  nlohmann::json value_;
  PointerLines lines_;
  std::optional<JsonSource> source_;
};

/// The whole text of a file, refusing directories, missing files and files over kMaxFileBytes.
/// Every input file is read through it: it reads in chunks and stops once kMaxFileBytes is
/// passed, so a device (/dev/zero), a pipe or a growing file costs at most the limit. Errors
/// name `file`.
[[nodiscard]] std::string read_input_file(const std::filesystem::path& path,
                                          const std::string& file);

/// A manifest file read and parsed (read_input_file, then ParsedText); the nodes of objects()
/// stay valid while it lives, so it is neither copied nor moved.
class ManifestFile {
 public:
  /// Errors name the file as `path.string()`; the rest as for ParsedText.
  explicit ManifestFile(const std::filesystem::path& path,
                        std::vector<std::string>* warnings = nullptr,
                        std::vector<std::string>* unmodelled = nullptr, bool strict = false);
  ManifestFile(const ManifestFile&) = delete;
  ManifestFile& operator=(const ManifestFile&) = delete;

  [[nodiscard]] const ParsedText& parsed() const noexcept { return parsed_; }
  /// manifest_objects of the file.
  [[nodiscard]] std::vector<JsonNode> objects() const;

 private:
  std::string text_;
  ParsedText parsed_;
};

/// The objects `node` stands for: the items of a `kind: List` (whose unknown fields are noted),
/// else the node itself.
[[nodiscard]] std::vector<JsonNode> objects_of(const JsonNode& node);

/// The objects of a manifest file: each document's objects_of, in order.
[[nodiscard]] std::vector<JsonNode> manifest_objects(const ParsedText& text);

}  // namespace gpusched::io
