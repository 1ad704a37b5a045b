// Remedies for an unbound pod, each verified by replaying the scenario with the change: a node
// change or deletions at the attempt's instant (the past stays as it was), or a change to the
// pod's own spec (or its controller's template) from the start. The smallest changes come
// first: a policy the pod or one node could relax, then pods to remove, a priority that would
// preempt them, and last more nodes.
#include <algorithm>
#include <charconv>
#include <limits>
#include <map>

#include "devices/mig.hpp"
#include "explain/node_patches.hpp"
#include "explain/remedy_replay.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/well_known.hpp"
#include "model/go_text.hpp"

namespace gpusched::explain_detail {
namespace {

// Most copies of a node tried: more pods may be waiting for the same room.
constexpr int kMostCopies = 8;

class PendingRemedies {
 public:
  PendingRemedies(const AttemptView& view, const Explanation& e, Simulator& attempt,
                  const SimulationOptions& options)
      : view_(view), e_(e), attempt_(attempt), replay_(view, e, options) {
    for (const NodeRecord& node : view.nodes) {
      if (could_hold(*view.pod.requests, node)) holders_.push_back(&node);
    }
  }

  std::vector<Remedy> find() {
    make_ready();
    tolerate_taints();
    label_node();
    uncordon_node();
    relax_policy();
    disable_mig();
    remove_pods_and_raise_priority();
    add_nodes();
    return std::move(out_);
  }

 private:
  // A node that could hold the pod and that only `plugin` refuses.
  const NodeRecord* refused_only_by(std::string_view plugin) const {
    for (const NodeRecord* node : holders_) {
      const NodeReport* report = report_of(e_.cycle, node->node.metadata.name);
      if (report != nullptr &&
          failing_plugins(*report) == std::vector<std::string>{std::string(plugin)})
        return node;
    }
    return nullptr;
  }
  // Whether some node that could hold the pod is refused by `plugin` (among others).
  bool refused_by(std::string_view plugin) const {
    return std::any_of(holders_.begin(), holders_.end(), [&](const NodeRecord* node) {
      const NodeReport* report = report_of(e_.cycle, node->node.metadata.name);
      if (report == nullptr) return false;
      const std::vector<std::string> plugins = failing_plugins(*report);
      return std::find(plugins.begin(), plugins.end(), plugin) != plugins.end();
    });
  }
  const Pod& pod() const { return view_.pod.pod; }

  // Whether the node's GPUs, by GPU Feature Discovery's product and memory labels, have MIG.
  static bool mig_capable(const Labels& labels) {
    const auto product = labels.find(std::string(well_known::kGpuProductLabel));
    if (product == labels.end()) return false;
    const auto memory = labels.find(std::string(well_known::kGpuMemoryLabel));
    std::int64_t memory_mib = 0;
    if (memory != labels.end()) {
      const std::string& text = memory->second;
      if (std::from_chars(text.data(), text.data() + text.size(), memory_mib).ec != std::errc{})
        memory_mib = 0;
    }
    return devices::find_mig_product(product->second, memory_mib) != nullptr;
  }

  // Changes the pod's spec (or its template) with `edit` and replays; nothing when the scenario
  // does not hold its spec.
  template <typename Edit>
  void change_spec(const std::string& words, Edit edit) {
    Scenario changed = replay_.copy();
    const PodSource source = pod_source(changed, pod());
    if (source.spec == nullptr) return;
    edit(*source.spec);
    out_.push_back(replay_.verify(changed, words + " in " + source.where(), source.prefix));
  }

  // A node that could hold the pod but is not Ready, made Ready (its conditions replaced by
  // Ready=True, as a kubelet that recovered reports).
  void make_ready() {
    for (const NodeRecord* node : holders_) {
      if (node->node.ready()) continue;
      Action patch;
      patch.verb = Verb::Patch;
      patch.target = ObjectRef{"Node", {}, node->node.metadata.name};
      patch.patch = make_node_ready();
      out_.push_back(replay_.verify(replay_.at_attempt(std::move(patch)),
                                    "make node " + node->node.metadata.name + " Ready"));
      return;
    }
  }

