// The steps of one scheduling cycle, written once (pkg/scheduler/schedule_one.go): PreFilter and
// findNodesThatFitPod, prioritizeNodes, selectHost and the PostFilter call. schedule_one runs
// them as a cycle; evaluate() and report_cycle() as a one-shot question over every node.
#include "scheduler/cycle.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/rng.hpp"

namespace gpusched {
namespace {

constexpr std::size_t kMinFeasibleNodesToFind = 100;
constexpr std::int64_t kMinFeasibleNodesPercentageToFind = 5;

std::string joined_plugins(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? " " : "") + names[i];
  return out + "]";
}

}  // namespace

std::size_t num_feasible_nodes_to_find(std::int64_t percentage, std::size_t num_all_nodes) {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  if (percentage == 0) {
    percentage = 50 - static_cast<std::int64_t>(num_all_nodes) / 125;
    percentage = std::max(percentage, kMinFeasibleNodesPercentageToFind);
  }
  const auto num =
      static_cast<std::size_t>(static_cast<std::int64_t>(num_all_nodes) * percentage / 100);
  return std::max(num, kMinFeasibleNodesToFind);
}

const std::vector<NodeInfo*>* Scheduler::pre_filter(Framework& fwk, CycleState& state,
                                                    const PodInfo& pod, Diagnosis& diagnosis,
                                                    std::vector<NodeInfo*>& subset) const {
  PreFilterResult pre_result;
  std::vector<std::string> narrowing;
  Status status = fwk.run_pre_filter(state, pod, pre_result, narrowing);
  if (status.code == Code::Error) {
    // RunPreFilterPlugins: `running PreFilter plugin %q: %w` stops the cycle.
    diagnosis.error = "running PreFilter plugin \"" + std::string(status.plugin) +
                      "\": " + status.message(cluster_.pool());
    return nullptr;
  }
  if (!status.ok()) {
    // The rejection is every node's status (NodeToStatus.SetAbsentNodesStatus) and the
    // FitError's PreFilterMsg.
    diagnosis.pre_filter_msg = status.message(cluster_.pool());
    if (status.code == Code::Pending) {
      diagnosis.pending_plugins.emplace(status.plugin);
    } else {
      diagnosis.unschedulable_plugins.emplace(status.plugin);
    }
    diagnosis.absent = std::move(status);
    return nullptr;
  }
  const auto& all_nodes = cluster_.node_list();
  if (!pre_result.node_names) return &all_nodes;
  // Nodes left out by a PreFilterResult are "absent", with one shared status.
  std::sort(pre_result.node_names->begin(), pre_result.node_names->end());
  for (NodeInfo* n : all_nodes) {
    if (std::binary_search(pre_result.node_names->begin(), pre_result.node_names->end(), n->name))
      subset.push_back(n);
  }
  std::sort(narrowing.begin(), narrowing.end());
  diagnosis.absent = Status{
      Code::UnschedulableAndUnresolvable,
      {},
      {cluster_.pool().intern("node(s) didn't satisfy plugin(s) " + joined_plugins(narrowing))}};
  return &subset;
}

