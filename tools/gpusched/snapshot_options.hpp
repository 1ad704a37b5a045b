#pragma once
// What `whatif` and `snapshot` share: the snapshot file, manifests to add, the instant it
// stands for, and how its notes are shown.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "gpusched/io/snapshot.hpp"

namespace gpusched::cli {

struct SnapshotArgs {
  std::vector<std::string> additions;
  std::string taken_at;  ///< RFC 3339; empty: the snapshot's latest timestamp
  bool strict = false;
  std::string device_plugin_config;   ///< the GPU Operator's device-plugin ConfigMap file
  std::string device_plugin_default;  ///< its ClusterPolicy's devicePlugin.config.default
};

/// Registers --add, --taken-at, --device-plugin-config, --device-plugin-default and --strict on
/// `command`; `add_help` describes --add.
void add_snapshot_options(CLI::App& command, SnapshotArgs& args, const std::string& add_help);

/// Loads the snapshot dumped in `files` with the additions, printing its notes (and with
/// --strict the ignored fields) as warnings on `err`.
[[nodiscard]] io::Snapshot load_snapshot(const std::vector<std::string>& files,
                                         const SnapshotArgs& args, std::ostream& err);

}  // namespace gpusched::cli
