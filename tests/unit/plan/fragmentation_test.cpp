// The FGD artifact's experiment on small traces: the tuning, the drops, the errors and the
// analysis scripts' rounding. (The openb trace itself, against every published value of the
// deterministic policies, is tests/planning/fragmentation_table.cmake.)
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/plan/fragmentation.hpp"

namespace gpusched::plan {
namespace {

GpuShareTrace one_gpu_two_shares() {
  GpuShareTrace trace;
  trace.nodes_file = "nodes.csv";
  trace.pods_file = "pods.csv";
  trace.nodes.push_back({"n1", 10000, 10000, 1, "T4"});
  trace.pods.push_back({"p0", 1000, 100, 1, 600, ""});
  trace.pods.push_back({"p1", 1000, 100, 1, 600, ""});
  return trace;
}

TEST_CASE("python_round2 rounds the exact binary value, ties to even", "[plan][fragmentation]") {
  CHECK(python_round2(2.675) == 2.67);  // 2.67499999... in binary
  CHECK(python_round2(0.125) == 0.12);  // an exact tie: to even
  CHECK(python_round2(0.375) == 0.38);
  CHECK(python_round2(92.944999) == 92.94);
}

TEST_CASE("share policies by name", "[plan][fragmentation]") {
  for (const std::string_view name : share_policy_names()) {
    REQUIRE(share_policy(name));
    CHECK(to_string(*share_policy(name)) == name);
  }
  CHECK_FALSE(share_policy("bestfit"));
  CHECK(share_policy_names().size() == 7);
}

TEST_CASE("tuning clones pods up to the target; a pod nothing fits is dropped",
          "[plan][fragmentation]") {
  // One GPU, two 600-milli shares: tuned to 200 % (2,000 milli) one clone joins (1,800; the
  // next would pass 2,000), and only the first of the three pods finds 600 milli free.
  FragmentationOptions options;
  options.tune_permille = 2000;
  for (const std::string_view name : share_policy_names()) {
    INFO(name);
    options.policy = *share_policy(name);
    const FragmentationRun run = run_fragmentation(one_gpu_two_shares(), options);
    CHECK(run.total_milli == 1000);
    CHECK(run.clones == 1);
    CHECK(run.events == 3);
    CHECK(run.failed == 2);
    CHECK(run.used_milli == 600);
    REQUIRE(run.allocated.size() == 201);
    // The first event: 600 of 1,000 milli arrived and allocated (60 %); then 120 % and 180 %
    // arrived with 60 % allocated.
    CHECK(run.allocated[60] == 60.0);
    CHECK(run.allocated[120] == 60.0);
    CHECK(run.allocated[180] == 60.0);
    // Between events, the mean of the neighbours x-1..x+1, else nothing.
    CHECK_FALSE(run.allocated[100].has_value());
    CHECK(run.allocated[61] == 60.0);
  }
}

TEST_CASE("a cluster without GPUs is refused, named with its file", "[plan][fragmentation]") {
  GpuShareTrace no_gpu = one_gpu_two_shares();
  no_gpu.nodes[0].gpus = 0;
  CHECK_THROWS_WITH(run_fragmentation(no_gpu, FragmentationOptions{}),
                    Catch::StartsWith("nodes.csv: the node list has no GPU"));
}

TEST_CASE("tuning that could never stop, or only after millions of clones, is refused",
          "[plan][fragmentation]") {
  GpuShareTrace cpu_only = one_gpu_two_shares();
  for (GpuSharePod& pod : cpu_only.pods) pod.gpu_count = pod.gpu_milli = 0;
  CHECK_THROWS_WITH(run_fragmentation(cpu_only, FragmentationOptions{}),
                    "pods.csv: no pod asks for a GPU: the experiment tunes by GPU demand");
  // One GPU pod of 1 milli among CPU-only pods, tuned to 10x an 8-GPU node: about 80,000 draws
  // of that pod, each among 100 pods.
  GpuShareTrace rare;
  rare.pods_file = "pods.csv";
  rare.nodes.push_back({"n1", 10000, 10000, 8, "T4"});
  rare.pods.push_back({"gpu", 1, 1, 1, 1, ""});
  for (int i = 0; i < 99; ++i) rare.pods.push_back({"cpu-" + std::to_string(i), 1, 1, 0, 0, ""});
  FragmentationOptions options;
  options.tune_permille = 10000;
  CHECK_THROWS_WITH(run_fragmentation(rare, options),
                    "pods.csv: tuning to 1000 % of the GPU capacity would clone more than "
                    "1000000 pods");
}

TEST_CASE("a trace asking more than the target is thinned at random", "[plan][fragmentation]") {
  // 1,200 milli asked of 1,000 at 100 %: tuneDownPods removes one of the two shares.
  FragmentationOptions options;
  options.tune_permille = 1000;
  const FragmentationRun run = run_fragmentation(one_gpu_two_shares(), options);
  CHECK(run.removed == 1);
  CHECK(run.clones == 0);
  CHECK(run.events == 1);
  CHECK(run.failed == 0);
  CHECK(run.used_milli == 600);
}

}  // namespace
}  // namespace gpusched::plan
