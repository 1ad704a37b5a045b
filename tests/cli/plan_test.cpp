// The planning commands end to end: plan, compare, sweep and merge, their outputs and exit codes.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "report/csv.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::test {
namespace {

const std::string kRoot = std::string(GPUSCHED_SOURCE_DIR);
const std::string kPool = kRoot + "/scenarios/node-pool-gpu.json";
const std::string kSpread = kRoot + "/scenarios/gpu-fragmentation-spread.json";
const std::string kSweep = kRoot + "/examples/planning/fragmentation-sweep.yaml";

TEST_CASE("plan prints the smallest pool and every size it tried", "[cli][plan]") {
  const Outcome outcome = run_cli(
      {"plan", kPool, "--pool", "h100", "--max", "8", "--objective", "pending==0", "-j", "2"});
  CHECK(outcome.code == 0);
  CHECK(outcome.err.empty());
  CHECK(outcome.out.starts_with("Pool h100: 3 node(s) meet pending==0\n\nSIZE   MET   PENDING"));
  CHECK_THAT(outcome.out,
             Catch::Contains("\n2      no    1 ") && Catch::Contains("\n3      yes   0 "));

  const Outcome json = run_cli(
      {"plan", kPool, "--pool", "h100", "--max", "8", "--objective", "pending==0", "-o", "json"});
  CHECK(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"answer\": 3") &&
                           Catch::Contains("\"unmet\": [\n        \"pending==0\""));
  const Outcome csv = run_cli(
      {"plan", kPool, "--pool", "h100", "--max", "8", "--objective", "pending==0", "-o", "csv"});
  CHECK(csv.out.starts_with("size,met,allocation."));
}

TEST_CASE("plan exits 1 when no size meets the objectives and 2 on bad input", "[cli][plan]") {
  const Outcome none =
      run_cli({"plan", kPool, "--pool", "h100", "--max", "2", "--objective", "pending==0"});
  CHECK(none.code == 1);
  CHECK(none.out.starts_with("Pool h100: no size from 0 to 2 meets pending==0"));
  const Outcome bad_objective =
      run_cli({"plan", kPool, "--pool", "h100", "--max", "2", "--objective", "pending"});
  CHECK(bad_objective.code == 2);
  CHECK_THAT(bad_objective.err,
             Catch::Contains("--objective: objective \"pending\" has no comparison"));
  const Outcome no_pool =
      run_cli({"plan", kPool, "--pool", "b200", "--max", "2", "--objective", "pending==0"});
  CHECK(no_pool.code == 2);
  CHECK(no_pool.out.empty());
  CHECK_THAT(no_pool.err, Catch::Contains("gpusched: error: --pool: scenario") &&
                              Catch::Contains("no node pool \"b200\""));
  const Outcome missing = run_cli({"plan", kPool, "--pool", "h100", "--objective", "pending==0"});
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err,
             Catch::Contains("give --max, or each pool's sizes as --pool h100=MIN..MAX"));
  for (const char* range : {"h100=3", "h100=4..2", "h100=-1..2", "=1..2", "h100=0..100001"}) {
    const Outcome bad = run_cli({"plan", kPool, "--pool", range, "--objective", "pending==0"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("is not NAME or NAME=MIN..MAX"));
  }
}

TEST_CASE("plan with several pools prints the cheapest mix and every mix it tried", "[cli][plan]") {
  const std::string mix = kRoot + "/scenarios/gpu-pool-mix.json";
  const Outcome outcome = run_cli(
      {"plan", mix, "--pool", "h100=0..4", "--pool", "l4=0..6", "--objective", "pending==0"});
  CHECK(outcome.code == 0);
  CHECK(outcome.out.starts_with(
      "Cheapest mix: h100=2, l4=3 at 68.80 per hour meets pending==0\n\nH100   L4    PRICE/HOUR"));
  CHECK_THAT(outcome.out, Catch::Contains("\n2      3     68.80        yes   0 ") &&
                              Catch::Contains("\n2      2     67.20        no    2 "));
  const Outcome json = run_cli({"plan", mix, "--pool", "h100=0..4", "--pool", "l4=0..6",
                                "--objective", "pending==0", "-o", "json"});
  CHECK_THAT(json.out, Catch::Contains(R"("answer": {
    "sizes": {
      "h100": 2,
      "l4": 3
    },
    "pricePerHour": "68.8"
  })"));
  const Outcome csv = run_cli({"plan", mix, "--pool", "h100=2..2", "--pool", "l4", "--max", "3",
                               "--objective", "pending==0", "-o", "csv"});
  CHECK(csv.code == 0);
  CHECK(csv.out.starts_with("h100,l4,pricePerHour,met,"));
  CHECK_THAT(csv.out, Catch::Contains("\n2,3,68.8,true,"));
  const Outcome none = run_cli(
      {"plan", mix, "--pool", "h100=0..1", "--pool", "l4=0..6", "--objective", "pending==0"});
  CHECK(none.code == 1);
  CHECK(none.out.starts_with("No mix of the pools' sizes meets pending==0"));
}

