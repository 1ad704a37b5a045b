#include "gpusched/snapshot_options.hpp"

#include "gpusched/error.hpp"
#include "gpusched/io/device_plugin_configs.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {

void add_snapshot_options(CLI::App& command, SnapshotArgs& args, const std::string& add_help) {
  command.add_option("--add", args.additions, add_help)
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  command
      .add_option("--taken-at", args.taken_at,
                  "The instant the snapshot stands for (default: its latest timestamp)")
      ->type_name("RFC3339")
      ->check(CLI::Validator(
          [](std::string& value) {
            return parse_rfc3339(value)
                       ? std::string()
                       : "expected an RFC 3339 time like 2026-11-30T04:05:06Z, got \"" + value +
                             "\"";
          },
          std::string()));
  CLI::Option* config_map =
      command
          .add_option("--device-plugin-config", args.device_plugin_config,
                      "The GPU Operator's device-plugin ConfigMap (kubectl get configmap -n "
                      "gpu-operator NAME -o yaml): its keys are the configs nodes select with "
                      "the nvidia.com/device-plugin.config label")
          ->type_name("FILE")
          ->check(CLI::ExistingFile);
  command
      .add_option("--device-plugin-default", args.device_plugin_default,
                  "The config of nodes without that label (the ClusterPolicy's "
                  "devicePlugin.config.default; default: the plugin's built-in settings)")
      ->type_name("NAME")
      ->needs(config_map);
  add_strict_flag(command, args.strict);
}

io::Snapshot load_snapshot(const std::vector<std::string>& files, const SnapshotArgs& args,
                           std::ostream& err) {
  io::SnapshotOptions options;
  if (!args.taken_at.empty()) options.taken_at = parse_rfc3339(args.taken_at);
  options.additions.assign(args.additions.begin(), args.additions.end());
  options.strict = args.strict;
  io::Snapshot snapshot =
      io::load_snapshot(std::vector<std::filesystem::path>(files.begin(), files.end()), options);
  if (!args.device_plugin_config.empty()) {
    devices::DevicePluginSettings& plugin = snapshot.scenario.device_plugin;
    plugin.configs =
        io::load_device_plugin_configs(args.device_plugin_config, &snapshot.scenario.warnings);
    plugin.default_config = args.device_plugin_default;
    if (!plugin.default_config.empty() && !plugin.configs.contains(plugin.default_config)) {
      throw InputError(
          "--device-plugin-default", "",
          "\"" + plugin.default_config + "\" is not a key of " + args.device_plugin_config);
    }
  }
  // The notes are about the files together.
  std::string names;
  for (const std::string& file : files) names += (names.empty() ? "" : ", ") + file;
  for (const std::string& note : snapshot.notes) {
    err << "gpusched: warning: " << names << ": " << note << '\n';
  }
  print_notes(snapshot.scenario, err);
  if (args.strict) print_warnings(snapshot.scenario, err);
  return snapshot;
}

}  // namespace gpusched::cli