void Scheduler::find_nodes_that_fit(Cycle& cycle, Search search, CycleSink* sink) {
  cycle.nodes = pre_filter(cycle.fwk, cycle.state, cycle.pod, cycle.diagnosis, cycle.subset);
  if (cycle.nodes == nullptr) return;
  const std::vector<NodeInfo*>& nodes = *cycle.nodes;
  Status status;
  std::vector<Status> verdicts;
  std::vector<std::string> explanations;
  // The feasible nodes' positions, kept while every one is known: the search is over the whole
  // node list and each node found is found at its position.
  std::vector<std::uint32_t>& positions = cycle.feasible_positions;
  positions.clear();
  bool by_position = &nodes == &cluster_.node_list();
  auto feasible = [&](const NodeInfo& node, std::optional<std::size_t> at) {
    cycle.feasible.push_back(&node);
    if (by_position && at) {
      positions.push_back(static_cast<std::uint32_t>(*at));
    } else {
      by_position = false;
      positions.clear();
    }
  };
  // `first`: the active Filter plugins before it already passed the node, at `at` of `nodes`.
  auto filter = [&](const NodeInfo& node, std::size_t first, std::size_t at) {
    const bool fits = cycle.fwk.run_filter_with_nominated(cycle.state, cycle.pod, node, status,
                                                          first) == Code::Success;
    if (status.code == Code::Error) {
      // RunFilterPlugins: `running %q filter plugin: %w` stops the search (findNodesThatPassFilters
      // returns the error; nextStartNodeIndex does not move).
      cycle.diagnosis.error = "running \"" + std::string(status.plugin) +
                              "\" filter plugin: " + status.message(cluster_.pool());
      return;
    }
    if (fits) {
      feasible(node, at);
    } else {
      cycle.diagnosis.add(node, status);
    }
    if (sink != nullptr) {
      bool nominated_pods_counted = false;
      cycle.fwk.filter_verdicts(cycle.state, cycle.pod, node, verdicts, nominated_pods_counted);
      explanations.assign(verdicts.size(), std::string());
      for (std::size_t i = 0; i < verdicts.size(); ++i) {
        if (verdicts[i].ok() || verdicts[i].code == Code::Skip) continue;
        if (const auto* plugin =
                dynamic_cast<const FilterPlugin*>(cycle.fwk.find_plugin(verdicts[i].plugin)))
          explanations[i] = plugin->explain_rejection(cycle.state, cycle.pod, node);
      }
      sink->filtered(node, verdicts, explanations, nominated_pods_counted, fits);
    }
  };
  if (search == Search::AllNodes) {
    // Every node, where a cycle stops at numFeasibleNodesToFind: the verdicts are complete, and
    // when none fits a cycle has filtered every node too.
    for (std::size_t at = 0; at < nodes.size(); ++at) {
      filter(*nodes[at], 0, at);
      if (cycle.diagnosis.error) return;
    }
    return;
  }
  const std::size_t n = nodes.size();
  std::size_t to_find =
      num_feasible_nodes_to_find(cycle.fwk.profile().percentage_of_nodes_to_score.value_or(
                                     config_.percentage_of_nodes_to_score),
                                 n);
  if (!cycle.fwk.has_score_plugins()) to_find = std::min<std::size_t>(to_find, 1);
  // evaluateNominatedNode: a pod nominated by an earlier preemption tries that node alone first;
  // if it fits, it is taken without scoring.
  const std::string& nominated_name = cycle.pod.pod.status.nominated_node_name;
  if (!nominated_name.empty()) {
    if (const NodeInfo* node = cluster_.find_node(nominated_name); node != nullptr) {
      if (cycle.fwk.run_filter_with_nominated(cycle.state, cycle.pod, *node, status) ==
          Code::Success) {
        feasible(*node, std::nullopt);
      } else if (status.code == Code::Error) {
        cycle.diagnosis.error = "running \"" + std::string(status.plugin) +
                                "\" filter plugin: " + status.message(cluster_.pool());
        return;
      }
    }
  }
  if (!cycle.feasible.empty()) return;
  cycle.diagnosis.expected_failures = n;
  // Node-static verdicts are kept per position in the whole node list, not a PreFilter subset.
  // The reference engine filters every node in full, to compare.
  const bool keyed =
      sink == nullptr && &nodes == &cluster_.node_list() && !config_.reference_engine;
  Framework::StaticVerdicts* static_verdicts =
      keyed ? cycle.fwk.static_verdicts(cycle.state, cycle.pod) : nullptr;
  // The later plugins' verdicts, when they key them.
  const std::size_t first = static_verdicts != nullptr ? static_verdicts->plugins : 0;
  Framework::DynamicVerdicts* dynamic_verdicts =
      keyed ? cycle.fwk.dynamic_verdicts(cycle.state, cycle.pod, first) : nullptr;
  const std::span<const std::uint64_t> versions = cluster_.node_versions();
  auto static_rejection = [&](std::size_t at) {
    return cycle.fwk.static_rejection(*static_verdicts, cycle.state, cycle.pod, *nodes[at], at);
  };
  // The end of the run of nodes from `at` that `rejected` (kept) rejects alike, found once per
  // set of verdicts and remembered for each of its positions.
  auto run_end = [&](std::size_t at, const Status* rejected) -> std::size_t {
    std::vector<std::uint32_t>& ends = static_verdicts->run_end;
    if (ends.size() < n) ends.resize(n, 0);
    if (ends[at] == 0) {
      std::size_t end = at + 1;
      while (end < n && static_rejection(end) == rejected) ++end;
      std::fill(ends.begin() + static_cast<std::ptrdiff_t>(at),
                ends.begin() + static_cast<std::ptrdiff_t>(end), static_cast<std::uint32_t>(end));
    }
    return ends[at];
  };
  // Consecutive nodes rejected by one kept dynamic verdict, recorded as one run when the run
  // breaks.
  std::size_t held_from = 0;
  std::size_t held = 0;
  const Status* held_status = nullptr;
  auto record_held = [&] {
    if (held == 0) return;
    cycle.diagnosis.add_run(std::span<const NodeInfo* const>(nodes.data() + held_from, held),
                            *held_status);
    held = 0;
  };
  // (nextStartNodeIndex + i) % len(nodes), without a division per node.
  const std::size_t start = next_start_node_index_ % n;
  // Where the run of nodes after `at` ends that have `verdict` kept at their versions and that
  // the node-static plugins pass, read from contiguous arrays without touching the nodes: not
  // past `cap`, nor past the nodes this cycle has yet to look at (the search wraps around).
  auto kept_run_end = [&](std::size_t at, std::uint32_t verdict, std::size_t cap) {
    const auto& entries = dynamic_verdicts->by_position;
    const std::size_t limit = std::min({at >= start ? n : start, entries.size(), cap});
    std::size_t next = at + 1;
    while (next < limit && entries[next].verdict == verdict &&
           entries[next].version == versions[next] &&
           (static_verdicts == nullptr ||
            (next < static_verdicts->by_position.size() &&
             static_verdicts->by_position[next] == Framework::StaticVerdicts::kPassed))) {
      ++next;
    }
    return next;
  };
  for (std::size_t i = 0; i < n && cycle.feasible.size() < to_find;) {
    const std::size_t at = start + i < n ? start + i : start + i - n;
    if (static_verdicts != nullptr) {
      if (const Status* rejected = static_rejection(at)) {
        record_held();
        // A kept rejection has a stable address: the nodes after it rejected alike are recorded
        // in one run, not past the nodes this cycle has yet to look at (the search wraps around).
        const std::size_t end = static_verdicts->keeps(rejected)
                                    ? std::min({run_end(at, rejected), n, at + (n - i)})
                                    : at + 1;
        cycle.diagnosis.add_run(std::span<const NodeInfo* const>(nodes.data() + at, end - at),
                                *rejected);
        cycle.processed += end - at;
        i += end - at;
        continue;
      }
    }
    ++cycle.processed;
    ++i;
    if (dynamic_verdicts == nullptr) {
      cycle.fwk.prefetch_filter_inputs(nodes, at);
      filter(*nodes[at], first, at);
      if (cycle.diagnosis.error) return;
      continue;
    }
    const NodeInfo& node = *nodes[at];
    const Status* rejected = cycle.fwk.dynamic_rejection(*dynamic_verdicts, cycle.state, cycle.pod,
                                                         node, at, first, versions[at]);
    if (rejected == nullptr) {
      record_held();
      feasible(node, at);
      // A fleet with room passes most nodes so, cycle after cycle; not past the feasible nodes
      // the cycle needs. The run is appended at once (node by node, the vectors' ends went
      // through memory at every node).
      const std::size_t next = kept_run_end(at, Framework::DynamicVerdicts::kPassed,
                                            at + 1 + (to_find - cycle.feasible.size()));
      cycle.feasible.insert(cycle.feasible.end(),
                            nodes.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                            nodes.begin() + static_cast<std::ptrdiff_t>(next));
      if (by_position) {
        const std::size_t from = positions.size();
        positions.resize(from + (next - at - 1));
        std::iota(positions.begin() + static_cast<std::ptrdiff_t>(from), positions.end(),
                  static_cast<std::uint32_t>(at + 1));
      }
      cycle.processed += next - at - 1;
      i += next - at - 1;
    } else if (dynamic_verdicts->keeps(rejected)) {
      if (held == 0 || rejected != held_status || held_from + held != at) {
        record_held();
        held_from = at;
        held_status = rejected;
      }
      ++held;
      // A full fleet rejects most of its nodes so, cycle after cycle.
      const auto verdict = static_cast<std::uint32_t>(
          Framework::DynamicVerdicts::kRejected + (rejected - dynamic_verdicts->statuses.data()));
      const std::size_t more = kept_run_end(at, verdict, n) - at - 1;
      held += more;
      cycle.processed += more;
      i += more;
    } else {
      record_held();
      cycle.diagnosis.add(node, *rejected);
    }
  }
  record_held();
  next_start_node_index_ = (next_start_node_index_ + cycle.processed) % cluster_.node_list().size();
}