TEST_CASE("compare puts two configurations side by side", "[cli][compare]") {
  const Outcome outcome =
      run_cli({"compare", kSpread, "--config", kRoot + "/examples/planning/least-allocated.yaml",
               "--config", kRoot + "/examples/planning/most-allocated.yaml"});
  CHECK(outcome.code == 0);
  CHECK(outcome.out.starts_with("METRIC "));
  CHECK_THAT(outcome.out, Catch::Contains("least-allocated   ") &&
                              Catch::Contains("default/train ") &&
                              Catch::Contains("Succeeded on a100-1 from 10s"));
  const Outcome one =
      run_cli({"compare", kSpread, "--config", kRoot + "/examples/planning/least-allocated.yaml"});
  CHECK(one.code == 2);
  CHECK_THAT(one.err, Catch::Contains("at least two configurations"));
  const Outcome twice =
      run_cli({"compare", kSpread, "--config", kRoot + "/examples/planning/least-allocated.yaml",
               "--config", kRoot + "/examples/planning/least-allocated.yaml"});
  CHECK(twice.code == 2);
  CHECK_THAT(twice.err, Catch::Contains("is given twice"));
}

TEST_CASE("compare puts two scenarios side by side", "[cli][compare][dra]") {
  const std::string plugin = kRoot + "/scenarios/migrate-h100-device-plugin.json";
  const std::string dra = kRoot + "/scenarios/migrate-h100-dra.json";
  const Outcome outcome = run_cli({"compare", plugin, dra});
  CHECK(outcome.code == 0);
  CHECK_THAT(outcome.out,
             Catch::Contains("migrate-h100-device-plugin   migrate-h100-dra\n") &&
                 Catch::Contains("default/serving   Running on h100-0 from 40s   Pending\n") &&
                 Catch::Contains("default/serving   migrate-h100-dra             0/1 nodes are "
                                 "available: 1 cannot allocate all claims."));
  // One configuration applies to every scenario; two are refused.
  const std::string config = kRoot + "/examples/planning/most-allocated.yaml";
  CHECK(run_cli({"compare", plugin, dra, "--config", config}).code == 0);
  const Outcome two_configs = run_cli(
      {"compare", plugin, dra, "--config", config, "--config",
       kRoot + "/examples/planning/least-allocated.yaml"});
  CHECK(two_configs.code == 2);
  CHECK_THAT(two_configs.err, Catch::Contains("at most one configuration"));
  const Outcome twice = run_cli({"compare", plugin, plugin});
  CHECK(twice.code == 2);
  CHECK_THAT(twice.err, Catch::Contains("is given twice"));
}

TEST_CASE("sweep shards merge into the local sweep's table", "[cli][sweep]") {
  const TempDir dir;
  const Outcome whole = run_cli({"sweep", kSweep, "-j", "2"});
  REQUIRE(whole.code == 0);
  CHECK(whole.out.starts_with("run,runs,pool.a100,config,arrivalScale,seed,"));
  // 16 replays and the header.
  CHECK(std::count(whole.out.begin(), whole.out.end(), '\n') == 17);
  std::vector<std::string> merge{"merge"};
  for (int i = 0; i < 4; ++i) {
    const Outcome shard = run_cli({"sweep", kSweep, "--shard", std::to_string(i) + "/4"});
    REQUIRE(shard.code == 0);
    merge.push_back(dir.write("shard-" + std::to_string(i) + ".csv", shard.out));
  }
  const Outcome merged = run_cli(merge);
  CHECK(merged.code == 0);
  CHECK(merged.out == whole.out);
  merge.pop_back();
  const Outcome partial = run_cli(merge);
  CHECK(partial.code == 2);
  CHECK_THAT(partial.err, Catch::Contains("4 of 16 runs are missing (3, 7, 11, 15)"));
}

