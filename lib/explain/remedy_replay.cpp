#include "explain/remedy_replay.hpp"

#include <algorithm>
#include <type_traits>

#include "gpusched/error.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/model/well_known.hpp"

namespace gpusched::explain_detail {
namespace {

// Where the change a remedy makes is said to come from, in messages about it.
constexpr std::string_view kPointer = "/explain/remedy";

bool runs(const PodRecord& r) {
  return r.scheduled && r.pod.status.phase != PodPhase::Failed;
}

}  // namespace

std::string PodSource::where() const {
  return owner.empty() ? "the pod's spec" : owner + "'s pod template";
}

namespace {

// The spec the pod comes from (pod_source), in a scenario that may be const.
template <class Spec>
struct Source {
  Spec* spec = nullptr;
  std::string owner;
  std::string prefix;
};

template <class S>
auto find_source(S& scenario, const Pod& pod) {
  using SpecT = std::conditional_t<std::is_const_v<S>, const PodSpec, PodSpec>;
  using ObjectT = std::conditional_t<std::is_const_v<S>, const Object, Object>;
  Source<SpecT> best;
  auto consider = [&](ObjectT& object) {
    const std::string_view kind = kind_of(object);
    std::visit(
        [&](auto& o) {
          using T = std::decay_t<decltype(o)>;
          if (o.metadata.namespace_ != pod.metadata.namespace_) return;
          if constexpr (std::is_same_v<T, Pod>) {
            if (o.metadata.name == pod.metadata.name) best = {&o.spec, {}, {}};
          } else if constexpr (requires { o.template_; }) {
            if (best.spec != nullptr && best.owner.empty()) return;  // the pod itself wins
            const std::string prefix = o.metadata.name + "-";
            if (pod.metadata.name.starts_with(prefix) && prefix.size() > best.prefix.size()) {
              best = {&o.template_.spec, std::string(kind) + " " + o.metadata.name, prefix};
            }
          }
        },
        object);
  };
  for (ObjectT& object : scenario.cluster) consider(object);
  for (auto& action : scenario.timeline) {
    if (action.verb != Verb::Apply) continue;
    for (ObjectT& object : action.objects) consider(object);
  }
  return best;
}

}  // namespace

PodSource pod_source(Scenario& scenario, const Pod& pod) {
  auto found = find_source(scenario, pod);
  return PodSource{found.spec, std::move(found.owner), std::move(found.prefix)};
}

bool bound_by_manifest(const Scenario& scenario, const Pod& pod) {
  const auto found = find_source(scenario, pod);
  return found.spec != nullptr && !found.spec->node_name.empty();
}

std::optional<Node> declared_copy(const Scenario& scenario, const std::string& name,
                                  const std::vector<NodeRecord>& nodes) {
  std::optional<Node> node;
  for (const Object& object : scenario.cluster) {
    if (const Node* n = std::get_if<Node>(&object); n != nullptr && n->metadata.name == name)
      node = *n;
  }
  for (const NodePool& pool : scenario.node_pools) {
    for (std::int32_t i = 0; !node && i < pool.max_count(); ++i) {
      if (pool_node_name(pool, i) == name) node = pool.node;
    }
  }
  if (!node) return node;
  auto taken = [&](const std::string& candidate) {
    return std::any_of(nodes.begin(), nodes.end(),
                       [&](const NodeRecord& r) { return r.node.metadata.name == candidate; });
  };
  std::string copy_name = name + "-copy";
  for (int i = 2; taken(copy_name); ++i) copy_name = name + "-copy-" + std::to_string(i);
  node->metadata.name = copy_name;
  node->metadata.uid.clear();
  node->metadata.labels.mut().erase(std::string(well_known::kNodePoolLabel));
  if (node->metadata.labels.contains(std::string(well_known::kHostnameLabel)))
    node->metadata.labels.mut()[std::string(well_known::kHostnameLabel)] = copy_name;
  node->unschedulable = false;
  std::erase_if(node->conditions, [](const NodeCondition& c) { return c.type == "Ready"; });
  return node;
}

RemedyReplay::RemedyReplay(const AttemptView& view, const Explanation& explanation,
                           const SimulationOptions& options)
    : view_(view), explanation_(explanation), options_(options) {
  options_.observer = {};
  options_.progress = nullptr;
  options_.until.reset();
}

Scenario RemedyReplay::copy() const {
  Scenario changed = view_.scenario;
  changed.expect.clear();
  return changed;
}

Scenario RemedyReplay::at_attempt(Action action) const {
  Scenario changed = copy();
  action.at = explanation_.time;
  action.pointer = std::string(kPointer);
  changed.timeline.push_back(std::move(action));
  return changed;
}

Remedy RemedyReplay::verify(const Scenario& changed, std::string change, const std::string& prefix,
                            const std::vector<std::string>& on_nodes) {
  Remedy remedy{std::move(change), false, std::nullopt, {}, {}};
  SimulationResult result;
  try {
    result = simulate(changed, options_);
  } catch (const InputError& error) {
    remedy.change += " (could not be replayed: " + std::string(error.what()) + ")";
    return remedy;
  }
  const PodRecord* found = nullptr;
  for (const PodRecord& r : result.pods) {
    if (r.pod.key() == explanation_.pod && runs(r)) found = &r;
  }
  if (found == nullptr && !prefix.empty() &&
      running(result, prefix) > running(baseline(), prefix)) {
    for (const PodRecord& r : result.pods) {
      if (of(r, prefix) && runs(r) && (found == nullptr || *r.scheduled > *found->scheduled))
        found = &r;
    }
  }
  // A change works when the pod runs sooner than it would anyway (or at all).
  std::optional<TimeMs> anyway;
  for (const PodRecord& r : baseline().pods) {
    if (r.pod.key() == explanation_.pod && runs(r)) anyway = r.scheduled;
  }
  if (found != nullptr && (!anyway || *found->scheduled < *anyway)) {
    const std::string& node = found->pod.spec.node_name;
    if (!on_nodes.empty() && std::find(on_nodes.begin(), on_nodes.end(), node) == on_nodes.end()) {
      // It runs sooner, but not where the change made room: something else moved.
      remedy.why_not = "the pod runs on " + node + " at " + format_duration(*found->scheduled) +
                       ", not on an added node";
      return remedy;
    }
    remedy.verified = true;
    remedy.scheduled_at = found->scheduled;
    remedy.node = found->pod.spec.node_name;
  }
  return remedy;
}

bool RemedyReplay::of(const PodRecord& r, const std::string& prefix) const {
  return r.pod.metadata.namespace_ == view_.pod.pod.metadata.namespace_ &&
         r.pod.metadata.name.starts_with(prefix);
}

std::size_t RemedyReplay::running(const SimulationResult& result, const std::string& prefix) const {
  return static_cast<std::size_t>(
      std::count_if(result.pods.begin(), result.pods.end(),
                    [&](const PodRecord& r) { return of(r, prefix) && runs(r); }));
}

const SimulationResult& RemedyReplay::baseline() {
  if (!baseline_) baseline_ = simulate(copy(), options_);
  return *baseline_;
}

}  // namespace gpusched::explain_detail
