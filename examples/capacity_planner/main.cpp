// A capacity planner on the gpusched library: how many more nodes of one of the scenario's node
// pools (or like one of its nodes) does its workload need so that no pod is left Pending? Each
// candidate size is a full replay.
//
//   capacity_planner SCENARIO [POOL_OR_NODE] [MAX_EXTRA]
#include <gpusched/gpusched.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <variant>

namespace {

// The scenario with `extra` more nodes like `model`: a larger node pool when `model` names a
// pool, else renamed copies of that node. Its assertions are not the planner's.
gpusched::Scenario grown(gpusched::Scenario s, const gpusched::Node& model, int extra) {
  s.expect.clear();
  for (gpusched::NodePool& pool : s.node_pools) {
    if (pool.name == model.metadata.name) {
      pool.count += extra;
      return s;
    }
  }
  for (int i = 1; i <= extra; ++i) {
    gpusched::Node copy = model;
    copy.metadata.name += "-plan-" + std::to_string(i);
    s.cluster.emplace_back(std::move(copy));
  }
  return s;
}

// Replays with `extra` more nodes and prints what it found; returns the pods left Pending.
long replay(const gpusched::Scenario& base, const gpusched::Node& model, int extra) {
  const gpusched::SimulationResult result = gpusched::simulate(grown(base, model, extra));
  long pending = 0;
  for (const gpusched::PodRecord& record : result.pods)
    pending += record.pod.status.phase == gpusched::PodPhase::Pending ? 1 : 0;
  std::int64_t gpus = 0, used = 0;
  for (const gpusched::NodeRecord& node : result.nodes) {
    const auto held = node.allocated.find(gpusched::resource::kGpu);
    const auto has = node.node.allocatable.find(gpusched::resource::kGpu);
    used += held == node.allocated.end() ? 0 : held->second.value();
    gpus += has == node.node.allocatable.end() ? 0 : has->second.value();
  }
  std::printf("%3d more: %zu pods, %ld pending, %lld of %lld GPUs allocated\n", extra,
              result.pods.size(), pending, static_cast<long long>(used),
              static_cast<long long>(gpus));
  return pending;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: capacity_planner SCENARIO [POOL_OR_NODE] [MAX_EXTRA]\n");
    return 2;
  }
  try {
    const gpusched::Scenario base = gpusched::io::load_scenario(argv[1]);
    // The pool or node to grow: the one named, else the first pool, else the first node.
    const gpusched::Node* model = nullptr;
    for (const gpusched::NodePool& pool : base.node_pools) {
      if (model == nullptr && (argc < 3 || pool.name == argv[2])) model = &pool.node;
    }
    for (const gpusched::Object& object : base.cluster) {
      const auto* node = std::get_if<gpusched::Node>(&object);
      if (model == nullptr && node != nullptr && (argc < 3 || node->metadata.name == argv[2]))
        model = node;
    }
    if (model == nullptr) {
      std::fprintf(stderr, "%s: no such node pool or node in the scenario\n",
                   argc < 3 ? "" : argv[2]);
      return 2;
    }
    const int most = argc > 3 ? std::stoi(argv[3]) : 64;
    // Binary search, assuming that more nodes never leave more pods Pending.
    if (replay(base, *model, most) > 0) {
      std::printf("even %d more nodes like %s leave pods Pending\n", most,
                  model->metadata.name.c_str());
      return 1;
    }
    int low = 0, high = most;
    while (low < high) {
      const int mid = low + (high - low) / 2;
      if (replay(base, *model, mid) == 0) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    std::printf("%d more node(s) like %s: every pod gets a node\n", low,
                model->metadata.name.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
