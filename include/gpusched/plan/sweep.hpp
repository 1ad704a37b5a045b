#pragma once
/// Sweeps: a grid over pool sizes, scheduler configurations, arrival rates and seeds, expanded
/// into independent replays that run here in parallel or, sharded, across machines (a Kubernetes
/// Indexed Job; docs/planning.md), and whose shard tables `merge` puts back together.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::plan {

/// The most replays one sweep may expand to.
inline constexpr std::size_t kMaxSweepRuns = 100'000;

/// A sweep file (`apiVersion: gpusched.io/v1`, `kind: Sweep`) read and its files loaded.
struct Sweep {
  std::string source;  ///< the sweep file
  Scenario scenario;   ///< `scenario`, relative to the sweep file
  /// `pools`: a node pool's name and the sizes to try, in the file's order.
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> pools;
  /// `configs`: a name (the file as written; "scenario" for the scenario's own `scheduler`) and
  /// the configuration. Without the key: the scenario's own only.
  std::vector<std::pair<std::string, SchedulerConfig>> configs;
  /// `arrivalScale`: timeline times are divided by each (2 = arrivals twice as fast), kept in
  /// thousandths. Without the key: 1.
  std::vector<std::int64_t> arrival_scale_milli;
  /// `seeds`. Without the key: the scenario's seed.
  std::vector<std::uint64_t> seeds;
};

/// Reads a sweep file. Throws InputError naming the file and the place: unknown keys, empty or
/// duplicate lists, a pool the scenario lacks, sizes beyond kMaxPoolNodes, a scale not above 0,
/// a grid of more than kMaxSweepRuns replays, and whatever the scenario or a configuration file
/// holds wrong.
[[nodiscard]] Sweep load_sweep(const std::filesystem::path& path);

/// Replays in the grid: the product of the lists' lengths.
[[nodiscard]] std::size_t sweep_size(const Sweep& sweep);
/// The parameter columns: "pool.<name>" per pool, "config", "arrivalScale", "seed".
[[nodiscard]] std::vector<std::string> sweep_parameter_names(const Sweep& sweep);
/// Replay `index` (0 <= index < sweep_size) of the grid, the last parameter varying fastest: its
/// parameter values and the scenario to replay (expectations left out).
[[nodiscard]] std::pair<std::vector<std::string>, Scenario> sweep_point(const Sweep& sweep,
                                                                        std::size_t index);

/// Shard `index` of `count` takes the replays whose grid index is `index` modulo `count`.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// Replays the shard's part of the grid, up to `jobs` at once (0: one per hardware thread).
/// Each row's params are the run's grid index, the grid size, then sweep_parameter_names' values.
[[nodiscard]] std::vector<report::RunRow> run_sweep(const Sweep& sweep, Shard shard, unsigned jobs,
                                                    const SimulationOptions& options);

/// The sweep table as CSV: `run,runs,<parameters>,<metrics by name>`.
void write_sweep_csv(std::ostream& out, const Sweep& sweep,
                     const std::vector<report::RunRow>& rows);

/// Merges shard tables written by write_sweep_csv into the table of the whole sweep, rows by
/// run. Throws InputError naming the file and line when a file is not such a table, the files
/// are of different sweeps, a run appears twice, or runs are missing.
[[nodiscard]] std::string merge_sweep_tables(const std::vector<std::filesystem::path>& files);

}  // namespace gpusched::plan
