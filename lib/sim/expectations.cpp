// Checking a scenario's expectations, and the result of a run.
#include <algorithm>
#include <map>
#include <set>

#include "dra/pod_claims.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "model/disruption.hpp"
#include "model/go_text.hpp"
#include "model/permute.hpp"
#include "sim/glob.hpp"
#include "sim/simulation.hpp"

namespace gpusched::sim {
namespace {

std::string quoted(const std::optional<std::string>& v) {
  return v ? "\"" + *v + "\"" : "null";
}

/// "[0, 1]".
std::string gpu_list(const std::vector<int>& gpus) {
  std::string out = "[";
  for (std::size_t i = 0; i < gpus.size(); ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(gpus[i]);
  return out + "]";
}

std::string phase_text(const PodInfo* pod) {
  return pod == nullptr ? "Absent" : std::string(to_string(pod->pod.status.phase));
}

std::string with_default_namespace(const std::string& name) {
  return name.find('/') == std::string::npos ? "default/" + name : name;
}

// The pods' requests as compiled (PodInfo::request_list), formats kept.
ResourceList allocated_on(const NodeInfo& node) {
  ResourceList total;
  for (const PodInfo* pod : node.pods) {
    // A pod waiting at Permit holds the node in the scheduler's cache only: it is not bound.
    if (pod->pod.spec.node_name.empty()) continue;
    for (const auto& [name, q] : pod->request_list) add_to(total, name, q);
  }
  return total;
}

// A pod's "namespace/name" in `key`, whose buffer serves every pod an expectation matches.
const std::string& key_into(std::string& key, const PodInfo& pod) {
  key.assign(pod.pod.metadata.namespace_).append(1, '/').append(pod.pod.metadata.name);
  return key;
}

// A condition expectation against an object's status.conditions: `what` names it, each mismatch
// is a failure.
/// The node an allocation is pinned to: a node selector of one term, `metadata.name In [node]`
/// (what the allocator writes for devices of node-local slices); nullopt otherwise.
std::optional<std::string> allocated_node(const dra::AllocationResult& allocation) {
  if (!allocation.node_selector || allocation.node_selector->terms.size() != 1) return std::nullopt;
  const NodeSelectorTerm& term = allocation.node_selector->terms.front();
  if (!term.match_expressions.empty() || term.match_fields.size() != 1) return std::nullopt;
  const SelectorRequirement& field = term.match_fields.front();
  if (field.key != "metadata.name" || field.op != SelectorOperator::In || field.values.size() != 1)
    return std::nullopt;
  return field.values.front();
}

ResourceClaimRecord resource_claim_record(const dra::ResourceClaim& claim) {
  ResourceClaimRecord out;
  const ObjectMeta& meta = claim.metadata;
  out.namespace_ = meta.namespace_;
  out.name = meta.name;
  if (const OwnerReference* owner = meta.controller()) {
    out.owner = owner->kind + "/" + meta.namespace_ + "/" + owner->name;
  }
  if (const auto& allocation = claim.status.allocation) {
    out.allocated = true;
    out.node = allocated_node(*allocation);
    for (const dra::DeviceRequestAllocationResult& d : allocation->devices) {
      out.devices.push_back({d.request, d.driver, d.pool, d.device});
    }
  }
  for (const dra::ConsumerReference& consumer : claim.status.reserved_for) {
    out.reserved_for.push_back("Pod/" + meta.namespace_ + "/" + consumer.name);
  }
  return out;
}

void check_condition(const ConditionExpectation& ce, const std::vector<Condition>& conditions,
                     std::string& what, std::vector<std::string>& failures) {
  what += " condition " + ce.type;
  const Condition* c = find_condition(conditions, ce.type);
  if (c == nullptr) {
    failures.push_back("no " + ce.type + " condition");
    return;
  }
  const auto compare = [&](const char* field, const std::optional<std::string>& want,
                           const std::string& got) {
    if (want && *want != got)
      failures.push_back(ce.type + " " + field + ": expected \"" + *want + "\", got \"" + got +
                         "\"");
  };
  compare("status", ce.status, c->status);
  compare("reason", ce.reason, c->reason);
  compare("message", ce.message, c->message);
  if (ce.message_contains && c->message.find(*ce.message_contains) == std::string::npos)
    failures.push_back(ce.type + " message: expected to contain \"" + *ce.message_contains +
                       "\", got \"" + c->message + "\"");
}

}  // namespace

ExpectationResult Simulation::check(std::size_t index) const {
  const Expectation& e = scenario_.expect[index];
  ExpectationResult r;
  r.index = index;
  r.pointer = e.pointer;
  r.line = e.line;
  r.at = e.at ? format_duration(*e.at) : "end";
  std::vector<std::string> failures;
  std::string what;
  std::string pod_key;  // key_into's buffer
  // A count the assertion gives, against the one found.
  const auto compare_count = [&](const char* field, const std::optional<std::int32_t>& want,
                                 std::int32_t got) {
    if (!want) return;
    what += std::string(" ") + field + "=" + std::to_string(*want);
    if (*want != got)
      failures.push_back(std::string(field) + ": expected " + std::to_string(*want) + ", got " +
                         std::to_string(got));
  };

  if (const auto* pe = std::get_if<PodExpectation>(&e.check)) {
    const std::string pattern = with_default_namespace(pe->pod);
    std::vector<const PodInfo*> matches;
    for (PodInfo* pod : cluster_.pods()) {
      if (glob_match(pattern, key_into(pod_key, *pod))) matches.push_back(pod);
    }
    const bool is_glob = pattern.find_first_of("*?") != std::string::npos;
    what = "pod " + pattern;
    const PodInfo* pod = matches.size() == 1 ? matches.front() : nullptr;
    if (matches.size() > 1) {
      failures.push_back(std::to_string(matches.size()) + " pods match, expected one");
    } else if (pod == nullptr && is_glob && pe->phase != "Absent") {
      failures.push_back("no pod matches");
    } else {
      if (pe->phase) {
        what += " phase " + *pe->phase;
        if (phase_text(pod) != *pe->phase)
          failures.push_back("phase: expected " + *pe->phase + ", got " + phase_text(pod));
      }
      if (pod == nullptr &&
          (pe->node || pe->reason || pe->message || pe->message_contains || pe->nominated_node)) {
        failures.push_back("the pod does not exist");
      } else if (pod != nullptr) {
        const std::optional<std::string> node =
            pod->pod.spec.node_name.empty() ? std::nullopt : std::optional(pod->pod.spec.node_name);
        if (pe->node) {
          what += " node " + quoted(*pe->node);
          if (*pe->node != node)
            failures.push_back("node: expected " + quoted(*pe->node) + ", got " + quoted(node));
        }
        const std::string reason = pod->pod.reason() != nullptr ? *pod->pod.reason() : "";
        const std::string message = pod->pod.message() != nullptr ? *pod->pod.message() : "";
        if (pe->reason) {
          what += " reason " + *pe->reason;
          if (reason != *pe->reason)
            failures.push_back("reason: expected \"" + *pe->reason + "\", got \"" + reason + "\"");
        }
        if (pe->message) {
          what += " message";
          if (message != *pe->message) {
            failures.push_back("message:\n    expected: " + *pe->message +
                               "\n    actual:   " + message);
          }
        }
        if (pe->message_contains) {
          what += " message containing \"" + *pe->message_contains + "\"";
          if (message.find(*pe->message_contains) == std::string::npos) {
            failures.push_back("message does not contain \"" + *pe->message_contains +
                               "\":\n    actual:   " + message);
          }
        }
        if (pe->nominated_node) {
          const std::optional<std::string> nominated =
              pod->pod.status.nominated_node_name.empty()
                  ? std::nullopt
                  : std::optional(pod->pod.status.nominated_node_name);
          what += " nominatedNode " + quoted(*pe->nominated_node);
          if (*pe->nominated_node != nominated) {
            failures.push_back("nominatedNode: expected " + quoted(*pe->nominated_node) + ", got " +
                               quoted(nominated));
          }
        }
        if (pe->gpus || pe->visible_devices) {
          const devices::PodDevices* held = kubelets_.devices_of(pod->pod);
          const std::vector<int> gpus = held != nullptr ? held->gpus : std::vector<int>{};
          const std::string visible = held != nullptr ? held->visible_devices : "";
          if (pe->gpus) {
            what += " gpus " + gpu_list(*pe->gpus);
            if (*pe->gpus != gpus) {
              failures.push_back("gpus: expected " + gpu_list(*pe->gpus) + ", got " +
                                 gpu_list(gpus));
            }
          }
          if (pe->visible_devices) {
            what += " visibleDevices " + quoted(*pe->visible_devices);
            if (*pe->visible_devices != visible) {
              failures.push_back("visibleDevices: expected " + quoted(*pe->visible_devices) +
                                 ", got " + quoted(visible));
            }
          }
        }
        if (pe->gpu_index) {
          const auto& annotations = pod->pod.metadata.annotations;
          const auto it = annotations->find(gpu_share_names::kGpuIndexAnnotation);
          const std::string gpus = it == annotations->end() ? "" : it->second;
          what += " gpuIndex " + quoted(*pe->gpu_index);
          if (*pe->gpu_index != gpus) {
            failures.push_back("gpuIndex: expected " + quoted(*pe->gpu_index) + ", got " +
                               quoted(gpus));
          }
        }
      }
    }
  } else if (const auto* ps = std::get_if<PodsExpectation>(&e.check)) {
    const std::string pattern = with_default_namespace(ps->pattern);
    std::map<std::string, std::int64_t> counts;
    for (PodInfo* pod : cluster_.pods()) {
      if (glob_match(pattern, key_into(pod_key, *pod)))
        ++counts[std::string(to_string(pod->pod.status.phase))];
    }
    what = "pods " + pattern;
    for (const auto& [phase, want] : ps->phases) {
      what += " " + phase + "=" + std::to_string(want);
      const std::int64_t got = counts.contains(phase) ? counts[phase] : 0;
      if (got != want)
        failures.push_back(phase + ": expected " + std::to_string(want) + ", got " +
                           std::to_string(got));
    }
  } else if (const auto* ne = std::get_if<NodeExpectation>(&e.check)) {
    what = "node " + ne->node;
    NodeInfo* node = const_cast<ClusterState&>(cluster_).find_node(ne->node);
    if (node == nullptr) {
      failures.push_back("the node does not exist");
    } else {
      const ResourceList allocated = allocated_on(*node);
      auto compare = [&](const char* label, const ResourceList& want, const ResourceList& have) {
        for (const auto& [name, q] : want) {
          auto it = have.find(name);
          const Quantity got = it == have.end() ? Quantity() : it->second;
          what += std::string(" ") + label + " " + name + "=" + q.to_string();
          if (got != q) {
            failures.push_back(std::string(label) + " " + name + ": expected " + q.to_string() +
                               ", got " + got.to_string());
          }
        }
      };
      compare("capacity", ne->capacity, node->node.capacity);
      compare("allocatable", ne->allocatable, node->node.allocatable);
      compare("allocated", ne->allocated, allocated);
      for (const auto& [key, want] : ne->labels) {
        what += " label " + key + "=" + want;
        auto it = node->node.metadata.labels.find(key);
        const std::optional<std::string> got =
            it == node->node.metadata.labels.end() ? std::nullopt : std::optional(it->second);
        if (got != want) {
          failures.push_back("label " + key + ": expected " + quoted(want) + ", got " +
                             quoted(got));
        }
      }
    }
  } else if (const auto* ee = std::get_if<EventExpectation>(&e.check)) {
    what = "event";
    if (ee->type) what += " type " + *ee->type;
    if (ee->reason) what += " reason " + *ee->reason;
    if (ee->object) what += " object " + *ee->object;
    if (ee->message) what += " message \"" + *ee->message + "\"";
    if (ee->message_contains) what += " message containing \"" + *ee->message_contains + "\"";
    const bool found =
        std::any_of(events_.events().begin(), events_.events().end(), [&](const EventRecord& ev) {
          if (ee->type && ev.type != *ee->type) return false;
          if (ee->reason && ev.reason != *ee->reason) return false;
          if (ee->object) {
            // "ns/name" names a pod; "Kind/..." any object.
            const bool kinded = std::count(ee->object->begin(), ee->object->end(), '/') != 1;
            const std::string pattern = kinded ? *ee->object : "Pod/" + *ee->object;
            if (!glob_match(pattern, ev.object)) return false;
          }
          if (ee->message && ev.message != *ee->message) return false;
          if (ee->message_contains && ev.message.find(*ee->message_contains) == std::string::npos)
            return false;
          return true;
        });
    if (!found) failures.push_back("no such event was recorded");
  }

  if (const auto* pd = std::get_if<PdbExpectation>(&e.check)) {
    const std::string key = with_default_namespace(pd->pdb);
    what = "pdb " + key;
    auto it = api_.budgets.find(key);
    if (it == api_.budgets.end()) {
      failures.push_back("the PodDisruptionBudget does not exist");
    } else {
      const PdbStatus status = disruption_.status(it->second);
      compare_count("disruptionsAllowed", pd->disruptions_allowed, status.disruptions_allowed);
      compare_count("currentHealthy", pd->current_healthy, status.current_healthy);
      compare_count("desiredHealthy", pd->desired_healthy, status.desired_healthy);
      compare_count("expectedPods", pd->expected_pods, status.expected_pods);
    }
  }

  if (const auto* we = std::get_if<WorkloadExpectation>(&e.check)) {
    what = "workload " + we->workload;
    const std::vector<WorkloadRecord> records =
        kueue_ ? kueue_->workload_records() : std::vector<WorkloadRecord>{};
    // By owner ("Job/ns/name") or by the Workload's own "ns/name".
    const auto it = std::find_if(records.begin(), records.end(), [&](const WorkloadRecord& w) {
      return w.owner == we->workload || w.namespace_ + "/" + w.name == we->workload;
    });
    if (it == records.end()) {
      failures.push_back("no such Workload");
    } else {
      const auto expect_bool = [&](const char* field, const std::optional<bool>& want, bool got) {
        if (!want) return;
        what += std::string(" ") + field + "=" + (*want ? "true" : "false");
        if (*want != got)
          failures.push_back(std::string(field) + ": expected " + (*want ? "true" : "false") +
                             ", got " + (got ? "true" : "false"));
      };
      expect_bool("admitted", we->admitted, it->admitted);
      const bool finished = condition_true(it->conditions, "Finished");
      expect_bool("finished", we->finished, finished);
      if (we->cluster_queue) {
        what += " clusterQueue " + *we->cluster_queue;
        const std::string got = it->cluster_queue.value_or("<none>");
        if (got != *we->cluster_queue)
          failures.push_back("clusterQueue: expected " + *we->cluster_queue + ", got " + got);
      }
      if (we->flavors && *we->flavors != it->flavors) {
        const auto text = [](const std::map<std::string, std::map<std::string, std::string>>& f) {
          std::string out;
          for (const auto& [ps, resources] : f) {
            for (const auto& [resource, flavor] : resources) {
              if (!out.empty()) out += ", ";
              out += ps + "/" + resource + "=" + flavor;
            }
          }
          return out.empty() ? std::string("none") : out;
        };
        failures.push_back("flavors: expected " + text(*we->flavors) + ", got " +
                           text(it->flavors));
      }
      if (we->condition) check_condition(*we->condition, it->conditions, what, failures);
    }
  }

  if (const auto* pe = std::get_if<PodGroupExpectation>(&e.check)) {
    what = "podGroup " + pe->pod_group;
    const std::size_t slash = pe->pod_group.find('/');
    const PodGroup* group =
        cluster_.find_pod_group(pe->pod_group.substr(0, slash), pe->pod_group.substr(slash + 1));
    if (group == nullptr) {
      failures.push_back("no such PodGroup");
    } else if (pe->condition) {
      check_condition(*pe->condition, group->conditions, what, failures);
    }
  }

  if (const auto* ce = std::get_if<ClaimExpectation>(&e.check)) {
    what = "claim " + ce->claim;
    const DraState& dra = cluster_.dra();
    const dra::ResourceClaim* claim = nullptr;
    if (ce->claim.starts_with("Pod/")) {
      // The one claim of the pod: by name, or the one its status names for a template or for
      // its extended resources.
      const std::string_view key = std::string_view(ce->claim).substr(4);
      const std::size_t slash = key.find('/');
      const PodInfo* pod = cluster_.find_pod(key.substr(0, slash), key.substr(slash + 1));
      std::vector<const dra::ResourceClaim*> found;
      if (pod != nullptr) {
        for (const PodResourceClaim& pc : pod->pod.spec.resource_claims) {
          const dra::PodClaimName name = dra::pod_claim_name(pod->pod, pc);
          if (!name.name) continue;
          if (const auto* c = dra.find_claim(pod->pod.metadata.namespace_, *name.name))
            found.push_back(c);
        }
        // The claim kube-scheduler made for its extended resources.
        if (const auto& extended = pod->pod.status.extended_resource_claim_status) {
          if (const auto* c =
                  dra.find_claim(pod->pod.metadata.namespace_, extended->resource_claim_name))
            found.push_back(c);
        }
      }
      if (pod == nullptr) {
        failures.push_back("no such pod");
      } else if (found.size() != 1) {
        failures.push_back("the pod has " + std::to_string(found.size()) +
                           " claims: name one as \"namespace/name\"");
      } else {
        claim = found.front();
      }
    } else {
      const std::size_t slash = ce->claim.find('/');
      claim = dra.find_claim(ce->claim.substr(0, slash), ce->claim.substr(slash + 1));
      if (claim == nullptr) failures.push_back("no such ResourceClaim");
    }
    if (claim != nullptr) {
      const ResourceClaimRecord got = resource_claim_record(*claim);
      if (ce->allocated) {
        what += std::string(" allocated ") + (*ce->allocated ? "true" : "false");
        if (got.allocated != *ce->allocated)
          failures.push_back(std::string("allocated: expected ") +
                             (*ce->allocated ? "true" : "false") + ", got " +
                             (got.allocated ? "true" : "false"));
      }
      if (ce->node) {
        what += " node " + (ce->node->empty() ? std::string("null") : *ce->node);
        if (got.node.value_or("") != *ce->node)
          failures.push_back("node: expected " + (ce->node->empty() ? "null" : *ce->node) +
                             ", got " + got.node.value_or("null"));
      }
      if (ce->devices) {
        auto text = [](const std::vector<std::string>& items) {
          return items.empty() ? std::string("none") : joined(items, ", ");
        };
        std::vector<std::string> want, have;
        bool same = ce->devices->size() == got.devices.size();
        for (std::size_t i = 0; i < ce->devices->size(); ++i) {
          const ClaimDeviceExpectation& d = (*ce->devices)[i];
          want.push_back(d.device);
          if (!same) continue;
          const ClaimDeviceRecord& g = got.devices[i];
          same = d.device == g.device && (d.request.empty() || d.request == g.request) &&
                 (d.driver.empty() || d.driver == g.driver) && (d.pool.empty() || d.pool == g.pool);
        }
        for (const ClaimDeviceRecord& g : got.devices)
          have.push_back(g.request + ": " + g.driver + "/" + g.pool + "/" + g.device);
        what += " devices " + text(want);
        if (!same) failures.push_back("devices: expected " + text(want) + ", got " + text(have));
      }
      if (ce->reserved_for) {
        what += " reservedFor";
        if (got.reserved_for != *ce->reserved_for) {
          failures.push_back("reservedFor: expected [" + joined(*ce->reserved_for, ", ") +
                             "], got [" + joined(got.reserved_for, ", ") + "]");
        }
      }
    }
  }

  if (const auto* ce = std::get_if<ClusterQueueExpectation>(&e.check)) {
    what = "clusterQueue " + ce->cluster_queue;
    const std::vector<ClusterQueueRecord> records =
        kueue_ ? kueue_->cluster_queue_records() : std::vector<ClusterQueueRecord>{};
    const auto it = std::find_if(records.begin(), records.end(), [&](const ClusterQueueRecord& c) {
      return c.name == ce->cluster_queue;
    });
    if (it == records.end()) {
      failures.push_back("no such ClusterQueue");
    } else {
      for (const auto& [flavor, resources] : ce->usage) {
        for (const auto& [resource, want] : resources) {
          Quantity got;
          if (auto f = it->usage.find(flavor); f != it->usage.end()) {
            if (auto q = f->second.find(resource); q != f->second.end()) got = q->second;
          }
          what += " usage " + flavor + "/" + resource + "=" + want.to_string();
          if (got != want)
            failures.push_back("usage " + flavor + "/" + resource + ": expected " +
                               want.to_string() + ", got " + got.to_string());
        }
      }
      compare_count("pendingWorkloads", ce->pending_workloads, it->pending_workloads);
      compare_count("admittedWorkloads", ce->admitted_workloads, it->admitted_workloads);
      compare_count("reservingWorkloads", ce->reserving_workloads, it->reserving_workloads);
      if (ce->weighted_share) {
        what += " weightedShare=" + std::to_string(*ce->weighted_share);
        if (it->weighted_share != ce->weighted_share)
          failures.push_back(
              "weightedShare: expected " + std::to_string(*ce->weighted_share) + ", got " +
              (it->weighted_share ? std::to_string(*it->weighted_share) : "none (no fairSharing)"));
      }
    }
  }

  r.ok = failures.empty();
  r.message = what;
  for (const std::string& f : failures) r.message += "\n  " + f;
  return r;
}

PodRecord Simulation::pod_record(const PodInfo& pod, Pod object) const {
  // Built around the object: a record's default Pod would take its defaults (the scheduler
  // name) only to have them overwritten, once per pod of the run.
  PodRecord rec{.pod = std::move(object),
                .requests = {},
                .terminating = false,
                .preemptions = 0,
                .created = {},
                .scheduled = {},
                .finished = {},
                .devices = {},
                .visible_devices = {},
                .preempted_by = {}};
  rec.requests = pod.request_list;
  rec.terminating = rec.pod.metadata.deletion_ms.has_value();
  const auto index = static_cast<std::size_t>(pod.sequence - 1);
  if (index < pod_times_.size()) {
    rec.created = pod_times_[index].created;
    rec.scheduled = pod_times_[index].scheduled;
    rec.finished = pod_times_[index].finished;
  }
  if (const devices::PodDevices* held = kubelets_.devices_of(rec.pod)) {
    rec.devices = held->by_resource;
    rec.visible_devices = held->visible_devices;
  }
  return rec;
}

NodeRecord Simulation::node_record(const NodeInfo& node, PodPlaces* places) const {
  NodeRecord rec;
  rec.node = node.node;
  rec.allocated = allocated_on(node);
  if (places != nullptr) {
    std::vector<std::uint32_t>& of_node = places->of_node.emplace_back();
    of_node.reserve(node.pods.size());
    for (const PodInfo* pod : node.pods) {
      if (!pod->pod.spec.node_name.empty())
        of_node.push_back(places->by_sequence[pod->sequence - 1]);
    }
  } else {
    rec.pods.reserve(node.pods.size());  // a million keys: no vector's growth left unused
    for (const PodInfo* pod : node.pods) {
      if (!pod->pod.spec.node_name.empty()) rec.pods.push_back(pod->pod.key());
    }
  }
  if (const devices::DeviceManager* manager = kubelets_.manager(node.node.metadata.name)) {
    const auto holders = manager->pods_per_gpu();
    for (const devices::PhysicalGpu& gpu : manager->node().gpus) {
      rec.gpus.push_back(GpuRecord{gpu.index, gpu.uuid, gpu.healthy,
                                   holders[static_cast<std::size_t>(gpu.index)]});
    }
  }
  for (std::size_t gpu = 0; gpu < node.gpu_free.size(); ++gpu) {
    SharedGpuRecord& shared = rec.shared_gpus.emplace_back();
    shared.index = static_cast<int>(gpu);
    for (const GpuShareHold& hold : node.gpu_holds) {
      if (std::find(hold.gpus.begin(), hold.gpus.end(), static_cast<std::int32_t>(gpu)) ==
          hold.gpus.end())
        continue;
      shared.used_milli += hold.milli;
      shared.pods.emplace_back(hold.pod->pod.key(), hold.milli);
    }
  }
  return rec;
}

std::vector<NodeRecord> Simulation::node_records() const {
  return node_records(nullptr);
}

std::vector<NodeRecord> Simulation::node_records(PodPlaces* places) const {
  std::vector<const NodeInfo*> nodes(cluster_.node_list().begin(), cluster_.node_list().end());
  std::sort(nodes.begin(), nodes.end(), [](const NodeInfo* a, const NodeInfo* b) {
    return a->node.metadata.name < b->node.metadata.name;
  });
  std::vector<NodeRecord> out;
  out.reserve(nodes.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    // Nodes and their pods lie scattered in memory, and each record waits for them in turn:
    // start loading what the next records read, each step only what an earlier one fetched (a
    // node, its pod list, then the pods' names, bindings and requests).
    if (k + 6 < nodes.size()) __builtin_prefetch(&nodes[k + 6]->pods);
    if (k + 4 < nodes.size()) __builtin_prefetch(nodes[k + 4]->pods.data());
    if (k + 2 < nodes.size()) {
      for (const PodInfo* pod : nodes[k + 2]->pods) {
        __builtin_prefetch(&pod->pod.metadata.name);
        __builtin_prefetch(&pod->pod.spec.node_name);
        __builtin_prefetch(&pod->request_list);
      }
    }
    out.push_back(node_record(*nodes[k], places));
  }
  return out;
}

std::vector<WorkloadRecord> Simulation::workload_records() const {
  return kueue_ ? kueue_->workload_records() : std::vector<WorkloadRecord>{};
}

KueueState Simulation::kueue_state() const {
  return KueueState{api_.kueue.resource_flavors, api_.kueue.cluster_queues, api_.kueue.local_queues,
                    api_.kueue.cohorts, api_.kueue.workloads};
}

std::vector<PodRecord> Simulation::pod_records() const {
  std::vector<PodRecord> out;
  out.reserve(cluster_.pods().size());
  for (PodInfo* pod : cluster_.pods()) {
    out.push_back(pod_record(*pod, pod->pod));
  }
  return out;
}

SimulationResult Simulation::take_result() {
  SimulationResult out;
  out.scenario = scenario_.name;
  out.source = scenario_.source;
  out.time = now_;
  // The Events first: the recorder frees its index of them (a million Events' hashes) before
  // the pods are put in order and moved.
  out.events = events_.take();
  out.usage = usage_.finish();
  out.gpu_series = usage_.gpu_series();
  out.gpu_bucket_ms = usage_.bucket_ms();
  out.gpu_share_intervals = shares_.finish(cluster_);
  out.pools = pools_.take_pools();
  out.provisioning = pools_.take_provisioning();
  std::sort(out.provisioning.begin(), out.provisioning.end(),
            [](const NodeProvisioning& a, const NodeProvisioning& b) { return a.node < b.node; });
  for (const auto& [key, state] : api_.jobs) {
    out.jobs.push_back(
        JobRecord{key, state.job.metadata.creation_ms, state.ended, state.failed, state.succeeded});
  }
  for (const auto& [key, group] : cluster_.pod_groups()) {
    out.pod_groups.push_back(
        {group.metadata.namespace_, group.metadata.name, group.gang_min_count, group.conditions});
  }
  for (const auto& [key, claim] : cluster_.dra().claims()) {
    out.resource_claims.push_back(resource_claim_record(claim));
  }
  if (kueue_) {
    out.workloads = kueue_->workload_records();
    out.cluster_queues = kueue_->cluster_queue_records();
    out.quota_spans = kueue_->quota_spans();
    out.kueue_preemptions = kueue_->preemptions();
    for (const auto& [key, lq] : api_.kueue.local_queues) out.local_queues.push_back(key);
    // The per-queue metrics weigh the whole run against the quotas at its end.
    std::set<std::string> changed;
    for (const Action& action : scenario_.timeline) {
      std::vector<std::string> names;
      if (action.target.kind == "ClusterQueue") names.push_back(action.target.name);
      for (const Object& object : action.objects) {
        if (const auto* cq = std::get_if<kueue::ClusterQueue>(&object))
          names.push_back(cq->metadata.name);
      }
      for (const std::string& name : names) {
        if (!changed.insert(name).second) continue;
        out.notices.push_back("ClusterQueue " + name + " changes in the timeline (" +
                              action.pointer +
                              "): its per-queue metrics (borrowed hours, quota usage) measure "
                              "the whole run against its nominal quotas at the end");
      }
    }
    out.notices.insert(out.notices.end(), kueue_->notices().begin(), kueue_->notices().end());
  }
  // A DaemonSet that no node admitted is valid and silent upstream (desiredNumberScheduled 0).
  for (const auto& [key, state] : api_.daemonsets) {
    if (state.matched_a_node) continue;
    out.notices.push_back("DaemonSet " + key +
                          " matched no node in the replay (its nodeName, nodeSelector and "
                          "required node affinity against the nodes' labels, its tolerations "
                          "against their taints), so it ran no pod");
  }
  // DRAExtendedResource is alpha in 1.34 and 1.35, and its rules changed before 1.36's beta:
  // say which ones a replay that turns it on there follows.
  if (config_.kubernetes_version.minor < 36 &&
      config_.feature_gates.enabled(FeatureGate::DRAExtendedResource, config_.kubernetes_version)) {
    out.notices.push_back(
        "DRAExtendedResource is alpha in Kubernetes 1." +
        std::to_string(config_.kubernetes_version.minor) +
        "; gpusched serves extended resources from DRA devices by 1.36's rules (a node "
        "advertising a resource at 0 leaves it to DRA; an init container reuses the devices of "
        "the containers after it), which differ from that release's in those cases");
  }
  // Scoring an extended resource DRA serves (PR #134058: a node that does not advertise it
  // counts its matching devices as capacity) is not modelled: say where a profile asks for it.
  if (config_.feature_gates.enabled(FeatureGate::DRAExtendedResource, config_.kubernetes_version)) {
    for (const Profile& profile : config_.profiles) {
      std::set<std::string> scored;
      for (const ResourceSpec& r : profile.node_resources_fit.resources) scored.insert(r.name);
      for (const ResourceSpec& r : profile.balanced_allocation.resources) scored.insert(r.name);
      for (const std::string& name : scored) {
        const dra::DeviceClass* device_class = cluster_.dra().extended_resource_class(name);
        if (device_class == nullptr) continue;
        out.notices.push_back(
            "profile " + profile.scheduler_name + " scores " + name + ", which DeviceClass " +
            device_class->metadata.name +
            " serves through DRA: kube-scheduler counts the class's devices as a node's " + name +
            " where the node does not advertise it; gpusched scores such a node as having none");
      }
    }
  }
  // GPU-sharing annotations mean nothing to a profile without Open-Gpu-Share (kube-scheduler
  // has no such plugin): say so rather than let them pass unseen.
  const auto named = [](const PluginSet& set, std::string_view name) {
    return std::any_of(set.enabled.begin(), set.enabled.end(),
                       [&](const PluginRef& p) { return p.name == name; });
  };
  std::map<std::string, std::size_t> unshared;
  for (PodInfo* pod : cluster_.pods()) {
    if (pod->gpu_share->request.gpu_milli <= 0) continue;
    const std::string& scheduler = pod->pod.spec.scheduler_name;
    const auto profile =
        std::find_if(config_.profiles.begin(), config_.profiles.end(), [&](const Profile& p) {
          return p.scheduler_name == (scheduler.empty() ? "default-scheduler" : scheduler);
        });
    if (profile == config_.profiles.end()) continue;
    if (!named(profile->plugins.multi_point, names::kOpenGpuShare) &&
        !named(profile->plugins.filter, names::kOpenGpuShare))
      ++unshared[profile->scheduler_name];
  }
  // RandomScore draws its node at PreScore, as the artifact's does: enabled at Score alone it
  // gives every node 0.
  for (const Profile& profile : config_.profiles) {
    if (named(profile.plugins.score, names::kRandomScore) &&
        !named(profile.plugins.pre_score, names::kRandomScore)) {
      out.notices.push_back("profile " + profile.scheduler_name +
                            " enables RandomScore at Score but not at PreScore, where it draws "
                            "its node: it scores every node 0 (enable it at preScore too)");
    }
  }
  for (const auto& [profile, pods] : unshared) {
    out.notices.push_back(std::to_string(pods) + " pod(s) of profile " + profile +
                          " carry alibabacloud.com/gpu-milli annotations, which the profile "
                          "ignores: it does not enable Open-Gpu-Share (docs/fragmentation.md)");
  }
  // Pods still waiting count up to the end of the run.
  out.unschedulable_time = unschedulable_.take();
  if (std::any_of(cluster_.node_list().begin(), cluster_.node_list().end(),
                  [](const NodeInfo* node) { return !node->gpu_free.empty(); }))
    out.pod_shapes = cluster_.pod_shapes();
  // Each pod object moves into its record as its storage is freed, so a replay of a million
  // pods never holds two copies of each; the records are then put in the pods' key order, the
  // order the cluster keeps them in: each pod's place is read from it by creation sequence
  // before the drain, and no record is compared.
  std::vector<std::uint32_t> place_by_sequence(cluster_.pods_seen());
  std::uint32_t place = 0;
  for (const PodInfo* pod : cluster_.pods()) place_by_sequence[pod->sequence - 1] = place++;
  const std::size_t pod_count = place;
  // The pod indexes are freed first: nothing looks a pod up by name or owner from here on.
  api_.pods_drained();
  cluster_.drop_pod_indexes();
  // The node records list their pods by place until the pods are records: their keys (a
  // million strings) are made once the pods' storage, their times and the places are freed.
  std::vector<std::vector<std::uint32_t>> places_of_node;
  PodPlaces places{place_by_sequence, places_of_node};
  out.nodes = node_records(&places);
  std::vector<std::uint32_t> from(pod_count);
  out.pods.reserve(pod_count);
  cluster_.drain_pods([&](PodInfo& pod) {
    from[place_by_sequence[pod.sequence - 1]] = static_cast<std::uint32_t>(out.pods.size());
    out.pods.push_back(pod_record(pod, std::move(pod.pod)));
  });
  place_by_sequence = std::vector<std::uint32_t>();  // freed (assigning {} keeps the capacity)
  permute(out.pods, from);
  from = std::vector<std::uint32_t>();
  if (record_spans_) {
    spans_.resize(pod_times_.size());
    for (std::size_t i = 0; i < spans_.size(); ++i) {
      spans_[i].created = pod_times_[i].created;
      spans_[i].scheduled = pod_times_[i].scheduled;
      spans_[i].finished = pod_times_[i].finished;
    }
    out.pod_spans = std::move(spans_);
  }
  pod_times_ = std::vector<PodTimes>();
  for (std::size_t k = 0; k < out.nodes.size(); ++k) {
    std::vector<std::string>& keys = out.nodes[k].pods;
    keys.reserve(places_of_node[k].size());  // a million keys: no vector's growth left unused
    for (const std::uint32_t p : places_of_node[k]) keys.push_back(out.pods[p].pod.key());
    places_of_node[k] = std::vector<std::uint32_t>();
  }
  out.preemptions = std::move(preemptions_);
  // Each pod's part in them; a victim is still there when its termination outlasts the run.
  auto record_of = [&](const std::string& key) -> PodRecord* {
    ObjectMeta wanted;
    const std::size_t slash = key.find('/');
    wanted.namespace_ = key.substr(0, slash);
    wanted.name = key.substr(slash + 1);
    auto it = std::lower_bound(
        out.pods.begin(), out.pods.end(), wanted,
        [](const PodRecord& r, const ObjectMeta& m) { return key_less(r.pod.metadata, m); });
    const bool found = it != out.pods.end() && it->pod.metadata.namespace_ == wanted.namespace_ &&
                       it->pod.metadata.name == wanted.name;
    return found ? &*it : nullptr;
  };
  for (const PreemptionRecord& preemption : out.preemptions) {
    if (PodRecord* preemptor = record_of(preemption.preemptor)) ++preemptor->preemptions;
    for (const VictimRecord& victim : preemption.victims) {
      if (PodRecord* record = record_of(victim.pod)) record->preempted_by = preemption.preemptor;
    }
  }
  for (const auto& r : expectation_results_) {
    out.expectations.push_back(*r);
    out.passed = out.passed && r->ok;
  }
  return out;
}

}  // namespace gpusched::sim
