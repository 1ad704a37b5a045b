// `gpusched experiment fragmentation`: the table and the CSV on a small trace, and bad input
// ending with exit 2 and `gpusched: error: ...`.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::Outcome;
using test::run_cli;
using test::TempDir;

const std::string kNodes = "sn,cpu_milli,memory_mib,gpu,model\nn1,16000,65536,1,T4\n";
const std::string kPods =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n"
    "p0,1000,1024,1,600,,LS,Running,0,100,0\n"
    "p1,1000,1024,1,600,,LS,Running,0,100,0\n";

TEST_CASE("experiment fragmentation prints the allocation per arrived percent",
          "[cli][experiment]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPods);
  // Tuned to 200 %: one clone; the first of three 600-milli shares fits the one GPU.
  const Outcome csv = run_cli({"experiment", "fragmentation", nodes, pods, "--policy", "BestFit",
                               "--seeds", "1,2", "--tune", "2", "-o", "csv"});
  CHECK(csv.code == 0);
  CHECK(csv.err.empty());
  CHECK(csv.out.starts_with("policy,seed,clones,removed,failed,0,1,2,"));
  CHECK(csv.out.find("\nBestFit,1,1,0,2,") != std::string::npos);
  CHECK(csv.out.find("\nBestFit,2,1,0,2,") != std::string::npos);
  CHECK(csv.out.find("\nBestFit,mean,,,,") != std::string::npos);
  // Arrived 60, 120 and 180 %: of the table's columns only 120 has an event.
  const Outcome table = run_cli(
      {"experiment", "fragmentation", nodes, pods, "--policy", "GpuPacking", "--tune", "2"});
  CHECK(table.code == 0);
  CHECK(table.out ==
        "GPU allocated (% of 1 GPUs) by arrived workload (% of GPU capacity)\n"
        "POLICY         SEED         50      80      90      95     100     110     120     130\n"
        "GpuPacking     42                                                        60.00        \n");
}

TEST_CASE("experiment fragmentation tabulates the fragmentation too", "[cli][experiment]") {
  // One GPU and 600-milli shares tuned to 200 %: after the first, 400 milli idle, which no
  // typical pod (a 600-milli share) can use: all of it is fragmentation, 40 % of the GPU.
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPods);
  const Outcome amount = run_cli({"experiment", "fragmentation", nodes, pods, "--policy", "FGD",
                                  "--tune", "2", "--metric", "frag-amount", "-o", "csv"});
  CHECK(amount.code == 0);
  const std::string row = amount.out.substr(amount.out.find("\nFGD,42,"));
  std::vector<std::string> fields;
  for (std::size_t at = 1, comma = 0; comma != std::string::npos; at = comma + 1) {
    comma = row.find_first_of(",\n", at);
    fields.push_back(row.substr(at, comma == std::string::npos ? comma : comma - at));
    if (comma != std::string::npos && row[comma] == '\n') break;
  }
  REQUIRE(fields.size() == 5 + 201);
  CHECK(fields[5 + 60] == "40.00");
  CHECK(fields[5 + 120] == "40.00");
  const Outcome ratio = run_cli({"experiment", "fragmentation", nodes, pods, "--policy", "FGD",
                                 "--tune", "2", "--metric", "frag-ratio"});
  CHECK(ratio.code == 0);
  CHECK(ratio.out.starts_with("GPU fragmentation (% of the idle GPUs) by arrived workload"));
  CHECK(ratio.out.find("100.00") != std::string::npos);
}

TEST_CASE("experiment fragmentation reads the five-column pod lists too", "[cli][experiment]") {
  // The multigpu* variants of the trace carry name..gpu_milli only.
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods =
      dir.write("pods.csv",
                "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1024,1,600\n"
                "p1,1000,1024,1,600\n");
  const Outcome csv = run_cli({"experiment", "fragmentation", nodes, pods, "--policy", "DotProd",
                               "--tune", "2", "-o", "csv"});
  CHECK(csv.code == 0);
  CHECK(csv.out.find("\nDotProd,42,1,0,2,") != std::string::npos);
  const Outcome share =
      run_cli({"experiment", "fragmentation", nodes,
               dir.write("multi.csv",
                         "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1024,2,500\n")});
  CHECK(share.code == 2);
  CHECK(share.err == "gpusched: error: " + dir.at("multi.csv") +
                         ":2: column gpu_milli: 500 is a share of one GPU, but num_gpu is 2\n");
}

TEST_CASE("experiment fragmentation refuses bad input with exit 2", "[cli][experiment]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPods);
  const Outcome policy =
      run_cli({"experiment", "fragmentation", nodes, pods, "--policy", "FirstFit"});
  CHECK(policy.code == 2);
  CHECK(policy.err ==
        "gpusched: error: --policy: \"FirstFit\" is not a policy: DotProd, GpuClustering, "
        "GpuPacking, BestFit, FGD, Random, FGDCpuPacking or all\n");
  const Outcome tune = run_cli({"experiment", "fragmentation", nodes, pods, "--tune", "1.2345"});
  CHECK(tune.code == 2);
  CHECK(tune.err ==
        "gpusched: error: --tune: \"1.2345\" is not a decimal with at most 3 decimals\n");
  const Outcome seeds = run_cli({"experiment", "fragmentation", nodes, pods, "--seeds", "9..3"});
  CHECK(seeds.code == 2);
  CHECK(seeds.err == "gpusched: error: --seeds: \"9..3\" ends before it starts\n");
  const Outcome bad_csv =
      run_cli({"experiment", "fragmentation", nodes, dir.write("bad.csv", "name,cpu\np0,1\n")});
  CHECK(bad_csv.code == 2);
  CHECK(bad_csv.err.starts_with("gpusched: error: "));
  const Outcome metric = run_cli({"experiment", "fragmentation", nodes, pods, "--metric", "waste"});
  CHECK(metric.code == 2);
  CHECK(metric.err.find("--metric") != std::string::npos);
  const Outcome none = run_cli({"experiment"});
  CHECK(none.code == 2);
  CHECK(none.err == "gpusched: error: experiment needs an experiment: fragmentation\n");
}

}  // namespace
}  // namespace gpusched::cli
