#pragma once
// The options every command that replays shares: --until, --seed, --kubernetes-version,
// --reference.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "gpusched/sim/simulator.hpp"

namespace gpusched::cli {

/// The option texts as given; the validators accepted them during parsing.
struct RunOptions {
  std::string until;
  std::string seed;
  std::string kubernetes_version;
  bool reference = false;
};

/// Registers --until, --seed, --kubernetes-version and --reference on `command`.
void add_run_options(CLI::App& command, RunOptions& options);

/// The overrides those options ask for.
[[nodiscard]] SimulationOptions simulation_options(const RunOptions& options);

}  // namespace gpusched::cli
