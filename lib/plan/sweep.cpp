#include "gpusched/plan/sweep.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scheduler_config.hpp"
#include "io/file_path.hpp"
#include "io/input_text.hpp"
#include "model/decimal.hpp"
#include "plan/parallel.hpp"
#include "report/csv.hpp"

namespace gpusched::plan {
namespace {

/// A list key's elements: present, an array, not empty.
std::vector<io::JsonNode> non_empty_list(const io::JsonNode& node) {
  if (!node.json().is_array())
    node.fail("must be a list, got " + std::string(node.json().type_name()));
  std::vector<io::JsonNode> out = node.elements();
  if (out.empty()) node.fail("must not be empty");
  return out;
}

/// The scale as 2.5 is written, in thousandths ("2.5" -> 2500).
std::int64_t scale_milli(const io::JsonNode& node) {
  if (!node.json().is_number()) node.fail("must be a number, got " + node.json().dump());
  const double value = node.json().get<double>();
  if (!(value >= 0.001 && value <= 1000))
    node.fail("must be from 0.001 to 1000, got " + node.json().dump());
  return std::llround(value * 1000);
}

template <typename T>
void reject_duplicates(const std::vector<io::JsonNode>& nodes, const std::vector<T>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) nodes[i].fail("is already in the list");
    }
  }
}

/// A row's `run` or `runs` field: a decimal number from 0 (1 for runs) to `max`.
std::size_t count_field(const std::string& file, const report::CsvLine& line, std::size_t column,
                        std::size_t max) {
  const std::string& text = line.fields[column];
  const std::int64_t min = column == 1 ? 1 : 0;
  const auto value = parse_integer(text, min, static_cast<std::int64_t>(max));
  if (!value) {
    throw InputError(file, "",
                     std::string(column == 0 ? "run" : "runs") + " \"" + text +
                         "\" is not a number from " + std::to_string(min) + " to " +
                         std::to_string(max),
                     line.number);
  }
  return static_cast<std::size_t>(*value);
}

}  // namespace

Sweep load_sweep(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string text = io::read_input_file(path, file);
  const io::ParsedText parsed(file, text);
  if (parsed.documents() != 1) {
    parsed.source().fail("", "a sweep file holds one document, this one holds " +
                                 std::to_string(parsed.documents()));
  }
  const io::JsonNode root = parsed.root();
  if (!root.json().is_object()) {
    parsed.source().fail("",
                         std::string("a sweep must be an object, got ") + root.json().type_name());
  }
  root.reject_unknown_keys(
      {"apiVersion", "kind", "scenario", "pools", "configs", "arrivalScale", "seeds"});
  if (io::JsonNode version = root.required("apiVersion"); version.string() != kScenarioApiVersion) {
    version.fail("apiVersion \"" + version.string() + "\" is not " +
                 std::string(kScenarioApiVersion));
  }
  if (io::JsonNode kind = root.required("kind"); kind.string() != "Sweep") {
    kind.fail("kind \"" + kind.string() + "\" is not Sweep");
  }
  Sweep sweep;
  sweep.source = file;
  const std::filesystem::path dir = path.parent_path();
  sweep.scenario = io::load_scenario(dir / io::file_path_text(root.required("scenario")));

  if (auto pools = root.get("pools")) {
    if (!pools->json().is_object()) pools->fail("must be a map from pool name to sizes");
    for (const auto& entry : pools->entries()) {
      // Named, not bound: a lambda may not capture a structured binding in C++20 before
      // Clang 16.
      const std::string& name = entry.first;
      const io::JsonNode& sizes = entry.second;
      const auto pool =
          std::find_if(sweep.scenario.node_pools.begin(), sweep.scenario.node_pools.end(),
                       [&](const NodePool& p) { return p.name == name; });
      if (pool == sweep.scenario.node_pools.end())
        sizes.fail("the scenario has no node pool \"" + name + "\"");
      if (pool->autoscaling)
        sizes.fail("node pool \"" + name + "\" autoscales: the cluster autoscaler sizes it");
      std::vector<io::JsonNode> nodes = non_empty_list(sizes);
      std::vector<std::int32_t> values;
      for (const io::JsonNode& size : nodes)
        values.push_back(static_cast<std::int32_t>(size.integer_in(0, kMaxPoolNodes)));
      reject_duplicates(nodes, values);
      sweep.pools.emplace_back(name, std::move(values));
    }
  }
  if (auto configs = root.get("configs")) {
    std::vector<io::JsonNode> nodes = non_empty_list(*configs);
    std::vector<std::string> names;
    for (const io::JsonNode& node : nodes) {
      std::string name = io::file_path_text(node);
      SchedulerConfig config =
          name == "scenario" ? sweep.scenario.scheduler
                             : io::load_scheduler_config(dir / name, sweep.scenario.scheduler);
      names.push_back(name);
      sweep.configs.emplace_back(std::move(name), std::move(config));
    }
    reject_duplicates(nodes, names);
  } else {
    sweep.configs.emplace_back("scenario", sweep.scenario.scheduler);
  }
  if (auto scales = root.get("arrivalScale")) {
    std::vector<io::JsonNode> nodes = non_empty_list(*scales);
    for (const io::JsonNode& node : nodes) sweep.arrival_scale_milli.push_back(scale_milli(node));
    reject_duplicates(nodes, sweep.arrival_scale_milli);
  } else {
    sweep.arrival_scale_milli.push_back(1000);
  }
  if (auto seeds = root.get("seeds")) {
    std::vector<io::JsonNode> nodes = non_empty_list(*seeds);
    for (const io::JsonNode& node : nodes)
      sweep.seeds.push_back(
          static_cast<std::uint64_t>(node.integer_in(0, std::numeric_limits<std::int64_t>::max())));
    reject_duplicates(nodes, sweep.seeds);
  } else {
    sweep.seeds.push_back(sweep.scenario.scheduler.seed);
  }
  // The grid, counted without overflow: each factor is at most kMaxSweepRuns when it matters.
  std::size_t runs = 1;
  auto grow = [&](std::size_t factor) {
    runs = runs > kMaxSweepRuns / factor ? kMaxSweepRuns + 1 : runs * factor;
  };
  for (const auto& [name, sizes] : sweep.pools) grow(sizes.size());
  grow(sweep.configs.size());
  grow(sweep.arrival_scale_milli.size());
  grow(sweep.seeds.size());
  if (runs > kMaxSweepRuns) {
    parsed.source().fail("", "the sweep expands to more than " + std::to_string(kMaxSweepRuns) +
                                 " replays; split it into several sweeps");
  }
  return sweep;
}

