#pragma once
/// The subcommands of the CLI, each in its own file; cli.cpp parses and dispatches.

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace gpusched::cli {

/// A registered subcommand: `app` tells whether it was selected, `run` executes it after a
/// successful parse and returns the exit code. InputError escapes `run` and maps to exit 2.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(std::ostream& out, std::ostream& err)> run;
};

/// `gpusched replay FILE`: the report of one scenario.
[[nodiscard]] Command add_replay_command(CLI::App& app);
/// `gpusched check PATH...`: one line per scenario, for CI.
[[nodiscard]] Command add_check_command(CLI::App& app);
/// `gpusched validate FILE...`: load only.
[[nodiscard]] Command add_validate_command(CLI::App& app);
/// `gpusched whatif --cluster SNAPSHOT --add FILE...`: manifests tried against a live cluster.
[[nodiscard]] Command add_whatif_command(CLI::App& app);
/// `gpusched snapshot FILE [--to-scenario]`: a live-cluster snapshot, summarized or as a scenario.
[[nodiscard]] Command add_snapshot_command(CLI::App& app);
/// `gpusched import openb NODES PODS [-o FILE]`: a cluster trace as a scenario file.
[[nodiscard]] Command add_import_command(CLI::App& app);

/// `gpusched experiment fragmentation NODES PODS`: the FGD paper's experiment on a trace.
[[nodiscard]] Command add_experiment_command(CLI::App& app);

/// `gpusched plan SCENARIO --pool NAME --max N --objective EXPR`: the smallest pool meeting them.
[[nodiscard]] Command add_plan_command(CLI::App& app);

/// `gpusched compare SCENARIO --config A --config B`: one workload under several configurations.
[[nodiscard]] Command add_compare_command(CLI::App& app);

/// `gpusched sweep SWEEP [--shard I/N]`: a grid of replays, one CSV line each.
[[nodiscard]] Command add_sweep_command(CLI::App& app);
/// `gpusched merge SHARD.csv...`: the shards' tables as one.
[[nodiscard]] Command add_merge_command(CLI::App& app);

/// `gpusched explain FILE --pod NS/NAME [--at T]`: why a pod is Pending, and what would fix it.
[[nodiscard]] Command add_explain_command(CLI::App& app);

/// Starts every message about invalid input or usage on the error stream.
inline constexpr std::string_view kErrorPrefix = "gpusched: error: ";

}  // namespace gpusched::cli
