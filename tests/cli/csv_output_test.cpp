// Every CSV the CLI prints, checked as RFC 4180 (support/csv_check.hpp): replay's pods, GPU steps,
// metrics and seam tables for every bundled scenario, and the runs tables of plan, compare, sweep
// and merge, with commas and quotes in the names they carry.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "support/csv_check.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::test {
namespace {

namespace fs = std::filesystem;

const std::string kRoot = std::string(GPUSCHED_SOURCE_DIR);
const std::string kSpread = kRoot + "/scenarios/gpu-fragmentation-spread.json";

// The columns docs/cli.md and docs/metrics.md name, in order.
const std::vector<std::string> kPodColumns{
    "namespace",    "name",        "phase",        "node",       "priority",     "cpu_milli",
    "memory_bytes", "gpus",        "requests",     "created_ms", "scheduled_ms", "wait_ms",
    "finished_ms",  "preemptions", "preempted_by", "reason",     "message"};
// The pod table's columns that are not numbers.
const std::vector<std::string> kPodTextColumns{"namespace", "name",         "phase",  "node",
                                               "requests",  "preempted_by", "reason", "message"};
const std::vector<std::string> kGpuStepColumns{"node",  "pool",        "gpu_model", "from_ms",
                                               "to_ms", "allocatable", "allocated", "schedulable"};
const std::vector<std::string> kMetricColumns{"metric", "value", "unit"};
const std::vector<std::string> kSeamColumns{"from_ms",     "to_ms",       "paid",
                                            "provisioned", "schedulable", "allocated"};
const std::vector<std::string> kQueueColumns{"from_ms",  "to_ms",   "cluster_queue", "flavor",
                                             "resource", "nominal", "usage",         "ratio"};

/// The distinct values of a column.
std::set<std::string> values(const CheckedCsv& csv, const std::string& column) {
  const auto at = static_cast<std::size_t>(std::find(csv.header.begin(), csv.header.end(), column) -
                                           csv.header.begin());
  std::set<std::string> out;
  for (const std::vector<std::string>& record : csv.records) out.insert(record.at(at));
  return out;
}

bool all_in(const std::set<std::string>& got, const std::set<std::string>& allowed) {
  return std::includes(allowed.begin(), allowed.end(), got.begin(), got.end());
}

/// The runs tables of plan, compare and sweep (report::write_runs_csv): `params`, then every
/// metric by name, each once, so that shards' tables line up.
void check_runs_header(const CheckedCsv& csv, const std::vector<std::string>& params) {
  REQUIRE(csv.header.size() > params.size());
  CHECK(std::vector<std::string>(csv.header.begin(),
                                 csv.header.begin() + static_cast<long>(params.size())) == params);
  CHECK(std::adjacent_find(csv.header.begin() + static_cast<long>(params.size()), csv.header.end(),
                           std::greater_equal<>()) == csv.header.end());
}

TEST_CASE("the CSV check rejects what RFC 4180 or gpusched's writer does not write", "[csv]") {
  const CheckedCsv good = check_csv("a,b\n1,\"x,\"\"y\"\"\"\n-2.5,\n", {"b"});
  CHECK(good.faults.empty());
  CHECK(good.header == std::vector<std::string>{"a", "b"});
  CHECK(good.records == std::vector<std::vector<std::string>>{{"1", "x,\"y\""}, {"-2.5", ""}});

  struct Row {
    std::string text;
    std::vector<std::string> text_columns;
    std::string fault;
  };
  const std::vector<Row> rows{
      {"a,b\r\n1,2\r\n", {}, "byte 3: \"\r\n1,2\r\n\" where csv_row writes \"\n1,2\n\""},
      {"a,b\n\n1,2\n", {}, "byte 4: \"\n1,2\n\" where csv_row writes \"1,2\n\""},
      {"a,b\n1,x\"y\n", {"b"}, "byte 6: \"x\"y\n\" where csv_row writes \"\"x\"\"y\"\n\""},
      {"a,b\n\"1\",2\n", {}, "byte 4: \"\"1\",2\n\" where csv_row writes \"1,2\n\""},
      {"a,b\n1,2", {}, "byte 7: \"\" where csv_row writes \"\n\""},
      {"a,b\n1,\"2\n", {}, "csv:2: a quoted field is never closed"},
      {"a,b\n1,2,3\n", {}, "line 2: 3 fields, the header has 2"},
      {"a,b\n1,x\n", {}, "line 2: b: \"x\" is not a number"},
      {"a,b\n1,1e3\n", {}, "line 2: b: \"1e3\" is not a number"},
      {"a,b\n1,2\n", {"c"}, "no column c"},
      // A formula left as it is: csv_row writes it after a quote.
      {"a,b\n1,=2+3\n", {"b"}, "byte 6: \"=2+3\n\" where csv_row writes \"'=2+3\n\""},
      {"", {}, "no header"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(check_csv(row.text, row.text_columns).faults == std::vector<std::string>{row.fault});
  }
}

TEST_CASE(
    "replay's CSV outputs are RFC 4180 tables with the documented columns for every bundled "
    "scenario",
    "[cli][csv]") {
  std::vector<fs::path> scenarios;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kRoot + "/scenarios")) {
    // What `gpusched check scenarios/` replays.
    const fs::path ext = entry.path().extension();
    if ((ext == ".json" || ext == ".yaml" || ext == ".yml") && !io::is_manifest_file(entry.path()))
      scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  REQUIRE(scenarios.size() > 60);
  std::size_t pods = 0;
  std::size_t quoted_messages = 0;
  for (const fs::path& scenario : scenarios) {
    CAPTURE(scenario.generic_string());
    const auto replay = [&](const std::string& output, const std::vector<std::string>& text) {
      const Outcome outcome = run_cli({"replay", scenario.generic_string(), "-o", output});
      CHECK(outcome.code == 0);
      CheckedCsv csv = check_csv(outcome.out, text);
      CHECK(csv.faults == std::vector<std::string>{});
      return csv;
    };
    const CheckedCsv pod_table = replay("pods-csv", kPodTextColumns);
    CHECK(pod_table.header == kPodColumns);
    CHECK(all_in(values(pod_table, "phase"),
                 {"Pending", "Running", "Succeeded", "Failed", "Unknown"}));
    pods += pod_table.records.size();
    for (const std::vector<std::string>& record : pod_table.records)  // message: the last column
      quoted_messages += record.back().find(',') != std::string::npos ? 1 : 0;

    const CheckedCsv steps = replay("gpu-steps-csv", {"node", "pool", "gpu_model", "schedulable"});
    CHECK(steps.header == kGpuStepColumns);
    CHECK(all_in(values(steps, "schedulable"), {"false", "true"}));

    const CheckedCsv metrics = replay("metrics-csv", {"metric", "unit"});
    CHECK(metrics.header == kMetricColumns);
    CHECK(all_in(values(metrics, "unit"), {"count", "hours", "money", "ms", "ratio"}));

    CHECK(replay("seam-csv", {}).header == kSeamColumns);
    CHECK(replay("queues-csv", {"cluster_queue", "flavor", "resource", "nominal"}).header ==
          kQueueColumns);
  }
  // The check saw pods, and messages that only quoting keeps in one field (14 when written).
  CHECK(pods > 100);
  CHECK(quoted_messages > 0);
}

TEST_CASE("a message with commas reads back as one field", "[cli][csv]") {
  const Outcome outcome = run_cli(
      {"replay", kRoot + "/scenarios/insufficient-resources-histogram.json", "-o", "pods-csv"});
  const CheckedCsv csv = check_csv(outcome.out, kPodTextColumns);
  REQUIRE(csv.faults.empty());
  CHECK_THAT(outcome.out,
             Catch::Contains(",\"0/13 nodes are available: 1 Insufficient ephemeral-storage, 11 "));
  REQUIRE(csv.records.size() == 1);
  CHECK(csv.records[0][1] == "big");
  CHECK(csv.records[0][16] ==
        "0/13 nodes are available: 1 Insufficient ephemeral-storage, 11 Insufficient cpu, 2 "
        "Insufficient memory. preemption: 0/13 nodes are available: 13 No preemption victims "
        "found for incoming pod.");
}

TEST_CASE("plan's CSV tables are RFC 4180 runs tables", "[cli][csv][plan]") {
  const Outcome pool = run_cli({"plan", kRoot + "/scenarios/node-pool-gpu.json", "--pool", "h100",
                                "--max", "8", "--objective", "pending==0", "-o", "csv"});
  CHECK(pool.code == 0);
  const CheckedCsv sizes = check_csv(pool.out, {"met"});
  CHECK(sizes.faults == std::vector<std::string>{});
  check_runs_header(sizes, {"size", "met"});
  CHECK(values(sizes, "met") == std::set<std::string>{"false", "true"});

  const Outcome mix =
      run_cli({"plan", kRoot + "/scenarios/gpu-pool-mix.json", "--pool", "h100=2..2", "--pool",
               "l4", "--max", "3", "--objective", "pending==0", "-o", "csv"});
  CHECK(mix.code == 0);
  const CheckedCsv mixes = check_csv(mix.out, {"met"});
  CHECK(mixes.faults == std::vector<std::string>{});
  check_runs_header(mixes, {"h100", "l4", "pricePerHour", "met"});
  CHECK(mixes.records.size() == 4);  // l4 from 0 to 3
}

TEST_CASE("compare, sweep and merge quote names with commas and quotes", "[cli][csv]") {
  const TempDir dir;
  // Configuration files named so that their names need quoting, both as compare's variants and
  // as sweep's config column.
  const std::string odd = R"(least, "allocated".yaml)";
  fs::copy_file(kRoot + "/examples/planning/least-allocated.yaml", dir.path() / odd);
  fs::copy_file(kRoot + "/examples/planning/most-allocated.yaml",
                dir.path() / "most-allocated.yaml");

  const Outcome compared = run_cli({"compare", kSpread, "--config", dir.at(odd), "--config",
                                    dir.at("most-allocated.yaml"), "-o", "csv"});
  CHECK(compared.code == 0);
  CHECK(compared.out.starts_with("variant,"));
  CHECK_THAT(compared.out, Catch::Contains("\n\"least, \"\"allocated\"\"\",0."));
  const CheckedCsv variants = check_csv(compared.out, {"variant"});
  CHECK(variants.faults == std::vector<std::string>{});
  check_runs_header(variants, {"variant"});
  CHECK(values(variants, "variant") ==
        std::set<std::string>{R"(least, "allocated")", "most-allocated"});

  const std::string sweep =
      dir.write("sweep.yaml", "apiVersion: gpusched.io/v1\nkind: Sweep\nscenario: " + kSpread +
                                  "\npools:\n  a100: [2, 3]\nconfigs: ['" + odd +
                                  "', most-allocated.yaml]\n");
  const Outcome whole = run_cli({"sweep", sweep});
  CHECK(whole.code == 0);
  const CheckedCsv runs = check_csv(whole.out, {"config"});
  CHECK(runs.faults == std::vector<std::string>{});
  check_runs_header(runs, {"run", "runs", "pool.a100", "config", "arrivalScale", "seed"});
  CHECK(runs.records.size() == 4);
  CHECK(values(runs, "config") == std::set<std::string>{odd, "most-allocated.yaml"});

  // merge reads the quoted fields back and writes the same table.
  const Outcome first = run_cli({"sweep", sweep, "--shard", "0/2"});
  const Outcome second = run_cli({"sweep", sweep, "--shard", "1/2"});
  CHECK(check_csv(first.out, {"config"}).faults == std::vector<std::string>{});
  const Outcome merged =
      run_cli({"merge", dir.write("shard-1.csv", second.out), dir.write("shard-0.csv", first.out)});
  CHECK(merged.code == 0);
  CHECK(merged.out == whole.out);
}

TEST_CASE("compare, sweep and merge write names a spreadsheet would run as formulas as text",
          "[cli][csv]") {
  const TempDir dir;
  // Configuration files whose names, as compare's variants and sweep's config column, start
  // with = and @ (OWASP's CSV injection).
  const std::string formula = "=HYPERLINK(x).yaml";
  const std::string at = "@SUM(1).yaml";
  fs::copy_file(kRoot + "/examples/planning/least-allocated.yaml", dir.path() / formula);
  fs::copy_file(kRoot + "/examples/planning/most-allocated.yaml", dir.path() / at);

  const Outcome compared = run_cli(
      {"compare", kSpread, "--config", dir.at(formula), "--config", dir.at(at), "-o", "csv"});
  CHECK(compared.code == 0);
  CHECK_THAT(compared.out, Catch::Contains("\n'=HYPERLINK(x),"));
  CHECK_THAT(compared.out, Catch::Contains("\n'@SUM(1),"));
  const CheckedCsv variants = check_csv(compared.out, {"variant"});
  CHECK(variants.faults == std::vector<std::string>{});

  const std::string sweep = dir.write(
      "sweep.yaml", "apiVersion: gpusched.io/v1\nkind: Sweep\nscenario: " + kSpread +
                        "\npools:\n  a100: [2, 3]\nconfigs: ['" + formula + "', '" + at + "']\n");
  const Outcome whole = run_cli({"sweep", sweep});
  CHECK(whole.code == 0);
  const CheckedCsv runs = check_csv(whole.out, {"config"});
  CHECK(runs.faults == std::vector<std::string>{});
  CHECK(values(runs, "config") == std::set<std::string>{"'" + formula, "'" + at});

  // merge passes the quote on: the same table, not a second quote.
  const Outcome first = run_cli({"sweep", sweep, "--shard", "0/2"});
  const Outcome second = run_cli({"sweep", sweep, "--shard", "1/2"});
  const Outcome merged =
      run_cli({"merge", dir.write("shard-1.csv", second.out), dir.write("shard-0.csv", first.out)});
  CHECK(merged.code == 0);
  CHECK(merged.out == whole.out);
}

}  // namespace
}  // namespace gpusched::test
