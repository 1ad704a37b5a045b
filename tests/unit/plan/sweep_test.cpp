// Sweeps: a grid of replays, its shards and their merge.
#include "gpusched/plan/sweep.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "gpusched/error.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::plan {
namespace {

const std::string kScenario =
    std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/gpu-fragmentation-spread.json";
const std::string kConfigs = std::string(GPUSCHED_SOURCE_DIR) + "/examples/planning/";

std::string sweep_text(const std::string& extra) {
  return "apiVersion: gpusched.io/v1\nkind: Sweep\nscenario: " + kScenario + "\n" + extra;
}

std::string sweep_error(const std::string& text) {
  const test::TempDir dir;
  try {
    (void)load_sweep(dir.write("s.yaml", text));
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no error for " << text);
  return {};
}

TEST_CASE("a sweep expands its grid, the last parameter fastest", "[plan][sweep]") {
  const test::TempDir dir;
  const Sweep sweep = load_sweep(dir.write(
      "s.yaml", sweep_text("pools: {a100: [2, 5]}\nconfigs: [scenario, " + kConfigs +
                           "most-allocated.yaml]\narrivalScale: [1, 2.5]\nseeds: [3, 4, 5]\n")));
  CHECK(sweep_size(sweep) == 2 * 2 * 2 * 3);
  CHECK(sweep_parameter_names(sweep) ==
        std::vector<std::string>{"pool.a100", "config", "arrivalScale", "seed"});
  auto [first, scenario0] = sweep_point(sweep, 0);
  CHECK(first == std::vector<std::string>{"2", "scenario", "1", "3"});
  CHECK(scenario0.node_pools[0].count == 2);
  CHECK(scenario0.timeline[0].at == 10'000);
  CHECK(scenario0.expect.empty());
  auto [last, scenario23] = sweep_point(sweep, 23);
  CHECK(last == std::vector<std::string>{"5", kConfigs + "most-allocated.yaml", "2.5", "5"});
  CHECK(scenario23.node_pools[0].count == 5);
  CHECK(scenario23.scheduler.seed == 5);
  CHECK(scenario23.timeline[0].at == 4'000);  // 10 s / 2.5
  CHECK(scenario23.scheduler.profiles[0].node_resources_fit.scoring_type ==
        ScoringStrategyType::MostAllocated);
  CHECK(sweep_point(sweep, 1).first[3] == "4");
  CHECK(sweep_point(sweep, 3).first[2] == "2.5");
}

TEST_CASE("a sweep without lists is one replay of the scenario as written", "[plan][sweep]") {
  const test::TempDir dir;
  const Sweep sweep = load_sweep(dir.write("s.yaml", sweep_text("")));
  CHECK(sweep_size(sweep) == 1);
  CHECK(sweep_point(sweep, 0).first == std::vector<std::string>{"scenario", "1", "1"});
}

TEST_CASE("shards of a sweep merge into the whole sweep's table", "[plan][sweep]") {
  const test::TempDir dir;
  const Sweep sweep = load_sweep(dir.write(
      "s.yaml", sweep_text("pools: {a100: [2, 5]}\narrivalScale: [1, 2]\nseeds: [1, 2]\n")));
  std::ostringstream whole;
  write_sweep_csv(whole, sweep, run_sweep(sweep, {}, 2, {}));
  std::vector<std::filesystem::path> shards;
  for (std::size_t i = 0; i < 3; ++i) {
    std::ostringstream part;
    write_sweep_csv(part, sweep, run_sweep(sweep, {i, 3}, 1, {}));
    shards.push_back(dir.write("shard-" + std::to_string(i) + ".csv", part.str()));
  }
  std::reverse(shards.begin(), shards.end());
  CHECK(merge_sweep_tables(shards) == whole.str());
  CHECK(whole.str().starts_with("run,runs,pool.a100,config,arrivalScale,seed,allocation.cpu,"));
  // With 5 nodes the 8-GPU pod never waits; with 2 it does.
  CHECK_THAT(whole.str(), Catch::Contains("\n0,8,2,scenario,1,1,"));

  SECTION("a missing shard, a shard twice and tables of another sweep are refused") {
    CHECK_THROWS_WITH(merge_sweep_tables({shards[0], shards[1]}),
                      Catch::Contains("runs are missing") && Catch::Contains("of 8 runs"));
    CHECK_THROWS_WITH(merge_sweep_tables({shards[0], shards[0]}),
                      Catch::Contains("is in the tables twice"));
    const std::string other =
        dir.write("other.csv", "run,runs,config,arrivalScale,seed\n0,1,scenario,1,1\n");
    CHECK_THROWS_WITH(merge_sweep_tables({shards[0], other}),
                      Catch::Contains("its parameters differ"));
    const std::string bad = dir.write("bad.csv", "a,b\n1,2\n");
    CHECK_THROWS_WITH(merge_sweep_tables({bad}), Catch::Contains("bad.csv:1: not a sweep table"));
    const std::string beyond =
        dir.write("beyond.csv", "run,runs,config,arrivalScale,seed\n3,2,scenario,1,1\n");
    CHECK_THROWS_WITH(merge_sweep_tables({beyond}),
                      Catch::Contains("beyond.csv:2: run \"3\" is not a number from 0 to 1"));
    const std::string open =
        dir.write("open.csv", "run,runs,config,arrivalScale,seed\n0,1,\"scen\n");
    CHECK_THROWS_WITH(merge_sweep_tables({open}),
                      Catch::Contains("open.csv:2: a quoted field is never closed"));
  }
}

TEST_CASE("sweep files are validated with their place", "[plan][sweep]") {
  CHECK_THAT(sweep_error("apiVersion: gpusched.io/v1\nkind: Scenario\nscenario: x\n"),
             Catch::Contains("/kind: kind \"Scenario\" is not Sweep"));
  CHECK_THAT(sweep_error("kind: Sweep\n"), Catch::Contains("apiVersion"));
  CHECK_THAT(sweep_error(sweep_text("pool: {}\n")), Catch::Contains("unknown key \"pool\""));
  CHECK_THAT(sweep_error(sweep_text("pools: {h100: [1]}\n")),
             Catch::Contains(":4: /pools/h100: the scenario has no node pool \"h100\""));
  CHECK_THAT(sweep_error(sweep_text("pools: {a100: []}\n")), Catch::Contains("must not be empty"));
  CHECK_THAT(sweep_error("apiVersion: gpusched.io/v1\nkind: Sweep\nscenario: " +
                         std::string(GPUSCHED_SOURCE_DIR) +
                         "/scenarios/autoscaler-gpu-burst.json\npools: {a100: [1]}\n"),
             Catch::Contains("/pools/a100: node pool \"a100\" autoscales"));
  CHECK_THAT(sweep_error(sweep_text("pools: {a100: [1, 1]}\n")),
             Catch::Contains("/pools/a100/1: is already in the list"));
  CHECK_THAT(sweep_error(sweep_text("pools: {a100: [100001]}\n")),
             Catch::Contains("must be between 0 and 100000"));
  CHECK_THAT(sweep_error(sweep_text("arrivalScale: [0]\n")),
             Catch::Contains("/arrivalScale/0: must be from 0.001 to 1000"));
  CHECK_THAT(sweep_error(sweep_text("seeds: [-1]\n")), Catch::Contains("/seeds/0"));
  CHECK_THAT(sweep_error(sweep_text("configs: [missing.yaml]\n")), Catch::Contains("missing.yaml"));
  std::string big = "seeds: [";
  for (int i = 0; i < 400; ++i) big += (i ? "," : "") + std::to_string(i);
  big += "]\narrivalScale: [";
  for (int i = 1; i <= 300; ++i) big += (i > 1 ? "," : "") + std::to_string(i);
  big += "]\n";
  CHECK_THAT(sweep_error(sweep_text(big)), Catch::Contains("more than 100000 replays"));
}

}  // namespace
}  // namespace gpusched::plan
