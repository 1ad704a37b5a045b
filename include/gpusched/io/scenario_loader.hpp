#pragma once
/// Reading scenarios: JSON or YAML in, validated model out, or an InputError naming file and
/// place.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::io {

/// Largest scenario file accepted, so that absurd input cannot exhaust memory.
inline constexpr std::uintmax_t kMaxFileBytes = 256u << 20;

/// What a loader accepts beyond the format itself.
struct LoadOptions {
  /// Out-of-tree plugins a profile may enable besides the in-tree ones: the names registered
  /// in SimulationOptions::plugins (Registry::names()). Any other name is refused as a typo.
  std::vector<std::string> plugins;
  /// `--strict`: an object (or a field of one) that would change where or whether pods run but
  /// that gpusched does not model, or a feature gate set to a value it does not model, is an
  /// InputError at its place, not a Scenario::notes line.
  bool strict = false;
};

/// Reads and validates a scenario file: JSON, or YAML when it ends in .yaml / .yml (or, under
/// another name than .json, does not start with `{`); the files its `include` names are read
/// relative to its directory. Throws InputError (file, JSON pointer, line, reason).
[[nodiscard]] Scenario load_scenario(const std::filesystem::path& path,
                                     const LoadOptions& options = {});

/// The same for text already in memory; `file` names it in errors, decides JSON or YAML, and
/// is where `include` paths start from.
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& file,
                                      const LoadOptions& options = {});

/// True for a Kubernetes manifest rather than a scenario: a file whose document has `kind` and
/// no `name` at the top, or a YAML stream of several documents. `gpusched check` skips such
/// files when it walks a directory, so manifests can sit next to the scenarios including them.
[[nodiscard]] bool is_manifest_file(const std::filesystem::path& path);

/// What a file under a directory of scenarios is, read once.
enum class InputKind {
  Scenario,  ///< anything not below, unreadable or malformed files included (they are reported)
  Manifest,  ///< as is_manifest_file
  Other,     ///< one mapping with none of a scenario's top-level keys (a mig-parted config)
};
/// `gpusched check` skips a manifest under a directory, and another file with a notice.
[[nodiscard]] InputKind input_kind(const std::filesystem::path& path);

}  // namespace gpusched::io