std::size_t sweep_size(const Sweep& sweep) {
  std::size_t runs = sweep.configs.size() * sweep.arrival_scale_milli.size() * sweep.seeds.size();
  for (const auto& [name, sizes] : sweep.pools) runs *= sizes.size();
  return runs;
}

std::vector<std::string> sweep_parameter_names(const Sweep& sweep) {
  std::vector<std::string> names;
  for (const auto& [name, sizes] : sweep.pools) names.push_back("pool." + name);
  names.insert(names.end(), {"config", "arrivalScale", "seed"});
  return names;
}

std::pair<std::vector<std::string>, Scenario> sweep_point(const Sweep& sweep, std::size_t index) {
  // Mixed-radix digits of `index`, the last parameter least significant.
  std::vector<std::size_t> radix;
  for (const auto& [name, sizes] : sweep.pools) radix.push_back(sizes.size());
  radix.insert(radix.end(),
               {sweep.configs.size(), sweep.arrival_scale_milli.size(), sweep.seeds.size()});
  std::vector<std::size_t> digit(radix.size());
  for (std::size_t d = radix.size(); d-- > 0;) {
    digit[d] = index % radix[d];
    index /= radix[d];
  }
  std::pair<std::vector<std::string>, Scenario> out{{}, sweep.scenario};
  auto& [params, scenario] = out;
  scenario.expect.clear();
  std::size_t d = 0;
  for (const auto& [name, sizes] : sweep.pools) {
    const std::int32_t size = sizes[digit[d++]];
    for (NodePool& pool : scenario.node_pools) {
      if (pool.name == name) pool.count = size;
    }
    params.push_back(std::to_string(size));
  }
  const auto& [config_name, config] = sweep.configs[digit[d++]];
  scenario.scheduler = config;
  params.push_back(config_name);
  const std::int64_t scale = sweep.arrival_scale_milli[digit[d++]];
  for (Action& action : scenario.timeline) action.at = action.at * 1000 / scale;
  params.push_back(decimal_text(scale, 3));
  scenario.scheduler.seed = sweep.seeds[digit[d]];
  params.push_back(std::to_string(scenario.scheduler.seed));
  return out;
}

