#pragma once
/// YAML input: a YAML stream converted to the same nlohmann::json tree a JSON file would give,
/// with the line of every value, so that every check made on JSON applies unchanged and errors
/// read `file.yaml:LINE: /pointer: reason`. yaml-cpp stays inside lib/io/yaml_source.cpp.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/json_source.hpp"

namespace gpusched::io {

/// Most values that alias expansion (`*name`) may add to a YAML document; beyond it the input
/// is refused, so that nested aliases ("billion laughs") cannot exhaust memory.
inline constexpr std::size_t kMaxYamlAliasNodes = 1'000'000;

/// Largest YAML text read, below kMaxFileBytes (JSON's): yaml-cpp's scanner holds the tokens of
/// a flow collection (`{...}`, `[...]`) until it ends, ~70 bytes of memory a byte of text, where
/// JSON and block-style YAML cost at most ~30 (docs/cli.md, "Limits").
inline constexpr std::size_t kMaxYamlBytes = std::size_t{64} << 20;

/// True when `file` ends in .yaml or .yml, or (any other name but .json) its text does not
/// start with `{`.
[[nodiscard]] bool is_yaml_input(std::string_view file, std::string_view text) noexcept;

/// A parsed YAML stream. `value` is the document itself when the stream holds one document,
/// and an array of the documents when it holds several (so `/1/metadata` points into the second
/// one); empty documents (`---` with nothing after it) are dropped, as kubectl drops them.
struct YamlDocument {
  nlohmann::json value;
  PointerLines lines;
  std::size_t documents = 0;
};

/// Checks size (kMaxYamlBytes), emptiness and binary content as JsonSource::parse does, then
/// parses the YAML stream. Scalars resolve as sigs.k8s.io/yaml (YAML 1.1 via go-yaml) resolves
/// them: plain true/false/yes/no/on/off -> bool, integers and floats -> numbers, null/~/empty ->
/// null, anything else and every quoted scalar -> string. Mapping keys are strings; duplicate keys,
/// nesting deeper than kMaxJsonDepth and alias expansion over kMaxYamlAliasNodes are errors.
/// Malformed YAML becomes an InputError with the line, the column and yaml-cpp's reason.
[[nodiscard]] YamlDocument parse_yaml(const std::string& file, std::string_view text);

}  // namespace gpusched::io