  void tolerate_taints() {
    const NodeRecord* node = refused_only_by(names::kTaintToleration);
    if (node == nullptr) return;
    std::vector<Toleration> added;
    std::vector<std::string> words;
    for (const Taint& taint : node->node.effective_taints()) {
      // node.kubernetes.io/ taints mirror the node's conditions and cordon (node lifecycle
      // controller): tolerating them hides a provisioning problem, so they are not offered.
      if (taint.effect == TaintEffect::PreferNoSchedule ||
          taint.key.starts_with("node.kubernetes.io/"))
        continue;
      if (std::any_of(pod().spec.tolerations.begin(), pod().spec.tolerations.end(),
                      [&](const Toleration& t) { return t.tolerates(taint); }))
        continue;
      added.push_back(
          Toleration{taint.key, TolerationOperator::Equal, taint.value, taint.effect, {}});
      words.push_back(taint.key + "=" + taint.value + ":" + std::string(to_string(taint.effect)));
    }
    if (added.empty()) return;
    change_spec("tolerate " + joined(words) + " (node " + node->node.metadata.name + "'s taints)",
                [&](PodSpec& spec) {
                  for (const Toleration& t : added) spec.tolerations.mut().push_back(t);
                });
  }

  // spec.nodeSelector's missing labels, set on a node by a timeline patch.
  void label_node() {
    const NodeRecord* node = refused_only_by(names::kNodeAffinity);
    if (node == nullptr || pod().spec.node_selector.empty()) return;
    std::map<std::string, std::string> labels;
    std::vector<std::string> words;
    for (const auto& [key, value] : *pod().spec.node_selector) {
      const auto it = node->node.metadata.labels.find(key);
      if (it != node->node.metadata.labels.end() && it->second == value) continue;
      labels[key] = value;
      words.push_back(key + "=" + value);
    }
    if (words.empty()) return;
    Action patch;
    patch.verb = Verb::Patch;
    patch.target = ObjectRef{"Node", {}, node->node.metadata.name};
    patch.patch = set_node_labels(std::move(labels));
    out_.push_back(replay_.verify(
        replay_.at_attempt(std::move(patch)),
        "label node " + node->node.metadata.name + " " + joined(words) + " (its nodeSelector)"));
  }

  void uncordon_node() {
    const NodeRecord* node = refused_only_by(names::kNodeUnschedulable);
    if (node == nullptr) return;
    Action uncordon;
    uncordon.verb = Verb::Uncordon;
    uncordon.target = ObjectRef{"Node", {}, node->node.metadata.name};
    out_.push_back(replay_.verify(replay_.at_attempt(std::move(uncordon)),
                                  "uncordon node " + node->node.metadata.name));
  }

  // The pod's own hard constraints, dropped or softened: what it asks of placement may be more
  // than it needs.
  void relax_policy() {
    const Affinity& affinity = *pod().spec.affinity;
    if (refused_by(names::kNodeAffinity) &&
        (!pod().spec.node_selector.empty() ||
         (affinity.node_affinity && affinity.node_affinity->required))) {
      change_spec("drop its nodeSelector and required node affinity", [](PodSpec& spec) {
        spec.node_selector = {};
        if (spec.affinity->node_affinity) spec.affinity.mut().node_affinity->required.reset();
      });
    }
    if (refused_by(names::kInterPodAffinity) &&
        ((affinity.pod_affinity && !affinity.pod_affinity->required.empty()) ||
         (affinity.pod_anti_affinity && !affinity.pod_anti_affinity->required.empty()))) {
      change_spec("drop its required pod affinity and anti-affinity terms", [](PodSpec& spec) {
        Affinity& a = spec.affinity.mut();
        if (a.pod_affinity) a.pod_affinity->required.clear();
        if (a.pod_anti_affinity) a.pod_anti_affinity->required.clear();
      });
    }
    if (refused_by(names::kPodTopologySpread)) {
      change_spec("make its topology spread constraints whenUnsatisfiable: ScheduleAnyway",
                  [](PodSpec& spec) {
                    for (TopologySpreadConstraint& c : spec.topology_spread_constraints.mut())
                      c.when_unsatisfiable = "ScheduleAnyway";
                  });
    }
  }

  // A node whose GPUs MIG partitions advertises MIG devices, not whole nvidia.com/gpu: the
  // GPU Operator's mig-manager undoes that when the label says all-disabled. Only a GPU that has
  // MIG (one gpusched knows MIG profiles for, devices::find_mig_product) is partitioned.
  void disable_mig() {
    if (!view_.pod.requests->contains(resource::kGpu)) return;
    for (const NodeRecord* node : holders_) {
      const Labels& labels = node->node.metadata.labels;
      const auto mig = labels.find(std::string(well_known::kMigConfigLabel));
      if (mig == labels.end() || mig->second == "all-disabled" || !mig_capable(labels)) continue;
      Action patch;
      patch.verb = Verb::Patch;
      patch.target = ObjectRef{"Node", {}, node->node.metadata.name};
      patch.patch = set_node_labels({{std::string(well_known::kMigConfigLabel), "all-disabled"}});
      out_.push_back(replay_.verify(replay_.at_attempt(std::move(patch)),
                                    "label node " + node->node.metadata.name + " " +
                                        std::string(well_known::kMigConfigLabel) +
                                        "=all-disabled (whole GPUs instead of MIG devices)"));
      return;
    }
  }

