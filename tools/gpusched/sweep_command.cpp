// `gpusched sweep SWEEP.yaml [--shard I/N]` and `gpusched merge SHARD.csv...`: a grid of
// replays, here or across the pods of an Indexed Job, and its shard tables put together.

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/plan/sweep.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/run_options.hpp"

namespace gpusched::cli {
namespace {

struct SweepOptions {
  std::string file;
  std::string shard;
  unsigned jobs = 0;
  RunOptions run;
};

/// `--shard I/N`, or `--shard N` with I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job sets
/// it in each of its pods).
plan::Shard shard_of(const std::string& text) {
  if (text.empty()) return {};
  const std::size_t slash = text.find('/');
  const std::string_view count_text = slash == std::string::npos
                                          ? std::string_view(text)
                                          : std::string_view(text).substr(slash + 1);
  const std::optional<std::uint64_t> count = parse_unsigned(count_text);
  if (!count || *count == 0 || *count > plan::kMaxSweepRuns) {
    throw InputError(
        "--shard", "",
        "\"" + text + "\" is not I/N or N with N from 1 to " + std::to_string(plan::kMaxSweepRuns));
  }
  std::optional<std::uint64_t> index;
  if (slash != std::string::npos) {
    index = parse_unsigned(std::string_view(text).substr(0, slash));
    if (!index || *index >= *count) {
      throw InputError(
          "--shard", "",
          "\"" + text + "\": the shard index must be from 0 to " + std::to_string(*count - 1));
    }
  } else {
    const char* env = std::getenv("JOB_COMPLETION_INDEX");
    if (env == nullptr) {
      throw InputError("--shard", "",
                       "--shard " + text +
                           " takes the shard index from JOB_COMPLETION_INDEX, "
                           "which is not set; write --shard I/" +
                           text);
    }
    index = parse_unsigned(env);
    if (!index || *index >= *count) {
      throw InputError("JOB_COMPLETION_INDEX", "",
                       "\"" + std::string(env) + "\" is not a shard index from 0 to " +
                           std::to_string(*count - 1));
    }
  }
  return {*index, *count};
}

int sweep(const SweepOptions& options, std::ostream& out) {
  const plan::Shard shard = shard_of(options.shard);
  const plan::Sweep spec = plan::load_sweep(options.file);
  const std::vector<report::RunRow> rows =
      plan::run_sweep(spec, shard, options.jobs, simulation_options(options.run));
  RenderedText text;
  plan::write_sweep_csv(text, spec, rows);
  text.print(out);
  return 0;
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Replay a grid of pool sizes, scheduler configurations, arrival scales and seeds; print "
      "one CSV line per replay (exit 2 on invalid input)");
  command->add_option("SWEEP", options->file, "Sweep file (kind: Sweep; docs/planning.md)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--shard", options->shard,
                   "Run only shard I of N (I/N), or N with I from JOB_COMPLETION_INDEX")
      ->type_name("I/N");
  add_jobs_option(*command, options->jobs);
  add_run_options(*command, options->run);
  return {command, [options](std::ostream& out, std::ostream&) { return sweep(*options, out); }};
}

Command add_merge_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::filesystem::path>>();
  CLI::App* command = app.add_subcommand(
      "merge",
      "Merge the CSV tables of a sweep's shards into one, by run (exit 2 when runs are "
      "missing or twice, or the tables are of different sweeps)");
  command->add_option("TABLES", *files, "The shards' CSV tables")
      ->required()
      ->check(CLI::ExistingFile);
  return {command, [files](std::ostream& out, std::ostream&) {
            out << plan::merge_sweep_tables(*files);
            return 0;
          }};
}

}  // namespace gpusched::cli
