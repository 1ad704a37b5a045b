// `gpusched replay FILE`: load -> simulate -> report.

#include <charconv>
#include <memory>
#include <sstream>
#include <string>

#include "gpusched/commands.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/scheduler/kubernetes_version.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::cli {
namespace {

struct ReplayOptions {
  std::string file;
  std::string output = "table";
  std::string until;
  std::string seed;
  std::string kubernetes_version;
};

/// A command-line duration: Go/Kubernetes duration text, or a plain number of seconds as
/// scenario files allow.
std::optional<TimeMs> parse_cli_duration(std::string_view text, std::string* error) {
  // Go durations require a unit; a plain number means seconds, as in scenario files.
  const bool plain_number =
      !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos;
  if (plain_number) return parse_duration(std::string(text) + "s", error);
  return parse_duration(text, error);
}

std::optional<std::uint64_t> parse_seed(std::string_view text, std::string* error) {
  std::uint64_t seed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    *error = "must be a non-negative integer below 2^64, got \"" + std::string(text) + "\"";
    return std::nullopt;
  }
  return seed;
}

/// A CLI11 validator from a parser that reports errors through a string; CLI11 prefixes the
/// message with the option's name. The option's type_name documents the format instead.
template <typename Parse>
CLI::Validator validator(Parse parse) {
  return CLI::Validator(
      [parse](std::string& value) {
        std::string error;
        return parse(value, &error) ? std::string() : error;
      },
      std::string());
}

/// Everything the run needs from the command line; the validators already accepted the text.
SimulationOptions simulation_options(const ReplayOptions& options) {
  SimulationOptions result;
  std::string ignored;
  if (!options.until.empty()) result.until = parse_cli_duration(options.until, &ignored);
  if (!options.seed.empty()) result.seed = parse_seed(options.seed, &ignored);
  if (!options.kubernetes_version.empty()) {
    result.kubernetes_version = KubernetesVersion::parse(options.kubernetes_version, &ignored);
  }
  return result;
}

int replay(const ReplayOptions& options, std::ostream& out) {
  const Scenario scenario = io::load_scenario(options.file);
  const SimulationResult result = simulate(scenario, simulation_options(options));
  // Render completely before printing: a failure while writing must leave `out` untouched.
  std::ostringstream text;
  if (options.output == "json") {
    report::write_json(text, result);
  } else {
    report::write_table(text, result);
  }
  out << text.str();
  return result.passed ? 0 : 1;
}

}  // namespace

Command add_replay_command(CLI::App& app) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand(
      "replay",
      "Replay a scenario and print the cluster at the end (exit 1 if an expectation "
      "fails, 2 on invalid input)");
  command->add_option("FILE", options->file, "Scenario file (JSON or YAML)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  command
      ->add_option("--until", options->until, "Stop the clock at this time (\"30s\", \"2m\", 90)")
      ->type_name("DURATION")
      ->check(validator(parse_cli_duration));
  command->add_option("--seed", options->seed, "Override the scheduler's seed")
      ->type_name("UINT")
      ->check(validator(parse_seed));
  command
      ->add_option("--kubernetes-version", options->kubernetes_version,
                   "Mirror this kube-scheduler release (1.33, 1.34, 1.35)")
      ->type_name("VERSION")
      ->check(validator([](std::string_view text, std::string* error) {
        return KubernetesVersion::parse(text, error).has_value();
      }));
  return {command, [options](std::ostream& out, std::ostream&) { return replay(*options, out); }};
}

}  // namespace gpusched::cli