  // Room made by removing pods: preemption's own victim search, as if the pod outranked all. A
  // pod its controller owns would be made again (a ReplicaSet keeps its replicas, a Job its
  // parallelism, a DaemonSet a pod per node, a StatefulSet its ordinals): its Deployment or
  // ReplicaSet is scaled down instead, and without one in the scenario to scale nothing is
  // offered.
  void remove_pods_and_raise_priority() {
    const CycleReport unbounded =
        attempt_.report_cycle(e_.pod, std::numeric_limits<std::int32_t>::max());
    const PreemptionReport* fewest = nullptr;
    for (const PreemptionReport& p : unbounded.preemption) {
      if (p.candidate && (fewest == nullptr || p.victims.size() < fewest->victims.size()))
        fewest = &p;
    }
    if (fewest == nullptr) return;
    const std::vector<PodRecord> pods = attempt_.pods();
    std::vector<std::string> deleted;
    std::map<ObjectRef, std::vector<std::string>> scaled;  // a controller, its victims
    bool removable = true;
    for (const std::string& victim : fewest->victims) {
      const auto record = std::find_if(pods.begin(), pods.end(),
                                       [&](const PodRecord& r) { return r.pod.key() == victim; });
      const OwnerReference* owner =
          record == pods.end() ? nullptr : record->pod.metadata.controller();
      if (owner == nullptr) {
        deleted.push_back(victim);
      } else if (const std::optional<ObjectRef> target = scalable(record->pod, *owner)) {
        scaled[*target].push_back(victim);
      } else {
        removable = false;
      }
    }
    if (removable) {
      Scenario changed = replay_.copy();
      for (const std::string& victim : deleted) {
        Action remove;
        remove.verb = Verb::Delete;
        const auto slash = victim.find('/');
        remove.target = ObjectRef{"Pod", victim.substr(0, slash), victim.substr(slash + 1)};
        remove.grace_period_seconds = 0;
        changed.timeline.push_back(replay_.at_attempt(std::move(remove)).timeline.back());
      }
      std::vector<std::string> words;
      if (!deleted.empty()) words.push_back("delete (or let finish) " + joined(deleted));
      for (const auto& [target, victims] : scaled) {
        Action scale;
        scale.verb = Verb::Scale;
        scale.target = target;
        const std::int32_t replicas = replicas_at(target);
        scale.replicas =
            std::max<std::int32_t>(0, replicas - static_cast<std::int32_t>(victims.size()));
        changed.timeline.push_back(replay_.at_attempt(std::move(scale)).timeline.back());
        words.push_back("scale " + target.kind + " " + target.name + " from " +
                        std::to_string(replicas) + " to " + std::to_string(scale.replicas) +
                        " replicas (its ReplicaSet would recreate " + joined(victims) +
                        " if deleted)");
      }
      out_.push_back(replay_.verify(
          changed, scaled.empty() ? words.front() + " on node " + fewest->node
                                  : "make room on node " + fewest->node + ": " + joined(words)));
    }
    raise_priority(*fewest);
  }

  // What scales a pod's controller down for good: the ReplicaSet that owns it, when the scenario
  // declares it by the attempt, else the Deployment that made that ReplicaSet (named
  // "<deployment>-<pod-template-hash>", the hash without dashes); nullopt for any other
  // controller or one the scenario lacks (a snapshot's pods keep their owners but not their
  // controllers).
  std::optional<ObjectRef> scalable(const Pod& pod, const OwnerReference& owner) const {
    if (owner.kind != "ReplicaSet") return std::nullopt;
    std::optional<ObjectRef> replica_set;
    std::optional<ObjectRef> deployment;
    const std::string& ns = pod.metadata.namespace_;
    for_each_declared(
        [&](const Object& object) {
          const ObjectMeta& meta = meta_of(object);
          if (meta.namespace_ != ns) return;
          const std::string prefix = meta.name + "-";
          if (std::holds_alternative<ReplicaSet>(object) && meta.name == owner.name) {
            replica_set = ObjectRef{"ReplicaSet", ns, meta.name};
          } else if (std::holds_alternative<Deployment>(object) && owner.name.starts_with(prefix) &&
                     owner.name.find('-', prefix.size()) == std::string::npos) {
            deployment = ObjectRef{"Deployment", ns, meta.name};
          }
        },
        [](const Action&) {});
    return replica_set ? replica_set : deployment;
  }

