// The Alibaba openb trace as a scenario (docs/openb.md): the node list becomes the cluster at
// 0s, each pod an apply at its creation second with the run time the trace recorded.

#include "gpusched/io/openb.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <string_view>
#include <utility>
#include <vector>

#include "devices/node_devices.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/error.hpp"
#include "gpusched/model/well_known.hpp"
#include "io/api_validation.hpp"
#include "io/cluster_json.hpp"
#include "io/csv_table.hpp"
#include "io/input_text.hpp"
#include "io/timeline_json.hpp"

namespace gpusched::io {
namespace {

// The well-known hostname label the kubelet sets; where the trace's QoS class goes.
constexpr std::string_view kQosLabel = "openb.alibaba.com/qos";

const std::vector<std::string_view> kNodeColumns = {"sn", "cpu_milli", "memory_mib", "gpu",
                                                    "model"};
enum NodeColumn : std::size_t { kSn, kNodeCpu, kNodeMemory, kGpu, kModel };

const std::vector<std::string_view> kPodColumns = {
    "name", "cpu_milli", "memory_mib",    "num_gpu",       "gpu_milli",     "gpu_spec",
    "qos",  "pod_phase", "creation_time", "deletion_time", "scheduled_time"};
enum PodColumn : std::size_t {
  kName,
  kCpu,
  kMemory,
  kNumGpu,
  kGpuMilli,
  kGpuSpec,
  kQos,
  kPhase,
  kCreation,
  kDeletion,
  kScheduled
};

// Bounds that keep every quantity within int64 milli-units (a MiB is 2^20 bytes of 1000
// milli-units each) and every time within a Go duration (int64 nanoseconds), since times are
// written as durations (`at`, the run-duration annotation).
constexpr std::int64_t kMaxMilli = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxUnits = kMaxMilli / 1000;
constexpr std::int64_t kMaxMib = kMaxUnits >> 20;
constexpr std::int64_t kMaxSeconds = kMaxMilli / 1'000'000'000;

std::string place(const CsvTable& table, std::size_t row) {
  return table.file() + ":" + std::to_string(table.line(row));
}

Quantity memory_of(std::int64_t mib) {
  return Quantity::from_units(mib << 20, QuantityFormat::BinarySI);
}

/// The API server's rules for object names (DNS-1123 subdomains) and label values.
void check_name(const CsvTable& table, std::size_t row, std::size_t column) {
  const std::string name(table.field(row, column));
  for (const std::string& message : dns1123_subdomain_errors(name)) {
    table.fail(row, column, invalid_value(name, message));
  }
}
void check_label_value(const CsvTable& table, std::size_t row, std::size_t column) {
  const std::string value(table.field(row, column));
  for (const std::string& message : label_value_errors(value)) {
    table.fail(row, column, invalid_value(value, message));
  }
}

/// Refuses a name already used on an earlier line of the same table.
void check_unique(const CsvTable& table, std::size_t row, std::size_t column,
                  std::map<std::string_view, int>& seen, std::string_view kind) {
  const std::string_view name = table.field(row, column);
  const auto [it, inserted] = seen.emplace(name, table.line(row));
  if (!inserted) {
    table.fail(row, column,
               "duplicate " + std::string(kind) + " \"" + std::string(name) + "\": also on line " +
                   std::to_string(it->second));
  }
}

Node read_node(const CsvTable& table, std::size_t row, OpenbGpus mode = OpenbGpus::Whole) {
  check_name(table, row, kSn);
  check_label_value(table, row, kSn);  // it is also the hostname label
  Node node;
  node.metadata.name = std::string(table.field(row, kSn));
  node.metadata.labels.emplace(well_known::kHostnameLabel, node.metadata.name);
  node.capacity.emplace(resource::kCpu, Quantity(table.integer(row, kNodeCpu, kMaxMilli)));
  node.capacity.emplace(resource::kMemory, memory_of(table.integer(row, kNodeMemory, kMaxMib)));
  node.capacity.emplace(resource::kPods, Quantity::from_units(resource::kDefaultMaxPods));
  // The device model's bound on GPUs per node, so that such a node is refused here rather than
  // when replayed.
  const std::int64_t gpus = table.integer(row, kGpu, devices::kMaxGpusPerNode);
  const std::string_view model = table.field(row, kModel);
  if (gpus > 0 && mode == OpenbGpus::Shared) {
    // As the artifact's node YAML: the GPUs in milli for Open-Gpu-Share, the model as a label.
    node.capacity.emplace(gpu_share_names::kGpuCountResource, Quantity::from_units(gpus));
    node.capacity.emplace(gpu_share_names::kGpuMilliResource, Quantity::from_units(gpus * 1000));
    if (!model.empty()) {
      check_label_value(table, row, kModel);
      node.metadata.labels.emplace(gpu_share_names::kGpuModelLabel, std::string(model));
    }
  } else if (gpus > 0) {
    node.capacity.emplace(resource::kGpu, Quantity::from_units(gpus));
    // With the model, the labels GPU Feature Discovery sets declare the GPUs as hardware, so
    // that each pod gets device IDs; without it the node only counts them.
    if (!model.empty()) {
      check_label_value(table, row, kModel);
      node.metadata.labels.emplace(well_known::kGpuProductLabel, std::string(model));
      node.metadata.labels.emplace(well_known::kGpuCountLabel, std::to_string(gpus));
    }
  }
  node.allocatable = node.capacity;
  return node;
}

/// `A|B` -> required node affinity nvidia.com/gpu.product In [A, B].
NodeAffinity gpu_spec_affinity(const CsvTable& table, std::size_t row) {
  std::string_view spec = table.field(row, kGpuSpec);
  SelectorRequirement requirement{
      std::string(well_known::kGpuProductLabel), SelectorOperator::In, {}};
  while (true) {
    const std::size_t bar = spec.find('|');
    const std::string_view model = spec.substr(0, bar);
    if (model.empty()) {
      table.fail(row, kGpuSpec,
                 "\"" + std::string(table.field(row, kGpuSpec)) +
                     "\" names an empty model; models are separated by '|'");
    }
    requirement.values.emplace_back(model);
    if (bar == std::string_view::npos) break;
    spec.remove_prefix(bar + 1);
  }
  NodeAffinity affinity;
  affinity.required = std::vector<NodeSelectorTerm>{NodeSelectorTerm{{std::move(requirement)}, {}}};
  return affinity;
}

/// A pod row and when it is created (virtual milliseconds).
struct TracePod {
  Pod pod;
  TimeMs created = 0;
};

TracePod read_pod(const CsvTable& table, std::size_t row, OpenbGpus mode = OpenbGpus::Whole) {
  check_name(table, row, kName);
  Pod pod;
  pod.metadata.name = std::string(table.field(row, kName));
  pod.metadata.namespace_ = pod_defaults().default_namespace;
  if (const std::string_view qos = table.field(row, kQos); !qos.empty()) {
    check_label_value(table, row, kQos);
    pod.metadata.labels.emplace(kQosLabel, std::string(qos));
  }

  Container container;
  container.name = "main";
  container.requests.emplace(resource::kCpu, Quantity(table.integer(row, kCpu, kMaxMilli)));
  container.requests.emplace(resource::kMemory, memory_of(table.integer(row, kMemory, kMaxMib)));
  const std::int64_t num_gpu = table.integer(row, kNumGpu, kMaxUnits);
  const std::int64_t gpu_milli = table.integer(row, kGpuMilli, 1000);
  if (num_gpu > 1 && gpu_milli < 1000) {
    table.fail(row, kGpuMilli,
               std::to_string(gpu_milli) + " is a share of one GPU, but num_gpu is " +
                   std::to_string(num_gpu));
  }
  if (mode == OpenbGpus::Shared) {
    // data/pod_csv_to_yaml.py's annotations (a pod without milli asks no GPU of Open-Gpu-Share,
    // which its gpu-count alone would not change).
    if (num_gpu > 0 && gpu_milli > 0) {
      pod.metadata.annotations.emplace(gpu_share_names::kGpuMilliAnnotation,
                                       std::to_string(gpu_milli));
      pod.metadata.annotations.emplace(gpu_share_names::kGpuCountAnnotation,
                                       std::to_string(num_gpu));
      if (!table.field(row, kGpuSpec).empty()) {
        pod.metadata.annotations.emplace(gpu_share_names::kGpuModelAnnotation,
                                         std::string(table.field(row, kGpuSpec)));
      }
    }
  } else if (num_gpu > 0) {
    // Whole GPUs: a share of one GPU (gpu_milli < 1000) takes the whole GPU, so num_gpu is the
    // count either way. Extended resources need limit == request.
    container.requests.emplace(resource::kGpu, Quantity::from_units(num_gpu));
    container.limits.emplace(resource::kGpu, Quantity::from_units(num_gpu));
  }
  pod.spec.containers.push_back(std::move(container));
  if (!table.field(row, kGpuSpec).empty() && mode == OpenbGpus::Whole) {
    pod.spec.affinity.mut().node_affinity = gpu_spec_affinity(table, row);
  }

  const std::int64_t created = table.integer(row, kCreation, kMaxSeconds);
  const std::int64_t deleted = table.integer(row, kDeletion, kMaxSeconds);
  if (deleted < created) {
    table.fail(row, kDeletion,
               std::to_string(deleted) + " is before creation_time " + std::to_string(created));
  }
  // A pod the trace never scheduled (empty scheduled_time) lived from its creation to its
  // deletion; should the replay schedule it, it runs that long.
  std::int64_t started = created;
  if (!table.field(row, kScheduled).empty()) {
    started = table.integer(row, kScheduled, kMaxSeconds);
    if (started < created) {
      table.fail(row, kScheduled,
                 std::to_string(started) + " is before creation_time " + std::to_string(created));
    }
    if (deleted < started) {
      table.fail(row, kDeletion,
                 std::to_string(deleted) + " is before scheduled_time " + std::to_string(started));
    }
  }
  // The containers exit after the recorded run time; restartPolicy Never lets the pod end
  // Succeeded instead of restarting them.
  pod.metadata.annotations.emplace(well_known::kRunDurationAnnotation,
                                   format_duration((deleted - started) * 1000));
  pod.spec.restart_policy = "Never";
  return {std::move(pod), created * 1000};
}

}  // namespace

GpuShareTrace read_gpu_share_trace(const std::string& nodes_csv, const std::string& pods_csv) {
  const std::string nodes_text = read_input_file(nodes_csv, nodes_csv);
  const std::string pods_text = read_input_file(pods_csv, pods_csv);
  const CsvTable nodes(nodes_csv, nodes_text, kNodeColumns);
  // The multigpu* variants carry only the first five columns, which is all the artifact reads.
  std::string_view header = std::string_view(pods_text).substr(0, pods_text.find('\n'));
  if (header.starts_with("\xEF\xBB\xBF")) header.remove_prefix(3);
  if (header.ends_with('\r')) header.remove_suffix(1);
  const bool short_form = header == "name,cpu_milli,memory_mib,num_gpu,gpu_milli";
  const CsvTable pods(pods_csv, pods_text,
                      short_form ? std::vector<std::string_view>(kPodColumns.begin(),
                                                                 kPodColumns.begin() + kGpuSpec)
                                 : kPodColumns);
  GpuShareTrace out;
  out.nodes_file = nodes_csv;
  out.pods_file = pods_csv;
  std::map<std::string_view, int> seen;
  for (std::size_t row = 0; row < nodes.size(); ++row) {
    check_unique(nodes, row, kSn, seen, "node");
    // read_node's checks, and the values it would write.
    const Node node = read_node(nodes, row);
    GpuShareNode& n = out.nodes.emplace_back();
    n.name = node.metadata.name;
    n.cpu_milli = nodes.integer(row, kNodeCpu, kMaxMilli);
    n.memory_mib = nodes.integer(row, kNodeMemory, kMaxMib);
    n.gpus = static_cast<std::int32_t>(nodes.integer(row, kGpu, devices::kMaxGpusPerNode));
    n.model = std::string(nodes.field(row, kModel));
  }
  seen.clear();
  for (std::size_t row = 0; row < pods.size(); ++row) {
    check_unique(pods, row, kName, seen, "pod");
    if (!short_form) (void)read_pod(pods, row);  // its checks
    GpuSharePod& p = out.pods.emplace_back();
    p.name = std::string(pods.field(row, kName));
    p.cpu_milli = pods.integer(row, kCpu, kMaxMilli);
    p.memory_mib = pods.integer(row, kMemory, kMaxMib);
    const std::int64_t num_gpu =
        pods.integer(row, kNumGpu, std::numeric_limits<std::int32_t>::max());
    if (num_gpu == 0) continue;
    p.gpu_count = static_cast<std::int32_t>(num_gpu);
    p.gpu_milli = static_cast<std::int32_t>(pods.integer(row, kGpuMilli, 1000));
    if (p.gpu_count > 1 && p.gpu_milli < 1000) {
      pods.fail(row, kGpuMilli,
                std::to_string(p.gpu_milli) + " is a share of one GPU, but num_gpu is " +
                    std::to_string(p.gpu_count));
    }
    if (!short_form) p.gpu_type = std::string(pods.field(row, kGpuSpec));
  }
  return out;
}

Scenario import_openb(const std::string& nodes_csv, const std::string& pods_csv, OpenbGpus mode) {
  const std::string nodes_text = read_input_file(nodes_csv, nodes_csv);
  const std::string pods_text = read_input_file(pods_csv, pods_csv);
  const CsvTable nodes(nodes_csv, nodes_text, kNodeColumns);
  const CsvTable pods(pods_csv, pods_text, kPodColumns);

  Scenario scenario;
  scenario.name = std::filesystem::path(pods_csv).stem().string();
  scenario.source = pods_csv;
  scenario.description = "Alibaba openb trace: " + std::to_string(nodes.size()) + " nodes from " +
                         nodes_csv + ", " + std::to_string(pods.size()) + " pods from " + pods_csv;
  std::map<std::string_view, int> seen;
  for (std::size_t row = 0; row < nodes.size(); ++row) {
    check_unique(nodes, row, kSn, seen, "node");
    scenario.cluster.emplace_back(read_node(nodes, row, mode));
    scenario.cluster_pointers.push_back(place(nodes, row));
  }

  if (mode == OpenbGpus::Shared) {
    // The artifact's scheduler configuration for FGD (generate_config_and_run.py): Open-Gpu-Share
    // among the filters, its score plugin alone at weight 1000.
    Profile& profile = scenario.scheduler.profiles.front();
    profile.plugins.multi_point.enabled.push_back({std::string(names::kOpenGpuShare), 0});
    profile.plugins.score.disabled.push_back({"*", 0});
    profile.plugins.score.enabled.push_back({std::string(names::kFgdScore), 1000});
  }
  std::vector<TracePod> trace;
  trace.reserve(pods.size());
  seen.clear();
  for (std::size_t row = 0; row < pods.size(); ++row) {
    check_unique(pods, row, kName, seen, "pod");
    trace.push_back(read_pod(pods, row, mode));
  }
  // Pods are created in time order, those of one second together and in file order (some
  // sampled variants of the trace are not sorted by creation time).
  std::vector<std::size_t> order(trace.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace[a].created < trace[b].created;
  });
  for (const std::size_t row : order) {
    TracePod& pod = trace[row];
    if (pod.created == 0) {
      scenario.cluster.emplace_back(std::move(pod.pod));
      scenario.cluster_pointers.push_back(place(pods, row));
      continue;
    }
    if (scenario.timeline.empty() || scenario.timeline.back().at != pod.created) {
      Action action;
      action.at = pod.created;
      action.verb = Verb::Apply;
      action.pointer = place(pods, row);
      scenario.timeline.push_back(std::move(action));
    }
    scenario.timeline.back().objects.emplace_back(std::move(pod.pod));
  }
  // The loader's limits, so that the scenario written from this one loads back.
  if (scenario.cluster.size() > kMaxClusterObjects) {
    throw InputError(
        pods_csv, "",
        "the nodes and the pods created at 0 are " + std::to_string(scenario.cluster.size()) +
            " objects; a scenario's cluster holds at most " + std::to_string(kMaxClusterObjects));
  }
  if (scenario.timeline.size() > kMaxTimelineActions) {
    throw InputError(pods_csv, "",
                     "pods are created at " + std::to_string(scenario.timeline.size()) +
                         " distinct times after 0; a scenario's timeline holds at most " +
                         std::to_string(kMaxTimelineActions) + " actions");
  }
  return scenario;
}

}  // namespace gpusched::io
