// The human report: kubectl's own layouts (get pods -o wide, describe pod events, describe node)
// so that people read it the way they read their cluster.

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/report/writers.hpp"
#include "report/kubectl_cells.hpp"
#include "report/tab_writer.hpp"

namespace gpusched::report {
namespace {

/// Ages never go negative, even for a record stamped after the clock stopped.
std::string age(TimeMs now, TimeMs then) {
  return format_duration(std::max<TimeMs>(0, now - then));
}

/// A pod's AGE: since the simulator created it, or since its creationTimestamp.
std::string pod_age(const PodRecord& record, TimeMs now) {
  return age(now, record.created.value_or(record.pod.metadata.creation_ms));
}

std::string_view trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

void write_pods(std::string& out, const SimulationResult& result) {
  out += "PODS\n";
  if (result.pods.empty()) {
    out += "<none>\n";
    return;
  }
  std::string table = "NAMESPACE\tNAME\tSTATUS\tNODE\tNOMINATED NODE\tAGE\n";
  for (const PodRecord& record : result.pods) {
    const Pod& pod = record.pod;
    table += pod.metadata.namespace_ + '\t' + pod.metadata.name + '\t' + pod_status(record) + '\t' +
             or_none(pod.spec.node_name) + '\t' + or_none(pod.status.nominated_node_name) + '\t' +
             pod_age(record, result.time) + '\n';
  }
  append_aligned_tabs(out, table, kGetSettings);
}

std::string_view kind_of_ref(std::string_view object) {
  return object.substr(0, object.find('/'));
}

/// The reporting component (`From` column): the scheduler for its own reasons, otherwise the
/// controller of the object's kind, the cluster autoscaler for its scale-ups, and the kubelet
/// for everything else that happens to a pod.
std::string_view event_source(const EventRecord& event) {
  const std::string_view kind = kind_of_ref(event.object);
  // Kueue's recorders (cmd/kueue/main.go, jobframework/setup.go): its scheduler's on Workloads
  // (its preemptor's `Preempted` included), the batch/job integration's on the Jobs it manages,
  // the pod integration's on the pods it manages.
  if (kind == "Workload") return "kueue-admission";
  static constexpr std::string_view kSchedulerReasons[] = {"Scheduled", "FailedScheduling",
                                                           "Preempted"};
  if (std::find(std::begin(kSchedulerReasons), std::end(kSchedulerReasons), event.reason) !=
      std::end(kSchedulerReasons)) {
    return "default-scheduler";
  }
  static constexpr std::string_view kKueueJobReasons[] = {"CreatedWorkload", "Started", "Stopped",
                                                          "FinishedWorkload"};
  if (kind == "Job" && std::find(std::begin(kKueueJobReasons), std::end(kKueueJobReasons),
                                 event.reason) != std::end(kKueueJobReasons)) {
    return "batch/job-kueue-controller";
  }
  // The pod integration's recorder ("pod-" + the manager's name + "-controller") on the pods it
  // manages, its ErrWorkloadCompose for a group still short of pods too.
  if (kind == "Pod" && (event.reason == "ErrWorkloadCompose" ||
                        std::find(std::begin(kKueueJobReasons), std::end(kKueueJobReasons),
                                  event.reason) != std::end(kKueueJobReasons))) {
    return "pod-kueue-controller";
  }
  if (kind == "Deployment") return "deployment-controller";
  if (kind == "ReplicaSet") return "replicaset-controller";
  if (kind == "DaemonSet") return "daemonset-controller";
  if (kind == "StatefulSet") return "statefulset-controller";
  if (kind == "Job") return "job-controller";
  // The cluster autoscaler's recorder (utils/kubernetes/events.go) on the pods a scale-up is for.
  if (event.reason == "TriggeredScaleUp") return "cluster-autoscaler";
  // The resourceclaim controller's recorder (pkg/controller/resourceclaim, component
  // "resource_claim") on the pods whose claims it cannot create.
  if (event.reason == "FailedResourceClaimCreation") return "resource_claim";
  return "kubelet";
}

/// The Age column of describe.DescribeEvents: `12s`, or `30s (x3 over 2m)` for a series.
std::string event_age(const EventRecord& event, TimeMs now) {
  if (event.count <= 1) return age(now, event.time);
  return age(now, event.last_time) + " (x" + std::to_string(event.count) + " over " +
         age(now, event.time) + ")";
}

void write_events(std::string& out, const SimulationResult& result) {
  out += "EVENTS\n";
  if (result.events.empty()) {
    out += "<none>\n";
    return;
  }
  std::vector<std::string_view> objects;
  std::map<std::string_view, std::vector<const EventRecord*>> by_object;
  for (const EventRecord& event : result.events) {
    auto& group = by_object[event.object];
    if (group.empty()) objects.push_back(event.object);
    group.push_back(&event);
  }
  std::string text;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    auto& group = by_object[objects[i]];
    // kubectl sorts an object's events by last timestamp (event.SortableEvents).
    std::stable_sort(group.begin(), group.end(), [](const EventRecord* a, const EventRecord* b) {
      return a->last_time < b->last_time;
    });
    if (i > 0) text += '\n';
    text += std::string(objects[i]) + ":\n";
    text += "  Type\tReason\tAge\tFrom\tMessage\n";
    text += "  ----\t------\t----\t----\t-------\n";
    for (const EventRecord* event : group) {
      text += "  " + event->type + '\t' + event->reason + '\t' + event_age(*event, result.time) +
              '\t' + std::string(event_source(*event)) + '\t' + std::string(trim(event->message)) +
              '\n';
    }
  }
  append_aligned_tabs(out, text, kDescribeSettings);
}

/// printTaintsMultiline: sorted by effect then key, the first on the title line.
void describe_taints(std::string& text, const Node& node) {
  std::vector<Taint> taints = node.effective_taints();
  if (taints.empty()) {
    text += "Taints:\t<none>\n";
    return;
  }
  std::sort(taints.begin(), taints.end(), [](const Taint& a, const Taint& b) {
    const std::string key_a = std::string(to_string(a.effect)) + "," + a.key;
    const std::string key_b = std::string(to_string(b.effect)) + "," + b.key;
    return key_a < key_b;
  });
  for (std::size_t i = 0; i < taints.size(); ++i) {
    text += (i == 0 ? "Taints:\t" : "\t") + to_string(taints[i]) + '\n';
  }
}

void describe_resource_list(std::string& text, std::string_view title, const ResourceList& list) {
  if (list.empty()) return;
  text += std::string(title) + ":\n";
  for (const auto& [name, quantity] : list)
    text += "  " + name + ":\t" + quantity.to_string() + '\n';
}

Quantity quantity_or_zero(const ResourceList& list, std::string_view name) {
  const auto it = list.find(name);
  return it == list.end() ? Quantity() : it->second;
}

/// `<request> (<percent>%)` as describeNodeResource computes it: cpu in milli-units, the
/// others in whole units (Quantity.Value), truncated toward zero, 0% with nothing allocatable.
std::string with_percent(const Quantity& request, const Quantity& allocatable, bool milli) {
  const std::int64_t req = milli ? request.milli() : request.value();
  const std::int64_t alloc = milli ? allocatable.milli() : allocatable.value();
  std::int64_t percent = 0;
  if (alloc != 0) {
    percent =
        static_cast<std::int64_t>(static_cast<double>(req) / static_cast<double>(alloc) * 100);
  }
  return request.to_string() + " (" + std::to_string(percent) + "%)";
}

bool is_standard_container_resource(std::string_view name) {
  return name == resource::kCpu || name == resource::kMemory ||
         name == resource::kEphemeralStorage || resource::is_hugepages(name);
}

void describe_non_terminated_pods(std::string& text, const NodeRecord& record,
                                  const ResourceList& allocatable, const SimulationResult& result,
                                  const std::map<std::string, const PodRecord*>& pods_by_key) {
  text += "Non-terminated Pods:\t(" + std::to_string(record.pods.size()) + " in total)\n";
  if (record.pods.empty()) return;
  text += "  Namespace\tName\tCPU Requests\tMemory Requests\tAge\n";
  text += "  ---------\t----\t------------\t---------------\t---\n";
  const Quantity cpu = quantity_or_zero(allocatable, resource::kCpu);
  const Quantity memory = quantity_or_zero(allocatable, resource::kMemory);
  const ResourceList no_requests;
  for (const std::string& key : record.pods) {
    const auto slash = key.find('/');
    const auto found = pods_by_key.find(key);
    const PodRecord* pod = found == pods_by_key.end() ? nullptr : found->second;
    const ResourceList& requests = pod != nullptr ? pod->requests.get() : no_requests;
    text += "  " + key.substr(0, slash) + '\t' + key.substr(slash + 1) + '\t' +
            with_percent(quantity_or_zero(requests, resource::kCpu), cpu, true) + '\t' +
            with_percent(quantity_or_zero(requests, resource::kMemory), memory, false) + '\t';
    if (pod != nullptr) text += pod_age(*pod, result.time);
    text += '\n';
  }
}

/// describe.describeNodeResource's `Allocated resources` table (requests only: the replay has
/// no use for limits): cpu, memory and ephemeral-storage always, then hugepages, then extended
/// resources without a percentage, each group sorted by name.
void describe_allocated(std::string& text, const NodeRecord& record,
                        const ResourceList& allocatable) {
  text += "Allocated resources:\n";
  text += "  Resource\tRequests\n";
  text += "  --------\t--------\n";
  const auto row = [&](std::string_view name, bool milli) {
    text += "  " + std::string(name) + '\t' +
            with_percent(quantity_or_zero(record.allocated, name),
                         quantity_or_zero(allocatable, name), milli) +
            '\n';
  };
  row(resource::kCpu, true);
  row(resource::kMemory, false);
  row(resource::kEphemeralStorage, false);
  for (const auto& [name, quantity] : allocatable) {
    if (resource::is_hugepages(name)) row(name, false);
  }
  for (const auto& [name, quantity] : allocatable) {
    if (is_standard_container_resource(name) || name == resource::kPods) continue;
    text += "  " + name + '\t' + quantity_or_zero(record.allocated, name).to_string() + '\n';
  }
}

void write_nodes(std::string& out, const SimulationResult& result) {
  out += "NODES\n";
  if (result.nodes.empty()) {
    out += "<none>\n";
    return;
  }
  std::map<std::string, const PodRecord*> pods_by_key;
  for (const PodRecord& record : result.pods) pods_by_key.emplace(record.pod.key(), &record);

  for (std::size_t i = 0; i < result.nodes.size(); ++i) {
    const NodeRecord& record = result.nodes[i];
    const Node& node = record.node;
    // kubectl falls back to capacity when a node reports no allocatable.
    const ResourceList& allocatable = node.allocatable.empty() ? node.capacity : node.allocatable;
    if (i > 0) out += '\n';
    std::string text = "Name:\t" + node.metadata.name + '\n';
    describe_taints(text, node);
    text += std::string("Unschedulable:\t") + (node.unschedulable ? "true" : "false") + '\n';
    describe_resource_list(text, "Capacity", node.capacity);
    describe_resource_list(text, "Allocatable", node.allocatable);
    // Flushed here because kubectl has `System Info:` between the allocatable list and the pods
    // table; without a break the tabwriter would align the two as one block.
    append_aligned_tabs(out, text, kDescribeSettings);
    text.clear();
    describe_non_terminated_pods(text, record, allocatable, result, pods_by_key);
    describe_allocated(text, record, allocatable);
    append_aligned_tabs(out, text, kDescribeSettings);
  }
}

/// Which devices the kubelet gave each pod and which pods each physical GPU serves: what
/// `kubectl exec -- nvidia-smi -L` and the device plugin's logs would tell.
void write_devices(std::string& out, const SimulationResult& result) {
  std::string pods = "NAMESPACE\tNAME\tNODE\tDEVICES\tNVIDIA_VISIBLE_DEVICES\n";
  bool any = false;
  for (const PodRecord& record : result.pods) {
    if (record.devices.empty()) continue;
    any = true;
    std::string devices;
    for (const auto& [resource, ids] : record.devices) {
      if (!devices.empty()) devices += ' ';
      devices += resource + "=" + std::to_string(ids.size());
    }
    pods += record.pod.metadata.namespace_ + '\t' + record.pod.metadata.name + '\t' +
            record.pod.spec.node_name + '\t' + devices + '\t' + record.visible_devices + '\n';
  }
  std::string gpus = "NODE\tGPU\tUUID\tHEALTH\tPODS\n";
  for (const NodeRecord& record : result.nodes) {
    for (const GpuRecord& gpu : record.gpus) {
      any = true;
      std::string holders;
      for (const std::string& pod : gpu.pods) holders += (holders.empty() ? "" : ",") + pod;
      gpus += record.node.metadata.name + '\t' + std::to_string(gpu.index) + '\t' + gpu.uuid +
              '\t' + (gpu.healthy ? "Healthy" : "Unhealthy") + '\t' +
              (holders.empty() ? "<none>" : holders) + '\n';
    }
  }
  if (!any) return;
  out += "\nGPU DEVICES\n";
  append_aligned_tabs(out, pods, kGetSettings);
  out += '\n';
  append_aligned_tabs(out, gpus, kGetSettings);
}

/// The GPUs of GPU-sharing nodes: each GPU's used milli and the pods holding it.
void write_shared_gpus(std::string& out, const SimulationResult& result) {
  std::string table = "NODE\tGPU\tUSED MILLI\tPODS\n";
  bool any = false;
  for (const NodeRecord& record : result.nodes) {
    for (const SharedGpuRecord& gpu : record.shared_gpus) {
      any = true;
      std::string holders;
      for (const auto& [pod, milli] : gpu.pods)
        holders += (holders.empty() ? "" : ",") + pod + "=" + std::to_string(milli);
      table += record.node.metadata.name + '\t' + std::to_string(gpu.index) + '\t' +
               std::to_string(gpu.used_milli) + '\t' + (holders.empty() ? "<none>" : holders) +
               '\n';
    }
  }
  if (!any) return;
  out += "\nSHARED GPUS\n";
  append_aligned_tabs(out, table, kGetSettings);
}

/// Who preempted whom, and the GPU time each victim had accumulated (the work it loses).
void write_preemptions(std::string& out, const SimulationResult& result) {
  if (result.preemptions.empty()) return;
  out += "\nPREEMPTIONS\n";
  std::string table = "TIME\tPREEMPTOR\tNODE\tVICTIM\tPRIORITY\tGPUS\tRAN\tLOST GPU TIME\n";
  std::size_t victims = 0;
  std::int64_t lost = 0;
  for (const PreemptionRecord& p : result.preemptions) {
    for (const VictimRecord& v : p.victims) {
      table += format_duration(p.time) + '\t' + p.preemptor + '\t' + p.node + '\t' + v.pod + '\t' +
               std::to_string(v.priority) + '\t' + std::to_string(v.gpus) + '\t' +
               format_duration(v.ran) + '\t' + format_duration(v.lost_gpu_ms()) + '\n';
      ++victims;
      lost += v.lost_gpu_ms();
    }
  }
  append_aligned_tabs(out, table, kGetSettings);
  out += std::to_string(result.preemptions.size()) + " preemption(s), " + std::to_string(victims) +
         " victim(s), " + format_duration(lost) + " of GPU time lost\n";
}

/// `kubectl get workloads` (the CRD's printer columns), with the QuotaReserved message of those
/// waiting.
void write_workloads(std::string& out, const SimulationResult& result) {
  if (result.workloads.empty() && result.cluster_queues.empty()) return;
  out += "\nWORKLOADS\n";
  if (result.workloads.empty()) {
    out += "<none>\n";
  } else {
    std::string table = "NAMESPACE\tNAME\tQUEUE\tRESERVED IN\tADMITTED\tFINISHED\tMESSAGE\n";
    for (const WorkloadRecord& wl : result.workloads) {
      const auto status = [&](std::string_view type) {
        const Condition* c = find_condition(wl.conditions, type);
        return c != nullptr ? c->status : std::string();
      };
      std::string reserved_in;
      std::string message;
      for (const kueue::Condition& c : wl.conditions) {
        if (c.type != "QuotaReserved") continue;
        if (c.status == "True") reserved_in = wl.cluster_queue.value_or("");
        if (c.status == "False") message = c.message;
      }
      table += wl.namespace_ + '\t' + wl.name + '\t' + wl.queue_name + '\t' + reserved_in + '\t' +
               status("Admitted") + '\t' + status("Finished") + '\t' + message + '\n';
    }
    append_aligned_tabs(out, table, kGetSettings);
  }
  out += "\nCLUSTER QUEUES\n";
  std::string table = "NAME\tCOHORT\tPENDING WORKLOADS\tADMITTED WORKLOADS\tUSAGE\n";
  for (const ClusterQueueRecord& cq : result.cluster_queues) {
    std::string usage;
    for (const auto& [flavor, resources] : cq.usage) {
      for (const auto& [resource, q] : resources) {
        if (!usage.empty()) usage += ", ";
        usage += flavor + "/" + resource + "=" + q.to_string();
      }
    }
    table += cq.name + '\t' + cq.cohort.value_or("") + '\t' + std::to_string(cq.pending_workloads) +
             '\t' + std::to_string(cq.admitted_workloads) + '\t' + usage + '\n';
  }
  append_aligned_tabs(out, table, kGetSettings);
}

/// scheduling.k8s.io PodGroups (Kubernetes 1.36): the gang's minCount and the scheduler's
/// PodGroupScheduled condition.
void write_pod_groups(std::string& out, const SimulationResult& result) {
  if (result.pod_groups.empty()) return;
  out += "\nPOD GROUPS\n";
  std::string table = "NAMESPACE\tNAME\tMIN COUNT\tSCHEDULED\tREASON\tMESSAGE\n";
  for (const PodGroupRecord& group : result.pod_groups) {
    const Condition* c = find_condition(group.conditions, "PodGroupScheduled");
    table += group.namespace_ + '\t' + group.name + '\t' +
             (group.min_count ? std::to_string(*group.min_count) : std::string("<none>")) + '\t' +
             (c != nullptr ? c->status + '\t' + c->reason + '\t' + c->message : "\t\t") + '\n';
  }
  append_aligned_tabs(out, table, kGetSettings);
}

void write_expectations(std::string& out, const SimulationResult& result) {
  if (result.expectations.empty()) return;
  out += "\nEXPECTATIONS\n";
  std::size_t holding = 0;
  for (const ExpectationResult& expectation : result.expectations) {
    if (expectation.ok) ++holding;
    const std::string pointer = expectation.pointer.empty()
                                    ? "/expect/" + std::to_string(expectation.index)
                                    : expectation.pointer;
    out += (expectation.ok ? "ok   " : "FAIL ") + pointer + " at " + expectation.at + ": " +
           expectation.message + '\n';
  }
  out += std::to_string(holding) + " of " + std::to_string(result.expectations.size()) +
         " expectations hold\n";
}

}  // namespace

void write_table(std::ostream& out, const SimulationResult& result) {
  // Section by section: the report of a million pods is most of a gigabyte, which a string of
  // all of it would hold once more (with the slack of its doublings) before it is written.
  const auto section = [&](void (*write)(std::string&, const SimulationResult&)) {
    std::string text;
    write(text, result);
    out << text;
  };
  out << "Scenario " << result.scenario << " (" << result.source << ") at "
      << format_duration(result.time) << "\n\n";
  section(write_pods);
  out << '\n';
  section(write_events);
  out << '\n';
  section(write_nodes);
  section(write_devices);
  section(write_shared_gpus);
  section(write_preemptions);
  section(write_pod_groups);
  section(write_workloads);
  section(write_expectations);
}

}  // namespace gpusched::report
