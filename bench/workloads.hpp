#pragma once
// The benchmark workloads, built in memory as scenarios: upstream scheduler_perf's
// (test/integration/scheduler_perf/misc/performance-config.yaml, templates/*.yaml), a GPU
// variant, and the scaling streams.

#include <cstdint>
#include <string>

#include "gpusched/gpusched.hpp"

namespace bench {

/// A scenario whose pods named `prefix`* are the measured ones. `baseline` is the same
/// scenario without them (the init phase), so that their cost is the difference of the two
/// runs, as upstream measures only the measured pods.
struct Workload {
  gpusched::Scenario scenario;
  gpusched::Scenario baseline;
  bool has_baseline = false;
  std::string prefix;
};

/// SchedulingBasic: initPods then measurePods of templates/pod-default.yaml (100m, 500Mi) on
/// templates/node-default.yaml nodes (4 CPU, 32Gi, 110 pods).
Workload scheduling_basic(int nodes, int init_pods, int measure_pods);

/// PreemptionBasic: pod-low-priority.yaml (900m, grace 0) fill the nodes, then
/// pod-high-priority.yaml (priority 10, 3 CPU) must each evict three of them.
Workload preemption_basic(int nodes, int init_pods, int measure_pods);

/// Unschedulable: initPods default pods, then measurePods default pods interleaved with
/// pod-high-priority-large-cpu.yaml (9 CPU: fits no node) created every 200 ms. The measured pods
/// arrive at upstream's threshold rate (600 pods/s), so the churn keeps its upstream proportion.
Workload unschedulable(int nodes, int init_pods, int measure_pods);

/// SchedulingWithExtendedResource: node i advertises foo.com/bar-i: 1 and pod i requests it, so
/// each pod fits exactly one node.
Workload extended_resource(int nodes, int pods);

/// SchedulingWithResourceClaimTemplate
/// (test/integration/scheduler_perf/dra/performance-config.yaml, 5000pods_500nodes): `nodes` nodes
/// whose driver publishes 10 devices each in one ResourceSlice (the test driver's
/// maxClaimsPerNode), a DeviceClass, a ResourceClaimTemplate of one device, `init_pods` default
/// pods, then `measure_pods` pods with a claim from the template, which the resourceclaim
/// controller makes as each pod appears.
Workload claim_template(int nodes, int init_pods, int measure_pods);

/// 8-GPU nodes (GFD labels, HGX H100 NVLink topology) and a mix of 1/2/4/8-GPU pods
/// (40/30/20/10 %).
Workload gpu_mix(int nodes, int pods);

/// The scaling stream: `pods` alike pods (one Job, so the scenario stays small at a million) on
/// nodes that hold 110 pods each.
Workload scaling_stream(int nodes, int pods);

}  // namespace bench