  // `target`'s replicas at the attempt: as declared, then as applied or scaled since.
  std::int32_t replicas_at(const ObjectRef& target) const {
    std::int32_t replicas = 0;
    for_each_declared(
        [&](const Object& object) {
          if (ref_of(object) != target) return;
          if (const auto* d = std::get_if<Deployment>(&object)) replicas = d->replicas;
          if (const auto* rs = std::get_if<ReplicaSet>(&object)) replicas = rs->replicas;
        },
        [&](const Action& scale) {
          if (scale.target == target) replicas = scale.replicas;
        });
    return replicas;
  }

  // Calls `on_object` on each object the scenario declares by the attempt (its cluster, then
  // what its timeline applies up to then) and `on_scale` on each scale action up to then, in
  // the order they happen.
  template <typename OnObject, typename OnScale>
  void for_each_declared(OnObject on_object, OnScale on_scale) const {
    for (const Object& object : view_.scenario.cluster) on_object(object);
    for (const Action& action : view_.scenario.timeline) {
      if (action.at > e_.time) continue;
      if (action.verb == Verb::Scale) on_scale(action);
      if (action.verb != Verb::Apply) continue;
      for (const Object& object : action.objects) on_object(object);
    }
  }

  // The lowest priority above the victims', from an existing PriorityClass or a new one.
  void raise_priority(const PreemptionReport& candidate) {
    if (pod().spec.preemption_policy == "Never" || !e_.cycle.placement.nominated_node.empty())
      return;
    std::int32_t highest_victim = std::numeric_limits<std::int32_t>::min();
    for (const PodRecord& r : attempt_.pods()) {
      if (std::find(candidate.victims.begin(), candidate.victims.end(), r.pod.key()) !=
          candidate.victims.end())
        highest_victim = std::max(highest_victim, r.pod.priority());
    }
    if (highest_victim == std::numeric_limits<std::int32_t>::max()) return;
    Scenario changed = replay_.copy();
    const PriorityClass* lowest = nullptr;
    auto consider = [&](const Object& object) {
      const auto* pc = std::get_if<PriorityClass>(&object);
      if (pc != nullptr && pc->value > highest_victim && pc->value > pod().priority() &&
          pc->preemption_policy != "Never" && (lowest == nullptr || pc->value < lowest->value))
        lowest = pc;
    };
    for (const Object& object : changed.cluster) consider(object);
    for (const Action& action : changed.timeline) {
      if (action.verb != Verb::Apply || action.at > e_.time) continue;
      for (const Object& object : action.objects) consider(object);
    }
    std::string words;
    std::string class_name;
    if (lowest != nullptr) {
      class_name = lowest->metadata.name;
      words = "give it priorityClassName " + class_name + " (value " +
              std::to_string(lowest->value) + ")";
    } else {
      PriorityClass created;
      created.metadata.name = "explain-preemptor";
      created.value = highest_victim + 1;
      class_name = created.metadata.name;
      words = "create PriorityClass " + class_name + " with value " +
              std::to_string(created.value) + " and give it to the pod";
      changed.cluster.insert(changed.cluster.begin(), Object{created});
      changed.cluster_pointers.insert(changed.cluster_pointers.begin(), "/explain/remedy");
    }
    const PodSource source = pod_source(changed, pod());
    if (source.spec == nullptr) return;
    source.spec->priority_class_name = class_name;
    source.spec->priority.reset();  // the Priority admission plugin resolves it again
    out_.push_back(replay_.verify(changed,
                                  words + " in " + source.where() + ": it would preempt " +
                                      joined(candidate.victims) + " on node " + candidate.node,
                                  source.prefix));
  }

