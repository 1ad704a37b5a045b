// SchedulingBasic, as upstream's scheduler_perf defines it
// (test/integration/scheduler_perf/misc/performance-config.yaml): nodes from node-default.yaml
// (4 CPU, 32Gi, 110 pods), pods from pod-default.yaml (100m CPU, 500Mi), all created at once
// and scheduled with the default profile. Prints one JSON line per workload:
//   {"workload":"SchedulingBasic","nodes":5000,"pods":10000,"scheduled":10000,
//    "seconds":0.31,"pods_per_second":32000,"peak_rss_mib":120}
// Usage: gpusched_bench_scheduling [NODES PODS]...   (default: 500 1000 5000 10000)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpusched/gpusched.hpp"

namespace {

gpusched::Scenario scheduling_basic(int nodes, int pods) {
  using gpusched::Quantity;
  using gpusched::QuantityFormat;
  gpusched::Scenario s;
  s.name = "SchedulingBasic";
  s.source = "bench";
  for (int i = 0; i < nodes; ++i) {
    gpusched::Node n;
    n.metadata.name = "node-" + std::to_string(i);
    n.capacity = {{"cpu", Quantity::from_units(4)},
                  {"memory", Quantity::from_units(32LL << 30, QuantityFormat::BinarySI)},
                  {"pods", Quantity::from_units(110)}};
    n.allocatable = n.capacity;
    s.cluster.emplace_back(std::move(n));
  }
  for (int i = 0; i < pods; ++i) {
    gpusched::Pod p;
    p.metadata.name = "pod-" + std::to_string(i);
    p.metadata.namespace_ = "default";
    gpusched::Container c;
    c.name = "pause";
    c.requests = {{"cpu", Quantity(100)},
                  {"memory", Quantity::from_units(500LL << 20, QuantityFormat::BinarySI)}};
    c.limits = c.requests;
    p.spec.containers.push_back(std::move(c));
    s.cluster.emplace_back(std::move(p));
  }
  return s;
}

long peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // Linux reports KiB
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::pair<int, int>> sizes;
  for (int i = 1; i + 1 < argc; i += 2)
    sizes.emplace_back(std::atoi(argv[i]), std::atoi(argv[i + 1]));
  if (sizes.empty()) sizes = {{500, 1000}, {5000, 10000}};
  for (const auto& [nodes, pods] : sizes) {
    const gpusched::Scenario scenario = scheduling_basic(nodes, pods);
    const auto start = std::chrono::steady_clock::now();
    const gpusched::SimulationResult result = gpusched::simulate(scenario);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    long scheduled = 0;
    for (const auto& pod : result.pods) scheduled += pod.pod.spec.node_name.empty() ? 0 : 1;
    std::printf(
        "{\"workload\":\"SchedulingBasic\",\"nodes\":%d,\"pods\":%d,\"scheduled\":%ld,"
        "\"seconds\":%.3f,\"pods_per_second\":%.0f,\"peak_rss_mib\":%ld}\n",
        nodes, pods, scheduled, seconds, static_cast<double>(scheduled) / seconds, peak_rss_mib());
  }
  return 0;
}
