// `gpusched experiment fragmentation NODES.csv PODS.csv`: the FGD artifact's experiment
// (include/gpusched/plan/fragmentation.hpp), one run per policy and seed, as the table of mean
// GPU allocation per arrived-workload percent its analysis scripts print.

#include <charconv>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/openb.hpp"
#include "gpusched/plan/fragmentation.hpp"
#include "gpusched/run_options.hpp"

namespace gpusched::cli {
namespace {

struct ExperimentOptions {
  std::string nodes;
  std::string pods;
  std::vector<std::string> policies;
  std::int64_t seed = 42;
  std::string seeds;  ///< "42..51" or "42,45"; empty: --seed
  std::string tune = "1.3";
  std::string output = "table";
  std::string metric = "allocated";
  unsigned jobs = 0;
};

/// The arrived percents the table shows; csv shows them all.
constexpr std::int64_t kTableColumns[] = {50, 80, 90, 95, 100, 110, 120, 130};

[[noreturn]] void usage(const std::string& option, const std::string& reason) {
  throw InputError(option, "", reason);
}

std::int64_t parse_seed(std::string_view text, const std::string& option) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    usage(option, "\"" + std::string(text) + "\" is not an integer");
  return value;
}

/// --seeds: `A..B` (at most 10,000 seeds) or a comma-separated list.
std::vector<std::int64_t> parse_seeds(const ExperimentOptions& options) {
  if (options.seeds.empty()) return {options.seed};
  const std::string_view text = options.seeds;
  std::vector<std::int64_t> out;
  if (const std::size_t dots = text.find(".."); dots != std::string_view::npos) {
    const std::int64_t from = parse_seed(text.substr(0, dots), "--seeds");
    const std::int64_t to = parse_seed(text.substr(dots + 2), "--seeds");
    if (to < from) usage("--seeds", "\"" + options.seeds + "\" ends before it starts");
    if (to - from >= 10000) usage("--seeds", "\"" + options.seeds + "\" is more than 10000 seeds");
    for (std::int64_t s = from; s <= to; ++s) out.push_back(s);
    return out;
  }
  std::string_view rest = text;
  for (;;) {
    const std::size_t comma = rest.find(',');
    out.push_back(parse_seed(rest.substr(0, comma), "--seeds"));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

/// --tune: a decimal such as 1.3, in thousandths, from 0.001 to 10.
std::int64_t parse_tune(const std::string& text) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = std::string_view(text).substr(0, dot);
  const std::string_view fraction =
      dot == std::string::npos ? std::string_view() : std::string_view(text).substr(dot + 1);
  const std::optional<std::uint64_t> units = parse_unsigned(whole);
  const std::optional<std::uint64_t> decimals =
      fraction.empty() ? std::optional<std::uint64_t>(0) : parse_unsigned(fraction);
  if (!units || whole.size() > 2 || !decimals || fraction.size() > 3 ||
      (dot != std::string::npos && fraction.empty()))
    usage("--tune", "\"" + text + "\" is not a decimal with at most 3 decimals");
  std::uint64_t scale = 1;
  for (std::size_t i = fraction.size(); i < 3; ++i) scale *= 10;
  const auto permille = static_cast<std::int64_t>(*units * 1000 + *decimals * scale);
  if (permille < 1 || permille > 10000) usage("--tune", "\"" + text + "\" is not in 0.001..10");
  return permille;
}

std::string cell(const std::optional<double>& value) {
  if (!value) return "";
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << *value;
  return out.str();
}

using Series = std::vector<std::optional<double>>;

/// The series --metric names.
const Series& metric_of(const plan::FragmentationRun& run, const std::string& metric) {
  if (metric == "frag-amount") return run.frag_amount;
  if (metric == "frag-ratio") return run.frag_ratio;
  return run.allocated;
}

/// Per column, the mean over `runs` of the columns they all have, rounded as Python rounds.
Series mean_of(const std::vector<const Series*>& runs) {
  Series out(runs.front()->size());
  for (std::size_t x = 0; x < out.size(); ++x) {
    double sum = 0;
    bool all = true;
    for (const Series* run : runs) {
      all = all && (*run)[x].has_value();
      if ((*run)[x]) sum += *(*run)[x];
    }
    if (all) out[x] = plan::python_round2(sum / static_cast<double>(runs.size()));
  }
  return out;
}

int run_experiment(const ExperimentOptions& options, std::ostream& out) {
  std::vector<plan::SharePolicy> policies;
  const std::vector<std::string_view> known = plan::share_policy_names();
  for (const std::string& name : options.policies) {
    if (name == "all") {
      for (const std::string_view k : known) policies.push_back(*plan::share_policy(k));
      continue;
    }
    const std::optional<plan::SharePolicy> policy = plan::share_policy(name);
    if (!policy) {
      std::string names;
      for (const std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
      usage("--policy", "\"" + name + "\" is not a policy: " + names + " or all");
    }
    policies.push_back(*policy);
  }
  if (policies.empty()) {
    for (const std::string_view k : known) policies.push_back(*plan::share_policy(k));
  }
  const std::vector<std::int64_t> seeds = parse_seeds(options);
  const std::int64_t tune = parse_tune(options.tune);
  const GpuShareTrace trace = io::read_gpu_share_trace(options.nodes, options.pods);
  std::vector<plan::FragmentationOptions> runs;
  for (const plan::SharePolicy policy : policies) {
    for (const std::int64_t seed : seeds) runs.push_back({policy, seed, tune});
  }
  const std::vector<plan::FragmentationRun> results =
      plan::run_fragmentations(trace, runs, options.jobs);

  // One line per run, then per policy the mean over its seeds when there are several.
  struct Row {
    std::string policy;
    std::string seed;
    std::string clones;
    std::string removed;
    std::string failed;
    Series values;
  };
  std::vector<Row> rows;
  for (std::size_t p = 0; p < policies.size(); ++p) {
    std::vector<const Series*> of_policy;
    for (std::size_t s = 0; s < seeds.size(); ++s) {
      const plan::FragmentationRun& run = results[p * seeds.size() + s];
      of_policy.push_back(&metric_of(run, options.metric));
      rows.push_back({std::string(plan::to_string(policies[p])), std::to_string(seeds[s]),
                      std::to_string(run.clones), std::to_string(run.removed),
                      std::to_string(run.failed), metric_of(run, options.metric)});
    }
    if (seeds.size() > 1)
      rows.push_back(
          {std::string(plan::to_string(policies[p])), "mean", "", "", "", mean_of(of_policy)});
  }
  const std::int64_t columns = tune / 10;
  if (options.output == "csv") {
    out << "policy,seed,clones,removed,failed";
    for (std::int64_t x = 0; x <= columns; ++x) out << ',' << x;
    out << '\n';
    for (const Row& row : rows) {
      out << row.policy << ',' << row.seed << ',' << row.clones << ',' << row.removed << ','
          << row.failed;
      for (const std::optional<double>& value : row.values) out << ',' << cell(value);
      out << '\n';
    }
    return 0;
  }
  const std::string gpus = std::to_string(results.front().total_milli / 1000) + " GPUs";
  if (options.metric == "frag-amount") {
    out << "GPU fragmentation (% of " << gpus << ")";
  } else if (options.metric == "frag-ratio") {
    out << "GPU fragmentation (% of the idle GPUs)";
  } else {
    out << "GPU allocated (% of " << gpus << ")";
  }
  out << " by arrived workload (% of GPU capacity)\n";
  out << std::left << std::setw(15) << "POLICY" << std::setw(7) << "SEED";
  for (const std::int64_t x : kTableColumns) {
    if (x <= columns) out << std::right << std::setw(8) << x;
  }
  out << '\n';
  for (const Row& row : rows) {
    out << std::left << std::setw(15) << row.policy << std::setw(7) << row.seed;
    for (const std::int64_t x : kTableColumns) {
      if (x <= columns)
        out << std::right << std::setw(8) << cell(row.values[static_cast<std::size_t>(x)]);
    }
    out << '\n';
  }
  return 0;
}

}  // namespace

Command add_experiment_command(CLI::App& app) {
  auto options = std::make_shared<ExperimentOptions>();
  CLI::App* command = app.add_subcommand(
      "experiment", "Run a published experiment on a trace (exit 2 on invalid input)");
  command->require_subcommand(0, 1);
  CLI::App* fragmentation = command->add_subcommand(
      "fragmentation",
      "The FGD paper's GPU-sharing experiment (USENIX ATC'23) on the openb CSVs: mean GPU "
      "allocation per arrived-workload percent, per policy and seed");
  fragmentation
      ->add_option("NODES", options->nodes, "Node list CSV (sn,cpu_milli,memory_mib,gpu,model)")
      ->required()
      ->check(CLI::ExistingFile);
  fragmentation
      ->add_option("PODS", options->pods,
                   "Pod list CSV (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...)")
      ->required()
      ->check(CLI::ExistingFile);
  fragmentation->add_option(
      "--policy", options->policies,
      "Scoring policy, repeatable: DotProd, GpuClustering, GpuPacking, BestFit, FGD, Random, "
      "FGDCpuPacking (gpusched's own), or all "
      "(default: all)");
  CLI::Option* seed =
      fragmentation->add_option("--seed", options->seed, "The run's seed (default 42)");
  fragmentation->add_option("--seeds", options->seeds, "Several seeds: 42..51 or 42,45,47")
      ->excludes(seed);
  fragmentation->add_option("--tune", options->tune,
                            "Clone pods up to this share of the GPU capacity (default 1.3)");
  fragmentation->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "csv"}));
  fragmentation
      ->add_option("--metric", options->metric,
                   "What to tabulate: allocated (GPU allocation, the default), frag-amount or "
                   "frag-ratio (the cluster's fragmentation, the paper's Fig. 7)")
      ->check(CLI::IsMember({"allocated", "frag-amount", "frag-ratio"}));
  add_jobs_option(*fragmentation, options->jobs);
  return {command, [options, fragmentation](std::ostream& out, std::ostream& err) {
            if (fragmentation->parsed()) return run_experiment(*options, out);
            err << kErrorPrefix << "experiment needs an experiment: fragmentation\n";
            return 2;
          }};
}

}  // namespace gpusched::cli
