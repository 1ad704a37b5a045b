// Time-weighted allocation, unschedulable time by reason, Jobs and GPU fragmentation, from a
// replay and from hand-built results.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>

#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::report {
namespace {

const std::string kSpread =
    std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/gpu-fragmentation-spread.json";

TEST_CASE("fit_error_reasons drops the counts and the preemption message", "[report][metrics]") {
  CHECK(fit_error_reasons("0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient "
                          "nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption "
                          "victims found for incoming pod.") ==
        std::vector<std::string>{"Insufficient cpu", "Insufficient nvidia.com/gpu"});
  CHECK(fit_error_reasons("0/2 nodes are available: 2 node(s) had untolerated taint {k: a, b}.") ==
        std::vector<std::string>{"node(s) had untolerated taint {k: a, b}"});
  CHECK(fit_error_reasons("0/0 nodes are available: .").empty());
  CHECK(fit_error_reasons("0/4 nodes are available: pod has unbound immediate "
                          "PersistentVolumeClaims.") ==
        std::vector<std::string>{"pod has unbound immediate PersistentVolumeClaims"});
  CHECK(fit_error_reasons("binding rejected: node is gone") ==
        std::vector<std::string>{"binding rejected: node is gone"});
}

TEST_CASE("a replay integrates allocatable and requests over time", "[report][metrics]") {
  // Two 8-GPU nodes from 0 to 3h (the training pod ends at 3h): 48 GPU-hours offered. Four
  // 2-GPU workers for 1h (8 GPU-hours) and an 8-GPU pod for 2h (16): 24 requested.
  const SimulationResult result = simulate(io::load_scenario(kSpread));
  CHECK(result.time == 3 * 3'600'000);
  REQUIRE(result.usage.size() == 2);
  CHECK(result.usage[0].node == "a100-0");
  CHECK(result.usage[0].pool == "a100");
  CHECK(result.usage[0].gpu_model == "NVIDIA-A100-SXM4-80GB");
  CHECK(result.usage[0].from == 0);
  CHECK(result.usage[0].to == result.time);
  CHECK(result.usage[0].allocatable_hours.at("nvidia.com/gpu") == Approx(24.0));
  CHECK(result.usage[0].allocatable_hours.at("cpu") == Approx(192.0));
  const AllocationReport alloc = allocation(result);
  CHECK(alloc.fleet.allocatable_hours.at("nvidia.com/gpu") == Approx(48.0));
  CHECK(alloc.fleet.requested_hours.at("nvidia.com/gpu") == Approx(24.0));
  CHECK(alloc.fleet.ratio("nvidia.com/gpu") == Approx(0.5));
  CHECK(alloc.by_pool.at("a100").ratio("nvidia.com/gpu") == Approx(0.5));
  CHECK(alloc.by_gpu_model.at("NVIDIA-A100-SXM4-80GB").ratio("nvidia.com/gpu") == Approx(0.5));
  CHECK(alloc.fleet.ratio("example.com/none") == 0);
  // Per node, the GPUs over time: the workers two per node for 1h, then the training pod on
  // a100-0 (the first node of the least allocated, by name) until 3h.
  CHECK(result.usage[0].gpu_steps ==
        std::vector<GpuStep>{{0, 8, 4, true}, {3'600'000, 8, 8, true}});
  CHECK(result.usage[1].gpu_steps ==
        std::vector<GpuStep>{{0, 8, 4, true}, {3'600'000, 8, 0, true}});

  // The training pod waited from 10s to 1h, rejected for GPUs only.
  CHECK(result.unschedulable_time ==
        std::map<std::string, TimeMs>{{"Insufficient nvidia.com/gpu", 3'600'000 - 10'000}});
  REQUIRE(result.jobs.size() == 1);
  CHECK(result.jobs[0].job == "default/workers");
  CHECK(result.jobs[0].created == 0);
  CHECK(result.jobs[0].ended == 3'600'000);
  CHECK_FALSE(result.jobs[0].failed);
  CHECK(result.jobs[0].succeeded == 4);
}

TEST_CASE("a node removed and added again has a usage record per stay", "[report][metrics]") {
  const std::string text = R"({"name": "stays", "until": "40s", "cluster": [
      {"kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "4"}}},
      {"kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}],
    "timeline": [
      {"at": "10s", "delete": {"kind": "Node", "name": "n"}},
      {"at": "30s", "apply": {"kind": "Node", "metadata": {"name": "n"},
                              "status": {"allocatable": {"cpu": "2"}}}}]})";
  const SimulationResult result = simulate(io::parse_scenario(text, "stays.json"));
  REQUIRE(result.usage.size() == 2);
  CHECK(result.usage[0].from == 0);
  CHECK(result.usage[0].to == 10'000);
  // 4 cores for 10 s, 1 requested.
  CHECK(result.usage[0].allocatable_hours.at("cpu") == Approx(4 * 10.0 / 3600));
  CHECK(result.usage[0].requested_hours.at("cpu") == Approx(1 * 10.0 / 3600));
  CHECK(result.usage[1].from == 30'000);
  CHECK(result.usage[1].to == 40'000);
  CHECK(result.usage[1].allocatable_hours.at("cpu") == Approx(2 * 10.0 / 3600));
  CHECK(result.usage[0].gpu_steps.empty());  // no GPUs
}

TEST_CASE("a node's GPU steps follow its provisioning and its pods", "[report][metrics]") {
  // Registered NotReady without GPUs at 10s, Ready at 20s, GPUs advertised at 30s; a 2-GPU pod
  // from 30s to 1m30s; cordoned at 2m.
  const std::string text = R"({"name": "steps", "until": "3m", "nodePools": [
      {"count": 1, "provisioning": {"launchDelay": "10s", "bootDelay": "10s", "driverDelay": "10s"},
       "node": {"kind": "Node", "metadata": {"name": "g"},
                "status": {"capacity": {"cpu": "8", "nvidia.com/gpu": "4"}}}}],
    "cluster": [{"kind": "Pod", "metadata": {"name": "p", "annotations": {"gpusched.io/run-duration": "1m"}},
                 "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
                   "resources": {"limits": {"nvidia.com/gpu": 2}}}]}}],
    "timeline": [{"at": "2m", "patch": {"kind": "Node", "name": "g-0",
                                         "merge": {"spec": {"unschedulable": true}}}}]})";
  const SimulationResult result = simulate(io::parse_scenario(text, "steps.json"));
  REQUIRE(result.usage.size() == 1);
  CHECK(result.usage[0].from == 10'000);
  CHECK(result.usage[0].gpu_steps ==
        std::vector<GpuStep>{{30'000, 4, 2, true}, {90'000, 4, 0, true}, {120'000, 4, 0, false}});
}

PodRecord pending_pod(const std::string& name, std::int64_t gpus, std::int64_t cpu) {
  PodRecord record;
  record.pod.metadata.name = name;
  record.pod.metadata.namespace_ = "default";
  ResourceList requests;
  requests.emplace("nvidia.com/gpu", Quantity::from_units(gpus));
  requests.emplace("cpu", Quantity::from_units(cpu));
  record.requests = requests;
  return record;
}

NodeRecord gpu_node(const std::string& name, int gpus, int used, std::int64_t free_cpu) {
  NodeRecord record;
  record.node.metadata.name = name;
  record.node.allocatable.emplace("nvidia.com/gpu", Quantity::from_units(gpus));
  record.node.allocatable.emplace("cpu", Quantity::from_units(free_cpu));
  record.allocated.emplace("nvidia.com/gpu", Quantity::from_units(used));
  return record;
}

TEST_CASE("GPU fragmentation against the pending pods' sizes", "[report][metrics]") {
  SimulationResult result;
  // a: 4 free GPUs, b: 2 free, c: 3 free but only 1 free core, d: full.
  result.nodes = {gpu_node("a", 8, 4, 32), gpu_node("b", 8, 6, 32), gpu_node("c", 8, 5, 1),
                  gpu_node("d", 8, 8, 32)};
  SECTION("no GPU pod pending: nothing is fragmented") {
    const Fragmentation frag = gpu_fragmentation(result);
    CHECK(frag.free_gpus == 9);
    CHECK(frag.pending_gpu_pods == 0);
    CHECK(frag.fragmented_gpus == 0);
    CHECK(frag.stranded_gpus == 0);
    CHECK(frag.nodes.size() == 3);
  }
  SECTION("a 4-GPU and an 8-GPU pod pending") {
    result.pods = {pending_pod("four", 4, 2), pending_pod("eight", 8, 2)};
    const Fragmentation frag = gpu_fragmentation(result);
    CHECK(frag.pending_gpu_pods == 2);
    // The 4-GPU pod cannot use b's 2 nor c's 3 (too few cores there anyway): 5 GPUs. The 8-GPU
    // pod can use none: 9. Expected over the two pods: 7.
    CHECK(frag.fragmented_gpus == Approx(7.0));
    // c's free core fits neither pod: its 3 GPUs are stranded.
    CHECK(frag.stranded_gpus == 3);
    REQUIRE(frag.nodes.size() == 3);
    CHECK(frag.nodes[2].node == "c");
    CHECK(frag.nodes[2].stranded_gpus == 3);
  }
  SECTION("bound and finished pods are not pending") {
    PodRecord bound = pending_pod("bound", 1, 1);
    bound.pod.spec.node_name = "a";
    PodRecord done = pending_pod("done", 1, 1);
    done.pod.status.phase = PodPhase::Succeeded;
    result.pods = {bound, done};
    CHECK(gpu_fragmentation(result).pending_gpu_pods == 0);
  }
}

TEST_CASE("Job makespan and durations", "[report][metrics]") {
  SimulationResult result;
  result.time = 100'000;
  result.jobs = {JobRecord{"default/a", 0, 40'000, false, 1},
                 JobRecord{"default/b", 10'000, 90'000, true, 0}};
  JobStats stats = job_stats(result);
  CHECK(stats.jobs == 2);
  CHECK(stats.completed == 1);
  CHECK(stats.failed == 1);
  CHECK(stats.running == 0);
  CHECK(stats.makespan == 90'000);
  CHECK(stats.duration.p50 == 40'000);
  CHECK(stats.duration.max == 80'000);
  result.jobs.push_back(JobRecord{"default/c", 20'000, std::nullopt, false, 0});
  stats = job_stats(result);
  CHECK(stats.running == 1);
  CHECK(stats.makespan == 100'000);  // to the end of the run
}

TEST_CASE("summary metrics name every figure once and print it plainly", "[report][metrics]") {
  const SimulationResult result = simulate(io::load_scenario(kSpread));
  const std::vector<Metric> metrics = summary_metrics(result);
  std::set<std::string> names;
  for (const Metric& metric : metrics) CHECK(names.insert(metric.name).second);
  REQUIRE(find_metric(metrics, "wait.max"));
  CHECK(find_metric(metrics, "wait.max")->value == 3'590'000);
  CHECK(format_metric(*find_metric(metrics, "wait.max")) == "59m50s");
  CHECK(plain_metric(*find_metric(metrics, "wait.max")) == "3590000");
  CHECK(format_metric(*find_metric(metrics, "allocation.nvidia.com/gpu")) == "50.0%");
  CHECK(plain_metric(*find_metric(metrics, "allocation.nvidia.com/gpu")) == "0.5000");
  CHECK(find_metric(metrics, "allocation.nvidia.com/gpu{pool=a100}"));
  CHECK(find_metric(metrics, "gpuHours.allocatable")->value == Approx(48.0));
  CHECK(find_metric(metrics, "pending")->value == 0);
  CHECK(find_metric(metrics, "jobs.makespan")->value == 3'600'000);
  CHECK(find_metric(metrics, "unschedulable{reason=Insufficient nvidia.com/gpu}")->value ==
        3'590'000);
  std::ostringstream csv;
  write_metrics_csv(csv,
                    {Metric{"unschedulable{reason=taint {k: a, b}}", 1500, MetricUnit::Duration},
                     Metric{"pending", 2, MetricUnit::Count}});
  CHECK(csv.str() ==
        "metric,value,unit\n\"unschedulable{reason=taint {k: a, b}}\",1500,ms\n"
        "pending,2,count\n");
}

TEST_CASE("waits of pods never bound count to the end when asked", "[report][metrics]") {
  SimulationResult result;
  result.time = 50'000;
  PodRecord bound;
  bound.created = 0;
  bound.scheduled = 10'000;
  PodRecord waiting;
  waiting.created = 20'000;
  result.pods = {bound, waiting};
  CHECK(queue_wait(result).all.max == 10'000);
  CHECK(queue_wait(result, PendingPods::CountedToEnd).all.max == 30'000);
  CHECK(queue_wait(result, PendingPods::CountedToEnd).all.pods == 2);
}

}  // namespace
}  // namespace gpusched::report
