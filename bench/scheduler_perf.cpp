// Workloads of upstream's scheduler_perf (test/integration/scheduler_perf/misc/
// performance-config.yaml), built in memory from its templates and replayed with the default
// profile. Prints one JSON line per workload, e.g.
//   {"workload":"SchedulingBasic","nodes":5000,"pods":10000,"scheduled":10000,
//    "seconds":0.31,"pods_per_second":32000,"peak_rss_mib":120}
// Usage: gpusched_bench_scheduler_perf [WORKLOAD [NODES PODS]]...
//   WORKLOAD: SchedulingBasic (default sizes 500x1000 and 5000x10000) or PreemptionBasic
//   (default 1000 nodes, 4000 low-priority pods, then 1000 high-priority preemptors).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/gpusched.hpp"

namespace {

using gpusched::Quantity;
using gpusched::QuantityFormat;

// templates/node-default.yaml: 4 CPU, 32Gi, 110 pods.
gpusched::Node node_default(int i) {
  gpusched::Node n;
  n.metadata.name = "scheduler-perf-" + std::to_string(i);
  n.capacity = {{"cpu", Quantity::from_units(4)},
                {"memory", Quantity::from_units(32LL << 30, QuantityFormat::BinarySI)},
                {"pods", Quantity::from_units(110)}};
  n.allocatable = n.capacity;
  return n;
}

gpusched::Pod pod(const std::string& name, std::int64_t milli_cpu, std::int64_t memory_mib) {
  gpusched::Pod p;
  p.metadata.name = name;
  p.metadata.namespace_ = "default";
  gpusched::Container c;
  c.name = "pause";
  c.requests = {{"cpu", Quantity(milli_cpu)},
                {"memory", Quantity::from_units(memory_mib << 20, QuantityFormat::BinarySI)}};
  c.limits = c.requests;
  p.spec.containers.push_back(std::move(c));
  return p;
}

struct Run {
  double seconds = 0;
  long scheduled = 0;
};

Run replay(const gpusched::Scenario& scenario, std::string_view prefix) {
  const auto start = std::chrono::steady_clock::now();
  const gpusched::SimulationResult result = gpusched::simulate(scenario);
  Run run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& record : result.pods) {
    if (!record.pod.spec.node_name.empty() && record.pod.metadata.name.starts_with(prefix)) {
      ++run.scheduled;
    }
  }
  return run;
}

long peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // Linux reports KiB
}

// SchedulingBasic: templates/pod-default.yaml (100m, 500Mi), all created at once.
void scheduling_basic(int nodes, int pods) {
  gpusched::Scenario s;
  s.name = "SchedulingBasic";
  s.source = "bench";
  for (int i = 0; i < nodes; ++i) s.cluster.emplace_back(node_default(i));
  for (int i = 0; i < pods; ++i) s.cluster.emplace_back(pod("pod-" + std::to_string(i), 100, 500));
  const Run run = replay(s, "pod-");
  std::printf(
      "{\"workload\":\"SchedulingBasic\",\"nodes\":%d,\"pods\":%d,\"scheduled\":%ld,"
      "\"seconds\":%.3f,\"pods_per_second\":%.0f,\"peak_rss_mib\":%ld}\n",
      nodes, pods, run.scheduled, run.seconds, static_cast<double>(run.scheduled) / run.seconds,
      peak_rss_mib());
}

// PreemptionBasic: templates/pod-low-priority.yaml (900m, 500Mi, grace 0) fill the nodes, then
// templates/pod-high-priority.yaml (priority 10, 3000m, 500Mi) must each evict three of them.
// The figure is preemptors per second: the run with preemptors minus the run without.
void preemption_basic(int nodes, int low_pods, int high_pods) {
  gpusched::Scenario s;
  s.name = "PreemptionBasic";
  s.source = "bench";
  for (int i = 0; i < nodes; ++i) s.cluster.emplace_back(node_default(i));
  for (int i = 0; i < low_pods; ++i) {
    gpusched::Pod p = pod("low-" + std::to_string(i), 900, 500);
    p.spec.termination_grace_period_seconds = 0;
    s.cluster.emplace_back(std::move(p));
  }
  const Run baseline = replay(s, "high-");
  // The template's priority 10, through a PriorityClass as the Priority admission plugin wants.
  gpusched::PriorityClass high;
  high.metadata.name = "high";
  high.value = 10;
  s.cluster.insert(s.cluster.begin(), high);
  gpusched::Action action;
  action.at = 1000;
  action.verb = gpusched::Verb::Apply;
  action.pointer = "/timeline/0";
  for (int i = 0; i < high_pods; ++i) {
    gpusched::Pod p = pod("high-" + std::to_string(i), 3000, 500);
    p.spec.priority_class_name = "high";
    action.objects.emplace_back(std::move(p));
  }
  s.timeline.push_back(std::move(action));
  const Run run = replay(s, "high-");
  const double seconds = run.seconds - baseline.seconds;
  std::printf(
      "{\"workload\":\"PreemptionBasic\",\"nodes\":%d,\"init_pods\":%d,\"pods\":%d,"
      "\"scheduled\":%ld,\"seconds\":%.3f,\"pods_per_second\":%.0f,\"peak_rss_mib\":%ld}\n",
      nodes, low_pods, high_pods, run.scheduled, seconds,
      static_cast<double>(run.scheduled) / seconds, peak_rss_mib());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) args = {"SchedulingBasic", "PreemptionBasic"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool sized = i + 2 < args.size() && std::atoi(std::string(args[i + 1]).c_str()) > 0;
    const int a = sized ? std::atoi(std::string(args[i + 1]).c_str()) : 0;
    const int b = sized ? std::atoi(std::string(args[i + 2]).c_str()) : 0;
    if (args[i] == "SchedulingBasic") {
      if (sized) {
        scheduling_basic(a, b);
      } else {
        scheduling_basic(500, 1000);
        scheduling_basic(5000, 10000);
      }
    } else if (args[i] == "PreemptionBasic") {
      if (sized) {
        preemption_basic(a, b, a);
      } else {
        preemption_basic(1000, 4000, 1000);
      }
    } else {
      std::fprintf(stderr, "unknown workload %.*s\n", static_cast<int>(args[i].size()),
                   args[i].data());
      return 2;
    }
    if (sized) i += 2;
  }
  return 0;
}
