// Remedies for a pod the kubelet rejected after binding (layer 4), each verified by replaying
// the scenario with the change from the start: the device plugin's and the Topology Manager's
// refusals have known fixes on the pod or on its node, and a pod bound by its own spec.nodeName
// can be left to the scheduler.
#include <algorithm>

#include "explain/remedy_replay.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/well_known.hpp"

namespace gpusched::explain_detail {
namespace {

// The NVIDIA device plugin's Allocate refuses shared requests over one replica
// (failRequestsGreaterThanOne; k8s-device-plugin internal/rm/allocate.go).
constexpr std::string_view kSharedLimit = "maximum request size for shared resources is 1";

}  // namespace

std::vector<Remedy> find_workload_remedies(const AttemptView& view, const Explanation& explanation,
                                           const SimulationOptions& options) {
  std::vector<Remedy> out;
  RemedyReplay replay(view, explanation, options);
  const Pod& pod = view.pod.pod;
  if (pod.status.message.find(kSharedLimit) != std::string::npos) {
    Scenario changed = replay.copy();
    const PodSource source = pod_source(changed, pod);
    if (source.spec != nullptr) {
      // One replica: the request and the limit of every container that asks for more.
      const Quantity one = Quantity::from_units(1);
      for (Container& c : source.spec->containers.mut()) {
        for (ResourceList* list : {&c.requests, &c.limits}) {
          if (list->contains(resource::kGpu)) (*list)[std::string(resource::kGpu)] = one;
        }
      }
      out.push_back(replay.verify(changed,
                                  "ask for one shared nvidia.com/gpu replica per container in " +
                                      source.where() + " (the device plugin refuses more)",
                                  source.prefix));
    }
  }
  if (pod.status.reason == "TopologyAffinityError") {
    // The node's kubelet with the Topology Manager's best-effort policy admits what
    // single-numa-node or restricted refuses.
    Scenario changed = replay.copy();
    for (Object& object : changed.cluster) {
      auto* node = std::get_if<Node>(&object);
      if (node == nullptr || node->metadata.name != explanation.node) continue;
      node->metadata.annotations.mut()[std::string(well_known::kTopologyManagerPolicyAnnotation)] =
          "best-effort";
      out.push_back(replay.verify(
          changed, "run node " + explanation.node +
                       "'s kubelet with topology manager policy "
                       "best-effort (" +
                       std::string(well_known::kTopologyManagerPolicyAnnotation) + ")"));
      break;
    }
  }
  if (bound_by_manifest(view.scenario, pod)) {
    // Bound by its manifest, it skipped the scheduler's Filter: let the scheduler choose.
    Scenario changed = replay.copy();
    const PodSource source = pod_source(changed, pod);
    source.spec->node_name.clear();
    out.push_back(replay.verify(
        changed, "remove spec.nodeName from " + source.where() + " so that the scheduler places it",
        source.prefix));
  }
  return out;
}

}  // namespace gpusched::explain_detail
