#include "gpusched/run_options.hpp"

#include <charconv>
#include <filesystem>

#include "gpusched/config/kubernetes_version.hpp"
#include "gpusched/error.hpp"

namespace gpusched::cli {

std::optional<TimeMs> parse_cli_duration(std::string_view text, std::string* error) {
  // A negative number or duration: refused as a scenario's times are, in those words.
  if (text.starts_with('-')) return parse_time_text(text, error);
  // Go durations require a unit; a plain number means seconds, as in scenario files.
  const bool plain_number =
      !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos;
  if (plain_number) return parse_duration(std::string(text) + "s", error);
  return parse_duration(text, error);
}

namespace {

std::optional<std::uint64_t> parse_seed(std::string_view text, std::string* error) {
  const std::optional<std::uint64_t> seed = parse_unsigned(text);
  if (!seed)
    *error = "must be a non-negative integer below 2^64, got \"" + std::string(text) + "\"";
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

}  // namespace

CLI::Validator duration_validator() {
  return validator(parse_cli_duration);
}

CLI::Validator scenario_file_validator() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
          return path + " is a directory: `gpusched check " + path +
                 "` replays every scenario under it";
        }
        return CLI::ExistingFile(path);
      },
      "FILE");
}

void add_run_options(CLI::App& command, RunOptions& options) {
  command.add_option("--until", options.until, "Stop the clock at this time (\"30s\", \"2m\", 90)")
      ->type_name("DURATION")
      ->check(duration_validator());
  command.add_option("--seed", options.seed, "Override the scheduler's seed")
      ->type_name("UINT")
      ->check(validator(parse_seed));
  command
      .add_option("--kubernetes-version", options.kubernetes_version,
                  "Mirror this kube-scheduler release (1.33 to 1.36)")
      ->type_name("VERSION")
      ->check(validator([](std::string_view text, std::string* error) {
        return KubernetesVersion::parse(text, error).has_value();
      }));
  command.add_flag("--reference", options.reference,
                   "Run the straightforward reference engine (same output, slower)");
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

SimulationOptions simulation_options(const RunOptions& options) {
  SimulationOptions result;
  std::string ignored;
  if (!options.until.empty()) result.until = parse_cli_duration(options.until, &ignored);
  if (!options.seed.empty()) result.seed = parse_seed(options.seed, &ignored);
  if (!options.kubernetes_version.empty()) {
    result.kubernetes_version = KubernetesVersion::parse(options.kubernetes_version, &ignored);
  }
  result.reference = options.reference;
  return result;
}

void add_objective_option(CLI::App& command, std::vector<std::string>& objectives) {
  command
      .add_option("--objective", objectives,
                  "What the replay must show, e.g. pending==0, 'wait.p95<10m', "
                  "'allocation.nvidia.com/gpu>=80%' (repeat: all must hold; docs/metrics.md)")
      ->type_name("EXPR")
      ->required()
      ->check(validator([](std::string_view text, std::string* error) {
        return report::parse_objective(text, error).has_value();
      }));
}

std::vector<report::Objective> parse_objectives(const std::vector<std::string>& texts) {
  std::vector<report::Objective> out;
  for (const std::string& text : texts) {
    std::string error;
    std::optional<report::Objective> objective = report::parse_objective(text, &error);
    if (!objective) throw InputError("--objective", "", error);
    out.push_back(std::move(*objective));
  }
  return out;
}

void add_jobs_option(CLI::App& command, unsigned& jobs) {
  command
      .add_option("-j,--jobs", jobs,
                  "Replays to run at once (0: one per hardware thread; for plan, the sizes "
                  "tried per round, 4 by default)")
      ->capture_default_str();
}

}  // namespace gpusched::cli