  // More nodes like one that could hold the pod and is refused only for room (or, when no node
  // can hold it, like the one with the most GPUs, grown to the request): one, then doubling
  // while other pending pods take the new room first.
  void add_nodes() {
    const NodeRecord* model = nullptr;
    const auto gpus = view_.pod.requests->find(resource::kGpu);
    const std::int64_t need_gpus = gpus == view_.pod.requests->end() ? 0 : gpus->second.milli();
    for (const NodeRecord* node : holders_) {
      const NodeReport* report = report_of(e_.cycle, node->node.metadata.name);
      const std::vector<std::string> plugins =
          report != nullptr ? failing_plugins(*report) : std::vector<std::string>{};
      // A copy of a node that does not advertise the GPUs it has would not either.
      const auto advertised = node->node.allocatable.find(resource::kGpu);
      if (need_gpus > 0 &&
          (advertised == node->node.allocatable.end() || advertised->second.milli() < need_gpus))
        continue;
      if (std::all_of(plugins.begin(), plugins.end(), [](const std::string& p) {
            return p == names::kNodeResourcesFit || p == names::kTaintToleration;
          })) {
        model = node;
        break;
      }
    }
    if (model == nullptr && holders_.empty() && !view_.nodes.empty()) {
      model = &*std::max_element(
          view_.nodes.begin(), view_.nodes.end(),
          [](const NodeRecord& a, const NodeRecord& b) { return a.gpus.size() < b.gpus.size(); });
    }
    std::optional<Node> copy;
    std::string like;
    std::string grown;
    if (model != nullptr) {
      copy = declared_copy(view_.scenario, model->node.metadata.name, view_.nodes);
      like = model->node.metadata.name;
      if (copy) grown = grow(*copy, *model);
    } else {
      // No node now could: one of a pool that could, now rather than when provisioned.
      for (const NodePool& pool : view_.scenario.node_pools) {
        if (!could_hold(*view_.pod.requests, pool, view_.scenario)) continue;
        copy = declared_copy(view_.scenario, pool_node_name(pool, 0), view_.nodes);
        like = "pool " + pool.name + "'s template";
        break;
      }
    }
    if (!copy) return;
    auto try_copies = [&](int count) {
      Action add;
      add.verb = Verb::Apply;
      std::vector<std::string> names;
      for (int i = 0; i < count; ++i) {
        Node node = *copy;
        if (i > 0) node.metadata.name += "-" + std::to_string(i + 1);
        if (node.metadata.labels.contains(std::string(well_known::kHostnameLabel)))
          node.metadata.labels.mut()[std::string(well_known::kHostnameLabel)] = node.metadata.name;
        names.push_back(node.metadata.name);
        add.objects.push_back(std::move(node));
      }
      const std::string words = (count == 1 ? "add one more node like "
                                            : "add " + std::to_string(count) + " nodes like ") +
                                like + (grown.empty() ? "" : " with " + grown) + " (" +
                                joined(names) + ")";
      // The new room must be what the pod takes: verified on the added nodes only.
      return replay_.verify(replay_.at_attempt(std::move(add)), words, {}, names);
    };
    // Doubling until it works, then the fewest between the last two counts tried.
    Remedy best = try_copies(1);
    int failed = 1;
    int works = 0;
    for (int count = 2; !best.verified && count <= kMostCopies; count *= 2) {
      Remedy tried = try_copies(count);
      if (tried.verified) {
        works = count;
        best = std::move(tried);
      } else {
        failed = count;
      }
    }
    while (works > failed + 1) {
      const int middle = failed + (works - failed) / 2;
      Remedy tried = try_copies(middle);
      if (tried.verified) {
        works = middle;
        best = std::move(tried);
      } else {
        failed = middle;
      }
    }
    out_.push_back(std::move(best));
  }

  // Raises the copy's resources to the pod's request where the model offers less; returns what
  // was raised, in words.
  std::string grow(Node& copy, const NodeRecord& model) const {
    std::string grown;
    for (const auto& [name, q] : *view_.pod.requests) {
      // Named, not captured: clang 14 (the fuzz build) cannot capture structured bindings.
      auto offers = [](const ResourceList& list, const std::string& resource,
                       const Quantity& need) {
        const auto it = list.find(resource);
        return it != list.end() && it->second.milli() >= need.milli();
      };
      if (name == resource::kGpu && !model.gpus.empty()) {
        if (static_cast<std::int64_t>(model.gpus.size()) * 1000 >= q.milli()) continue;
        copy.metadata.labels.mut()[std::string(well_known::kGpuCountLabel)] =
            std::to_string(q.value());
      } else if (offers(copy.allocatable, name, q) ||
                 (copy.allocatable.empty() && offers(copy.capacity, name, q))) {
        continue;
      }
      copy.capacity[name] = q;
      if (!copy.allocatable.empty()) copy.allocatable[name] = q;
      grown += (grown.empty() ? "" : ", ") + name + " " + q.to_string();
    }
    return grown;
  }

  const AttemptView& view_;
  const Explanation& e_;
  Simulator& attempt_;
  RemedyReplay replay_;
  std::vector<const NodeRecord*> holders_;
  std::vector<Remedy> out_;
};

}  // namespace

std::vector<Remedy> find_remedies(const AttemptView& view, const Explanation& explanation,
                                  Simulator& attempt, const SimulationOptions& options) {
  return PendingRemedies(view, explanation, attempt, options).find();
}

}  // namespace gpusched::explain_detail
