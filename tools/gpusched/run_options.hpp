#pragma once
// The options every command that replays shares: --until, --seed, --kubernetes-version,
// --reference.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/report/objective.hpp"

#include "gpusched/sim/simulator.hpp"

namespace gpusched::cli {

/// The option texts as given; the validators accepted them during parsing.
struct RunOptions {
  std::string until;
  std::string seed;
  std::string kubernetes_version;
  bool reference = false;
};

/// A command-line duration: Go/Kubernetes duration text, or a plain number of seconds as
/// scenario files allow; nullopt with `error` set otherwise.
[[nodiscard]] std::optional<TimeMs> parse_cli_duration(std::string_view text, std::string* error);
/// Checks an option's text with parse_cli_duration.
[[nodiscard]] CLI::Validator duration_validator();

/// A scenario file that exists; a directory is pointed to `check`, which replays every scenario
/// in it.
[[nodiscard]] CLI::Validator scenario_file_validator();

/// Registers --until, --seed, --kubernetes-version and --reference on `command`.
void add_run_options(CLI::App& command, RunOptions& options);

/// Registers --objective (repeatable, required): each `<metric><op><value>`, checked as parsed.
void add_objective_option(CLI::App& command, std::vector<std::string>& objectives);
/// The objectives --objective gave; add_objective_option has checked them.
[[nodiscard]] std::vector<report::Objective> parse_objectives(
    const std::vector<std::string>& texts);
/// Registers -j/--jobs: replays at once, 0 (the default) for one per hardware thread.
void add_jobs_option(CLI::App& command, unsigned& jobs);

/// A whole decimal number below 2^64, nothing else (no sign, no spaces); nullopt otherwise.
[[nodiscard]] std::optional<std::uint64_t> parse_unsigned(std::string_view text);

/// The overrides those options ask for.
[[nodiscard]] SimulationOptions simulation_options(const RunOptions& options);

}  // namespace gpusched::cli
