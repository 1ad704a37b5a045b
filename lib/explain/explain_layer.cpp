// The layer of a GPU cluster where an unbound pod's cause lies, and the diagnosis in plain
// words: capacity supply (no node type could hold it), provisioning (nodes that could are not
// Ready or have not advertised their GPUs), or scheduling (room is taken, or policy refuses).
#include <algorithm>
#include <map>

#include "explain/explain_parts.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/devices/template_gpus.hpp"
#include "gpusched/model/resource_list.hpp"
#include "model/decimal.hpp"
#include "model/go_text.hpp"
#include "model/gpu_share_policy.hpp"

namespace gpusched::explain_detail {
namespace {

std::int64_t milli_of(const ResourceList& list, std::string_view name) {
  const auto it = list.find(name);
  return it == list.end() ? 0 : it->second.milli();
}

// What a node offers of a resource when empty: allocatable, and for GPUs at least its hardware
// (a device plugin that has not advertised them, or unhealthy devices, is layer 2's matter).
std::int64_t offered(const Node& node, std::int64_t hardware_gpus, std::string_view name) {
  const std::int64_t allocatable = milli_of(node.allocatable, name);
  if (name != resource::kGpu) return allocatable;
  return std::max({allocatable, milli_of(node.capacity, name), hardware_gpus * 1000});
}

bool holds(const ResourceList& requests, const Node& node, std::int64_t hardware_gpus) {
  return std::all_of(requests.begin(), requests.end(), [&](const auto& entry) {
    return entry.second.milli() <= offered(node, hardware_gpus, entry.first);
  });
}

std::string quantity_text(std::string_view name, std::int64_t milli) {
  return Quantity(milli, resource::default_format(name)).to_string();
}

std::string nodes_word(std::size_t n) {
  return grouped_count(n) + (n == 1 ? " node" : " nodes");
}

// A rejection in plain words: "<n> nodes <with what>".
std::string plain(const VerdictGroup& group) {
  const std::string reasons = joined(group.reasons);
  std::string words;
  if (group.plugin == names::kNodeResourcesFit) {
    words = "with too little free (" + reasons + (group.detail.empty() ? "" : ": " + group.detail) +
            ")";
  } else if (group.plugin == names::kTaintToleration) {
    words = "with a taint it does not tolerate (" + reasons + ")";
  } else if (group.plugin == names::kNodeAffinity) {
    words = "not matching its node selector or required node affinity";
  } else if (group.plugin == names::kNodeUnschedulable) {
    words = "cordoned";
  } else if (group.plugin == names::kNodeName) {
    words = "not the node its spec.nodeName names";
  } else if (group.plugin == names::kNodePorts) {
    words = "with its host port taken";
  } else if (group.plugin == names::kPodTopologySpread) {
    words = "where its topology spread constraints would break (" + reasons + ")";
  } else if (group.plugin == names::kInterPodAffinity) {
    words = "where its pod affinity or anti-affinity is unmet (" + reasons + ")";
  } else {
    words = "rejected by " + group.plugin + " (" + reasons + ")";
  }
  if (!group.also.empty()) words += "; also " + joined(group.also, "; ");
  return nodes_word(group.nodes.size()) + " " + words;
}

std::string preemption_sentence(const AttemptView& view, const Explanation& e) {
  const CycleReport& cycle = e.cycle;
  // A nominated pod waits for the victims of its earlier preemption: the pods of the node being
  // deleted (podTerminatingByPreemption).
  if (const std::string& nominated = view.pod.pod.status.nominated_node_name; !nominated.empty()) {
    std::vector<std::string> leaving;
    for (const PodRecord& r : view.pods) {
      if (r.terminating && r.pod.spec.node_name == nominated) leaving.push_back(r.pod.key());
    }
    return " An earlier preemption nominated it to " + nominated +
           (leaving.empty() ? ""
                            : ", where " + joined(leaving) + " " +
                                  (leaving.size() == 1 ? "is" : "are") + " still terminating") +
           ": it binds there once the room is free.";
  }
  if (!cycle.preemption_refused.empty())
    return " Preemption cannot help: " + cycle.preemption_refused;
  if (!cycle.placement.nominated_node.empty()) {
    return " Preemption makes room on " + cycle.placement.nominated_node + " by evicting " +
           joined(cycle.placement.victims) +
           ": the pod is nominated there and binds once they are gone.";
  }
  if (cycle.preemption.empty()) return "";
  // The most common reason no node was a candidate.
  std::map<std::string, std::size_t> why;
  for (const PreemptionReport& p : cycle.preemption) ++why[p.why_not];
  const auto top = std::max_element(
      why.begin(), why.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return " Preemption cannot help: on " + nodes_word(top->second) + ", " + top->first + ".";
}

// Why a node advertises fewer whole GPUs than it has.
std::string gpus_missing_why(const NodeRecord& node, std::int64_t unhealthy) {
  if (unhealthy > 0) return std::to_string(unhealthy) + " unhealthy";
  const bool mig =
      std::any_of(node.node.allocatable.begin(), node.node.allocatable.end(),
                  [](const auto& r) { return r.first.starts_with("nvidia.com/mig-"); });
  if (mig) return "MIG partitions them: it advertises MIG devices (nvidia.com/mig-*) instead";
  return "the device plugin has not advertised them";
}

// The label keys the pod's nodeSelector and required node affinity select on.
std::vector<std::string> selected_keys(const Pod& pod) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : *pod.spec.node_selector) keys.push_back(key);
  const Affinity& affinity = *pod.spec.affinity;
  if (affinity.node_affinity && affinity.node_affinity->required) {
    for (const NodeSelectorTerm& term : *affinity.node_affinity->required) {
      for (const SelectorRequirement& r : term.match_expressions) keys.push_back(r.key);
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// Whether the pod selects nodes only by GFD's hardware labels (nvidia.com/gpu.product,
// gpu.memory, ...) or the instance type: what it selects is a kind of hardware, not a policy.
bool selects_hardware_only(const Pod& pod) {
  const std::vector<std::string> keys = selected_keys(pod);
  return !keys.empty() && std::all_of(keys.begin(), keys.end(), [](const std::string& key) {
    return key.starts_with("nvidia.com/gpu.") || key == "node.kubernetes.io/instance-type";
  });
}

}  // namespace

bool could_hold(const ResourceList& requests, const NodeRecord& node) {
  return holds(requests, node.node, static_cast<std::int64_t>(node.gpus.size()));
}

bool could_hold(const ResourceList& requests, const NodePool& pool, const Scenario& scenario) {
  return holds(requests, pool.node, template_gpus(pool, scenario.device_plugin));
}

void diagnose_pending(const AttemptView& view, Explanation& e) {
  const ResourceList& requests = *view.pod.requests;
  std::string asks;
  for (const auto& [name, q] : requests) {
    asks += (asks.empty() ? "" : ", ") + name + " " + q.to_string();
  }
  // Devices through Dynamic Resource Allocation: its claims, by the names the pod gives them.
  std::vector<std::string> claims;
  for (const PodResourceClaim& claim : view.pod.pod.spec.resource_claims)
    claims.push_back(claim.name);
  if (!claims.empty()) {
    asks += std::string(asks.empty() ? "" : ", ") + "devices through its resource claim" +
            (claims.size() == 1 ? " " : "s ") + joined(claims, ", ");
  }
  // GPU sharing's annotations (Open-Gpu-Share): a node could hold the pod only with enough GPUs
  // of a model it accepts.
  const GpuShareRequest share = gpu_share_request(view.pod.pod.metadata.annotations, nullptr);
  if (share.gpu_milli > 0) {
    asks += std::string(asks.empty() ? "" : ", ") +
            (share.gpu_milli < 1000 ? std::to_string(share.gpu_milli) + " milli of one GPU"
                                    : std::to_string(share.gpu_count) + " whole GPU(s)") +
            (share.gpu_type.empty() ? "" : " (" + share.gpu_type + ")");
  }
  const auto shares = [&](const NodeRecord& node) {
    if (share.gpu_milli <= 0) return true;
    const auto model = node.node.metadata.labels.find(gpu_share_names::kGpuModelLabel);
    return std::ssize(node.shared_gpus) >= share.gpu_count &&
           gpu_share::type_accepts(share.gpu_type, model == node.node.metadata.labels.end()
                                                       ? std::string_view()
                                                       : std::string_view(model->second));
  };
  if (asks.empty()) asks = "no resources";
  std::vector<const NodeRecord*> holders;
  for (const NodeRecord& node : view.nodes) {
    if (could_hold(requests, node) && shares(node)) holders.push_back(&node);
  }
  std::vector<const NodePool*> pools;
  for (const NodePool& pool : view.scenario.node_pools) {
    if (could_hold(requests, pool, view.scenario)) pools.push_back(&pool);
  }
  std::string rejections;
  for (std::size_t i = 0; i < e.groups.size() && i < 3; ++i)
    rejections += (i ? "; " : " ") + plain(e.groups[i]);
  if (e.groups.size() > 3)
    rejections += "; and " + std::to_string(e.groups.size() - 3) + " more groups";
  if (!rejections.empty()) rejections = " Rejected:" + rejections + ".";

  if (holders.empty()) {
    const bool pool_can_grow =
        std::any_of(pools.begin(), pools.end(), [](const NodePool* p) { return p->staged(); });
    if (pool_can_grow) {
      e.layer = Layer::Provisioning;
      std::vector<std::string> names;
      for (const NodePool* p : pools) names.push_back(p->name);
      e.diagnosis = "It asks for " + asks +
                    ". No node in the cluster now can hold it; only nodes "
                    "of pool " +
                    joined(names) +
                    " can, and none of them is up yet (reserved "
                    "later, still launching, booting or installing the driver, or not yet "
                    "scaled up)." +
                    rejections;
      return;
    }
    e.layer = Layer::CapacitySupply;
    std::string offers;
    for (const auto& [name, q] : requests) {
      std::int64_t most = 0;
      for (const NodeRecord& n : view.nodes)
        most = std::max(most, offered(n.node, static_cast<std::int64_t>(n.gpus.size()), name));
      for (const NodePool& p : view.scenario.node_pools)
        most = std::max(most, offered(p.node, template_gpus(p, view.scenario.device_plugin), name));
      if (most < q.milli())
        offers += (offers.empty() ? "" : ", ") + name + " " + quantity_text(name, most);
    }
    e.diagnosis = "No node type in this scenario can ever hold it: it asks for " + asks +
                  ", and the most any node offers is " + offers +
                  ". A bigger node type is needed (or a smaller request)." + rejections;
    return;
  }

  // Layer 2: a node that could hold the pod, held back only by its own state.
  const std::int64_t need_gpus = milli_of(requests, resource::kGpu);
  std::vector<std::string> unprovisioned;
  for (const NodeRecord* node : holders) {
    const auto report = std::lower_bound(
        e.cycle.nodes.begin(), e.cycle.nodes.end(), node->node.metadata.name,
        [](const NodeReport& r, const std::string& name) { return r.name < name; });
    if (report == e.cycle.nodes.end() || report->name != node->node.metadata.name) continue;
    const std::int64_t allocated = milli_of(node->allocated, resource::kGpu);
    const std::int64_t hardware = static_cast<std::int64_t>(node->gpus.size()) * 1000;
    const std::int64_t advertised = milli_of(node->node.allocatable, resource::kGpu);
    const bool not_ready = !node->node.ready();
    const bool gpus_missing =
        need_gpus > 0 && hardware - allocated >= need_gpus && advertised - allocated < need_gpus;
    if (!not_ready && !gpus_missing) continue;
    // Held back by nothing else: every other failing verdict is the state's own doing.
    const bool only_state =
        std::all_of(report->filters.begin(), report->filters.end(), [&](const FilterVerdict& v) {
          if (!v.failed()) return true;
          if (v.plugin == names::kTaintToleration) {
            return std::all_of(v.reasons.begin(), v.reasons.end(), [](const std::string& r) {
              return r.find("node.kubernetes.io/not-ready") != std::string::npos ||
                     r.find("node.kubernetes.io/unreachable") != std::string::npos;
            });
          }
          return gpus_missing && v.plugin == names::kNodeResourcesFit &&
                 v.reasons == std::vector<std::string>{"Insufficient nvidia.com/gpu"};
        });
    if (!only_state) continue;
    std::string why = node->node.metadata.name + (not_ready ? " is not Ready" : "");
    if (gpus_missing) {
      std::int64_t unhealthy = 0;
      for (const GpuRecord& gpu : node->gpus) unhealthy += gpu.healthy ? 0 : 1;
      why += std::string(not_ready ? " and" : "") + " has " + std::to_string(node->gpus.size()) +
             " GPUs but advertises " + quantity_text(resource::kGpu, advertised) + " " +
             std::string(resource::kGpu) + " (" + gpus_missing_why(*node, unhealthy) + ")";
    }
    unprovisioned.push_back(std::move(why));
  }
  if (!unprovisioned.empty()) {
    e.layer = Layer::Provisioning;
    e.diagnosis = "It asks for " + asks + ". " + nodes_word(unprovisioned.size()) +
                  " could take it but for their own state: " + joined(unprovisioned, "; ") +
                  ". Once Ready with their GPUs advertised and healthy, it would fit." + rejections;
    return;
  }
  // Every node that could hold it refused only for its GPU hardware labels: no node type has the
  // GPU it selects.
  const bool hardware_only = std::all_of(holders.begin(), holders.end(), [&](const NodeRecord* n) {
    const NodeReport* report = report_of(e.cycle, n->node.metadata.name);
    return report != nullptr &&
           failing_plugins(*report) == std::vector<std::string>{std::string(names::kNodeAffinity)};
  });
  if (hardware_only && selects_hardware_only(view.pod.pod)) {
    e.layer = Layer::CapacitySupply;
    e.diagnosis = "It asks for " + asks +
                  " on a GPU that its node selector or required node "
                  "affinity describes by GPU Feature Discovery's hardware labels (" +
                  joined(selected_keys(view.pod.pod)) +
                  "), and no node type in this scenario "
                  "has such a GPU. A node type with that GPU is needed (or a looser selector)." +
                  rejections;
    return;
  }
  e.layer = Layer::Scheduling;
  e.diagnosis = "It asks for " + asks + ". " + nodes_word(holders.size()) +
                " could hold it, but the room is taken or policy refuses it." + rejections +
                preemption_sentence(view, e);
}

}  // namespace gpusched::explain_detail
