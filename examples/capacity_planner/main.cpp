// A capacity planner on the gpusched library: the smallest size of one of the scenario's node
// pools that leaves no pod Pending, and the room left at that size for more pods like the first
// one that waited.   capacity_planner SCENARIO POOL [MAX_SIZE]
#include <gpusched/gpusched.hpp>

#include <cstdio>
#include <exception>
#include <string>

using namespace gpusched;

// Replays the scenario with the pool at `size`; prints what it found, returns the pods Pending.
double pending(const Scenario& base, const std::string& pool, int size) {
  const auto metrics = report::summary_metrics(simulate(plan::with_pool_size(base, pool, size)));
  const auto gpus = report::find_metric(metrics, "allocation.nvidia.com/gpu");
  const double left = report::find_metric(metrics, "pending")->value;
  std::printf("%3d nodes: %.0f pending, GPU allocation %s\n", size, left,
              gpus ? report::format_metric(*gpus).c_str() : "-");
  return left;
}

int main(int argc, char** argv) try {
  if (argc < 3) return std::fprintf(stderr, "usage: capacity_planner SCENARIO POOL [MAX]\n"), 2;
  const Scenario base = io::load_scenario(argv[1]);
  const std::string pool = argv[2];
  int low = 0, high = argc > 3 ? std::stoi(argv[3]) : 64;
  if (pending(base, pool, high) > 0) return std::printf("%d nodes are not enough\n", high), 1;
  while (low < high) {  // binary search: more nodes never leave more pods Pending
    const int mid = low + (high - low) / 2;
    if (pending(base, pool, mid) == 0) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  std::printf("pool %s: %d node(s), every pod gets a node\n", pool.c_str(), low);
  // Step a replay at that size to its end and ask the scheduler, without changing anything,
  // how many more copies of the first pod that waited in the scenario as written would fit.
  for (const PodRecord& waited : simulate(base).pods) {
    if (waited.pod.status.phase != PodPhase::Pending) continue;
    Simulator simulator(plan::with_pool_size(base, pool, low));
    while (simulator.step()) {
    }
    Pod copy;
    copy.metadata.namespace_ = waited.pod.metadata.namespace_;
    copy.spec = waited.pod.spec;
    const FitCount room = simulator.count_fits(copy, 1000);
    std::printf("then %lld more like %s fit\n", static_cast<long long>(room.count),
                waited.pod.metadata.name.c_str());
    break;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