void Scheduler::prioritize_nodes(Cycle& cycle, std::span<std::int64_t> totals, CycleSink* sink,
                                 bool ranking) {
  if (sink == nullptr) {
    cycle.state.set_node_positions(cycle.feasible_positions);
    if (ranking) {
      cycle.fwk.rank_nodes(cycle.state, cycle.pod, cycle.feasible, totals);
    } else {
      cycle.fwk.run_score(cycle.state, cycle.pod, cycle.feasible, totals);
    }
    cycle.state.set_node_positions({});
    return;
  }
  std::vector<Framework::PluginScores> per_plugin;
  cycle.fwk.run_score(cycle.state, cycle.pod, cycle.feasible, totals, &per_plugin);
  sink->scored(totals, per_plugin);
}

std::size_t Scheduler::select_host(std::span<const std::int64_t> totals) {
  // selectHost (schedule_one.go): reservoir sampling over the top score, each tie replacing the
  // choice with probability 1/ties, one draw per tie and none otherwise.
  return rng_.reservoir_max(totals);
}

PostFilterResult Scheduler::post_filter(Cycle& cycle) {
  PostFilterResult post = cycle.fwk.run_post_filter(cycle.state, cycle.pod, cycle.diagnosis);
  if (post.code != Code::Success) cycle.diagnosis.post_filter_msg = post.message;
  return post;
}

}  // namespace gpusched