TEST_CASE("sweep --shard N takes its index from JOB_COMPLETION_INDEX", "[cli][sweep]") {
  const Outcome explicit_shard = run_cli({"sweep", kSweep, "--shard", "2/4"});
  ::setenv("JOB_COMPLETION_INDEX", "2", 1);
  const Outcome from_env = run_cli({"sweep", kSweep, "--shard", "4"});
  ::setenv("JOB_COMPLETION_INDEX", "4", 1);
  const Outcome beyond = run_cli({"sweep", kSweep, "--shard", "4"});
  ::unsetenv("JOB_COMPLETION_INDEX");
  const Outcome unset = run_cli({"sweep", kSweep, "--shard", "4"});
  CHECK(from_env.code == 0);
  CHECK(from_env.out == explicit_shard.out);
  CHECK(beyond.code == 2);
  CHECK_THAT(beyond.err,
             Catch::Contains("JOB_COMPLETION_INDEX: \"4\" is not a shard index from 0 to 3"));
  CHECK(unset.code == 2);
  CHECK_THAT(unset.err, Catch::Contains("which is not set; write --shard I/4"));
  const Outcome zero = run_cli({"sweep", kSweep, "--shard", "1/0"});
  CHECK(zero.code == 2);
  CHECK_THAT(zero.err, Catch::Contains("--shard: \"1/0\" is not I/N or N"));
}

TEST_CASE("replay prints the summary metrics", "[cli][metrics]") {
  const Outcome table = run_cli({"replay", kSpread, "-o", "metrics"});
  CHECK(table.code == 0);
  CHECK(table.out.starts_with("METRIC "));
  CHECK_THAT(table.out, Catch::Contains("\nwait.max ") && Catch::Contains("59m50s"));
  const Outcome csv = run_cli({"replay", kSpread, "-o", "metrics-csv"});
  CHECK(csv.code == 0);
  CHECK(csv.out.starts_with("metric,value,unit\ntime,10800000,ms\n"));
}

TEST_CASE("replay prints the pods and the nodes' GPU steps as CSV", "[cli][csv]") {
  const std::string preempting = kRoot + "/scenarios/serving-preempts-batch.json";
  const Outcome pods = run_cli({"replay", preempting, "--until", "70s", "-o", "pods-csv"});
  CHECK(pods.code == 1);  // the scenario's expectations for 1m29s and later do not hold at 1m10s
  const std::vector<report::CsvLine> rows = report::read_csv(pods.out, "pods.csv");
  REQUIRE(rows.size() == 3);
  for (const report::CsvLine& row : rows) CHECK(row.fields.size() == 17);
  CHECK(rows[1].fields ==
        std::vector<std::string>{"default", "serving", "Pending", "", "1000", "", "", "1",
                                 "nvidia.com/gpu=1", "60000", "", "", "", "1", "", "Unschedulable",
                                 "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."});
  CHECK(rows[2].fields[1] == "trainer");
  CHECK(rows[2].fields[11] == "0");                // wait: bound in the file
  CHECK(rows[2].fields[14] == "default/serving");  // preempted by, still terminating

  const Outcome steps = run_cli({"replay", kSpread, "-o", "gpu-steps-csv"});
  CHECK(steps.code == 0);
  CHECK(steps.out ==
        "node,pool,gpu_model,from_ms,to_ms,allocatable,allocated,schedulable\n"
        "a100-0,a100,NVIDIA-A100-SXM4-80GB,0,3600000,8,4,true\n"
        "a100-0,a100,NVIDIA-A100-SXM4-80GB,3600000,10800000,8,8,true\n"
        "a100-1,a100,NVIDIA-A100-SXM4-80GB,0,3600000,8,4,true\n"
        "a100-1,a100,NVIDIA-A100-SXM4-80GB,3600000,10800000,8,0,true\n");
}

}  // namespace
}  // namespace gpusched::test
