#include "workloads.hpp"

#include <utility>

namespace bench {
namespace {

using gpusched::Pod;
using gpusched::Quantity;
using gpusched::QuantityFormat;

Quantity mebibytes(std::int64_t mib) {
  return Quantity::from_units(mib << 20, QuantityFormat::BinarySI);
}

gpusched::Node node(const std::string& name, std::int64_t cpu, std::int64_t memory_gib,
                    std::int64_t pods) {
  gpusched::Node n;
  n.metadata.name = name;
  n.capacity = {{"cpu", Quantity::from_units(cpu)},
                {"memory", mebibytes(memory_gib << 10)},
                {"pods", Quantity::from_units(pods)}};
  n.allocatable = n.capacity;  // SetDefaults_NodeStatus: allocatable defaults to capacity
  return n;
}

// templates/node-default.yaml
gpusched::Node node_default(int i) {
  return node("scheduler-perf-" + std::to_string(i), 4, 32, 110);
}

Pod pod(const std::string& name, std::int64_t milli_cpu, std::int64_t memory_mib) {
  Pod p;
  p.metadata.name = name;
  p.metadata.namespace_ = "default";
  gpusched::Container c;
  c.name = "pause";
  c.requests = {{"cpu", Quantity(milli_cpu)}, {"memory", mebibytes(memory_mib)}};
  c.limits = c.requests;
  p.spec.containers.push_back(std::move(c));
  return p;
}

// templates/pod-default.yaml
Pod pod_default(const std::string& name) {
  return pod(name, 100, 500);
}

gpusched::Scenario scenario(const std::string& name) {
  gpusched::Scenario s;
  s.name = name;
  s.source = "bench";
  return s;
}

gpusched::Action apply_at(gpusched::TimeMs at, std::size_t index) {
  gpusched::Action action;
  action.at = at;
  action.verb = gpusched::Verb::Apply;
  action.pointer = "/timeline/" + std::to_string(index);
  return action;
}

// The pod templates' `priority: 10` goes through a PriorityClass, as the Priority admission
// plugin wants.
gpusched::PriorityClass priority_class(const std::string& name, std::int32_t value) {
  gpusched::PriorityClass pc;
  pc.metadata.name = name;
  pc.value = value;
  return pc;
}

// Init pods are created at once; the measured ones a second later, after the init pods settled.
constexpr gpusched::TimeMs kMeasureAt = 1000;

Workload with_measured(gpusched::Scenario init, std::vector<gpusched::Action> measured,
                       std::string prefix) {
  Workload w;
  w.baseline = init;
  w.has_baseline = true;
  w.scenario = std::move(init);
  for (auto& action : measured) w.scenario.timeline.push_back(std::move(action));
  w.prefix = std::move(prefix);
  return w;
}

}  // namespace

Workload scheduling_basic(int nodes, int init_pods, int measure_pods) {
  gpusched::Scenario s = scenario("SchedulingBasic");
  for (int i = 0; i < nodes; ++i) s.cluster.emplace_back(node_default(i));
  for (int i = 0; i < init_pods; ++i)
    s.cluster.emplace_back(pod_default("init-" + std::to_string(i)));
  gpusched::Action measured = apply_at(kMeasureAt, 0);
  for (int i = 0; i < measure_pods; ++i)
    measured.objects.emplace_back(pod_default("pod-" + std::to_string(i)));
  std::vector<gpusched::Action> actions;
  actions.push_back(std::move(measured));
  return with_measured(std::move(s), std::move(actions), "pod-");
}

Workload claim_template(int nodes, int init_pods, int measure_pods) {
  namespace dra = gpusched::dra;
  constexpr int kDevicesPerNode = 10;
  gpusched::Scenario s = scenario("SchedulingWithResourceClaimTemplate");
  dra::DeviceClass device_class;
  device_class.metadata.name = "test-class";
  device_class.selectors.push_back({"device.driver == 'test-driver.cdi.k8s.io'"});
  s.cluster.emplace_back(std::move(device_class));
  for (int i = 0; i < nodes; ++i) {
    s.cluster.emplace_back(node_default(i));
    dra::ResourceSlice slice;
    const std::string name = "scheduler-perf-" + std::to_string(i);
    slice.metadata.name = name + "-test-driver";
    slice.driver = "test-driver.cdi.k8s.io";
    slice.node_name = name;
    slice.pool = {name, 1, 1};
    for (int d = 0; d < kDevicesPerNode; ++d) {
      dra::Device device;
      device.name = "device-" + std::to_string(d);
      slice.devices.push_back(std::move(device));
    }
    s.cluster.emplace_back(std::move(slice));
  }
  dra::ResourceClaimTemplate claim_template;
  claim_template.metadata.name = "test-claim-template";
  claim_template.metadata.namespace_ = "default";
  dra::DeviceRequest request;
  request.name = "req-0";
  request.exactly.emplace().device_class_name = "test-class";
  claim_template.spec.requests.push_back(std::move(request));
  s.cluster.emplace_back(std::move(claim_template));
  for (int i = 0; i < init_pods; ++i)
    s.cluster.emplace_back(pod_default("init-" + std::to_string(i)));
  gpusched::Action measured = apply_at(kMeasureAt, 0);
  for (int i = 0; i < measure_pods; ++i) {
    Pod p = pod_default("pod-" + std::to_string(i));
    p.spec.resource_claims.push_back({"resource", std::nullopt, "test-claim-template"});
    measured.objects.emplace_back(std::move(p));
  }
  std::vector<gpusched::Action> actions;
  actions.push_back(std::move(measured));
  return with_measured(std::move(s), std::move(actions), "pod-");
}

Workload preemption_basic(int nodes, int init_pods, int measure_pods) {
  gpusched::Scenario s = scenario("PreemptionBasic");
  s.cluster.emplace_back(priority_class("high", 10));
  for (int i = 0; i < nodes; ++i) s.cluster.emplace_back(node_default(i));
  for (int i = 0; i < init_pods; ++i) {
    // templates/pod-low-priority.yaml
    Pod p = pod("low-" + std::to_string(i), 900, 500);
    p.spec.termination_grace_period_seconds = 0;
    s.cluster.emplace_back(std::move(p));
  }
  gpusched::Action measured = apply_at(kMeasureAt, 0);
  for (int i = 0; i < measure_pods; ++i) {
    // templates/pod-high-priority.yaml
    Pod p = pod("high-" + std::to_string(i), 3000, 500);
    p.spec.priority_class_name = "high";
    measured.objects.emplace_back(std::move(p));
  }
  std::vector<gpusched::Action> actions;
  actions.push_back(std::move(measured));
  return with_measured(std::move(s), std::move(actions), "high-");
}

Workload unschedulable(int nodes, int init_pods, int measure_pods) {
  gpusched::Scenario s = scenario("Unschedulable");
  s.cluster.emplace_back(priority_class("high", 10));
  for (int i = 0; i < nodes; ++i) s.cluster.emplace_back(node_default(i));
  for (int i = 0; i < init_pods; ++i)
    s.cluster.emplace_back(pod_default("init-" + std::to_string(i)));
  // churn every 200 ms; upstream's threshold of 600 pods/s is 120 measured pods per interval.
  constexpr gpusched::TimeMs kInterval = 200;
  constexpr int kPodsPerInterval = 120;
  std::vector<gpusched::Action> actions;
  for (int created = 0, tick = 0; created < measure_pods; ++tick) {
    gpusched::Action action = apply_at(kMeasureAt + tick * kInterval, actions.size());
    // templates/pod-high-priority-large-cpu.yaml
    Pod large = pod("churn-" + std::to_string(tick), 9000, 500);
    large.spec.priority_class_name = "high";
    action.objects.emplace_back(std::move(large));
    for (int i = 0; i < kPodsPerInterval && created < measure_pods; ++i, ++created)
      action.objects.emplace_back(pod_default("pod-" + std::to_string(created)));
    actions.push_back(std::move(action));
  }
  return with_measured(std::move(s), std::move(actions), "pod-");
}

Workload extended_resource(int nodes, int pods) {
  gpusched::Scenario s = scenario("SchedulingWithExtendedResource");
  for (int i = 0; i < nodes; ++i) {
    // misc/templates/node-with-extended-resource.yaml
    gpusched::Node n = node("scheduler-perf-extended-resource-" + std::to_string(i), 4, 32, 110);
    n.metadata.labels = {{"node-with-extended-resource", "true"}};
    n.capacity.emplace("foo.com/bar-" + std::to_string(i), Quantity::from_units(1));
    n.allocatable = n.capacity;
    s.cluster.emplace_back(std::move(n));
  }
  Workload w;
  w.scenario = std::move(s);
  for (int i = 0; i < pods; ++i) {
    // misc/templates/pod-with-extended-resource.yaml
    Pod p;
    p.metadata.name = "test-extended-resource-" + std::to_string(i);
    p.metadata.namespace_ = "test";
    gpusched::Container c;
    c.name = "pause";
    c.limits = {{"foo.com/bar-" + std::to_string(i), Quantity::from_units(1)}};
    c.requests = c.limits;
    p.spec.containers.push_back(std::move(c));
    w.scenario.cluster.emplace_back(std::move(p));
  }
  w.prefix = "test-extended-resource-";
  return w;
}

Workload gpu_mix(int nodes, int pods) {
  gpusched::Scenario s = scenario("GpuMix");
  for (int i = 0; i < nodes; ++i) {
    gpusched::Node n = node("gpu-" + std::to_string(i), 224, 2048, 110);
    n.metadata.labels = {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                         {"nvidia.com/gpu.count", "8"},
                         {"nvidia.com/gpu.memory", "81559"}};
    n.metadata.annotations = {{"gpusched.io/gpu-topology", "hgx-h100"}};
    s.cluster.emplace_back(std::move(n));
  }
  Workload w;
  w.scenario = std::move(s);
  for (int i = 0; i < pods; ++i) {
    // 40 % one GPU, 30 % two, 20 % four, 10 % eight.
    const int slot = i % 10;
    const int gpus = slot < 4 ? 1 : slot < 7 ? 2 : slot < 9 ? 4 : 8;
    Pod p = pod("train-" + std::to_string(i), 8000 * gpus, 65536 * gpus);
    p.spec.containers.mut().front().limits.emplace("nvidia.com/gpu", Quantity::from_units(gpus));
    p.spec.containers.mut().front().requests.emplace("nvidia.com/gpu", Quantity::from_units(gpus));
    w.scenario.cluster.emplace_back(std::move(p));
  }
  w.prefix = "train-";
  return w;
}

Workload scaling_stream(int nodes, int pods) {
  gpusched::Scenario s = scenario("ScalingStream");
  for (int i = 0; i < nodes; ++i)
    s.cluster.emplace_back(node("stream-node-" + std::to_string(i), 16, 64, 110));
  gpusched::Job job;
  job.metadata.name = "stream";
  job.metadata.namespace_ = "default";
  job.parallelism = pods;
  job.completions = pods;
  Pod templ = pod_default("");
  job.template_.metadata.labels = {{"app", "stream"}};
  job.template_.spec = templ.spec;
  job.template_.spec.restart_policy = "Never";
  s.cluster.emplace_back(std::move(job));
  Workload w;
  w.scenario = std::move(s);
  w.prefix = "stream-";
  return w;
}

}  // namespace bench