std::vector<report::RunRow> run_sweep(const Sweep& sweep, Shard shard, unsigned jobs,
                                      const SimulationOptions& options) {
  const std::size_t total = sweep_size(sweep);
  std::vector<std::size_t> indices;
  for (std::size_t i = shard.index; i < total; i += shard.count) indices.push_back(i);
  SimulationOptions quiet = options;
  quiet.progress = nullptr;
  // A sweep's seeds are its own: a --seed given to the command would make them all alike.
  quiet.seed.reset();
  std::vector<report::RunRow> rows(indices.size());
  for_each_parallel(indices.size(), jobs, [&](std::size_t i) {
    auto [params, scenario] = sweep_point(sweep, indices[i]);
    rows[i].params = {std::to_string(indices[i]), std::to_string(total)};
    rows[i].params.insert(rows[i].params.end(), params.begin(), params.end());
    rows[i].metrics = report::summary_metrics(simulate(scenario, quiet));
  });
  return rows;
}

void write_sweep_csv(std::ostream& out, const Sweep& sweep,
                     const std::vector<report::RunRow>& rows) {
  std::vector<std::string> names{"run", "runs"};
  const std::vector<std::string> params = sweep_parameter_names(sweep);
  names.insert(names.end(), params.begin(), params.end());
  report::write_runs_csv(out, names, rows);
}

std::string merge_sweep_tables(const std::vector<std::filesystem::path>& paths) {
  if (paths.empty()) throw InputError("merge", "", "give at least one shard table");
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::filesystem::path& path : paths)
    files.emplace_back(path.string(), io::read_input_file(path, path.string()));
  std::vector<std::string> params;  // the header up to and including "seed"
  std::size_t total = 0;            // the sweep's runs, from the first row
  std::set<std::string> metric_names;
  // run -> (column name -> value)
  std::map<std::size_t, std::map<std::string, std::string>> rows;
  for (const auto& [file, text] : files) {
    const std::vector<report::CsvLine> lines = report::read_csv(text, file);
    if (lines.empty()) throw InputError(file, "", "is empty, not a sweep table");
    const std::vector<std::string>& header = lines.front().fields;
    const auto seed = std::find(header.begin(), header.end(), "seed");
    if (header.size() < 2 || header[0] != "run" || header[1] != "runs" || seed == header.end())
      throw InputError(file, "",
                       "not a sweep table (its header must start with run,runs and name seed)", 1);
    const std::vector<std::string> own(header.begin(), seed + 1);
    if (params.empty()) {
      params = own;
    } else if (own != params) {
      throw InputError(
          file, "", "its parameters differ from " + files.front().first + "'s: not the same sweep",
          1);
    }
    for (auto it = seed + 1; it != header.end(); ++it) metric_names.insert(*it);
    for (std::size_t l = 1; l < lines.size(); ++l) {
      const report::CsvLine& line = lines[l];
      if (line.fields.size() != header.size())
        throw InputError(file, "",
                         "has " + std::to_string(line.fields.size()) + " fields, its header " +
                             std::to_string(header.size()),
                         line.number);
      if (total == 0) total = count_field(file, line, 1, kMaxSweepRuns);
      if (line.fields[1] != std::to_string(total))
        throw InputError(
            file, "", "is of a sweep of " + line.fields[1] + " runs, not " + std::to_string(total),
            line.number);
      const std::size_t run = count_field(file, line, 0, total - 1);
      auto [row, added] = rows.try_emplace(run);
      if (!added)
        throw InputError(file, "", "run " + line.fields[0] + " is in the tables twice",
                         line.number);
      for (std::size_t c = 0; c < header.size(); ++c) row->second[header[c]] = line.fields[c];
    }
  }
  std::string missing;
  std::size_t missing_count = 0;
  for (std::size_t run = 0; run < total; ++run) {
    if (rows.contains(run)) continue;
    if (++missing_count <= 10) missing += (missing.empty() ? "" : ", ") + std::to_string(run);
  }
  if (total == 0) throw InputError(files.front().first, "", "holds no runs");
  if (missing_count > 0) {
    throw InputError("merge", "",
                     std::to_string(missing_count) + " of " + std::to_string(total) +
                         " runs are missing (" + missing + (missing_count > 10 ? ", ..." : "") +
                         "): merge the tables of every shard");
  }
  std::vector<std::string> header = params;
  header.insert(header.end(), metric_names.begin(), metric_names.end());
  std::string out = report::csv_row(header);
  for (const auto& [run, values] : rows) {
    std::vector<std::string> fields;
    for (const std::string& name : header) {
      auto it = values.find(name);
      fields.push_back(it == values.end() ? std::string() : it->second);
    }
    out += report::csv_row(fields);
  }
  return out;
}

}  // namespace gpusched::plan
