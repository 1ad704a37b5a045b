// The FGD artifact's experiment (../shared/reference/fgd-artifact.md; section numbers below are
// that document's).

#include "gpusched/plan/fragmentation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <tuple>

#include "gpusched/error.hpp"
#include "model/go_rand.hpp"
#include "model/gpu_share_policy.hpp"
#include "plan/parallel.hpp"

namespace gpusched::plan {
namespace {

using gpu_share::Bins;
using gpu_share::kMaxSpecGpu;
using gpu_share::TypicalPod;

// The node YAML's `pods: 1001`.
constexpr std::int32_t kMaxPods = 1001;
// The reflectors' rand.Float64 draws between tuning and rand.Perm (§1.4).
constexpr int kHiddenDraws = 10;
// The most pods tuning may add: the default trace adds about 2,700; a trace whose GPU pods are
// rare and small would otherwise clone CPU-only pods by the million before it stops.
constexpr std::size_t kMaxClones = 1'000'000;

constexpr std::array<std::string_view, 7> kNames = {
    "DotProd", "GpuClustering", "GpuPacking", "BestFit", "FGD", "Random", "FGDCpuPacking"};

[[nodiscard]] gpu_share::Shape shape_of(const GpuSharePod& pod) {
  return {pod.cpu_milli, pod.gpu_milli, pod.gpu_count, pod.gpu_type};
}

/// A node as the Open-Gpu-Share plugin's cache and NodeResourcesFit see it (§2.2).
struct NodeState {
  const GpuShareNode* node = nullptr;
  std::string key;  ///< `%04d-<name>`: the renamed node, whose order breaks score ties
  std::int64_t cpu_left = 0;
  std::int64_t memory_left = 0;
  std::int32_t pods = 0;
  std::vector<std::int32_t> free;  ///< per GPU, milli
  /// GpuClustering's affinity: pods per tag (0: a share of one GPU, n: n whole GPUs).
  std::map<std::int32_t, std::int32_t> tags;

  [[nodiscard]] gpu_share::NodeView view() const { return {cpu_left, free, node->model}; }
};

/// §2.3: NodeResourcesFit (CPU, memory, pod count), then Open-Gpu-Share's filter.
[[nodiscard]] bool fits(const NodeState& n, const GpuSharePod& pod) {
  if (pod.cpu_milli > n.cpu_left || pod.memory_mib > n.memory_left || n.pods + 1 > kMaxPods)
    return false;
  if (pod.gpu_milli <= 0) return true;
  if (n.free.empty() || !gpu_share::type_accepts(pod.gpu_type, n.node->model)) return false;
  return gpu_share::gpus_fit(n.free, shape_of(pod));
}

/// merge_*_discrete.py: per arrived percent 0..columns, the mean of `value` over its events
/// (over the neighbours' x-1..x+1 when it has none), through `finish`.
template <class Finish>
std::vector<std::optional<double>> by_arrived(const std::vector<double>& arrive,
                                              const std::vector<double>& value,
                                              std::int64_t columns, Finish&& finish) {
  std::map<std::int64_t, std::pair<double, std::size_t>> by_column;
  for (std::size_t i = 0; i < arrive.size(); ++i) {
    auto& [sum, count] = by_column[static_cast<std::int64_t>(arrive[i])];
    sum += value[i];
    ++count;
  }
  std::vector<std::optional<double>> out(static_cast<std::size_t>(columns + 1));
  for (std::int64_t x = 0; x <= columns; ++x) {
    double sum = 0;
    std::size_t count = 0;
    if (const auto it = by_column.find(x); it != by_column.end()) {
      std::tie(sum, count) = it->second;
    } else {
      for (std::int64_t y = x - 1; y <= x + 1; ++y) {
        if (const auto it2 = by_column.find(y); it2 != by_column.end()) {
          sum += it2->second.first;
          count += it2->second.second;
        }
      }
    }
    if (count > 0) out[static_cast<std::size_t>(x)] = finish(sum / static_cast<double>(count));
  }
  return out;
}

[[nodiscard]] std::int64_t score(SharePolicy policy, const NodeState& n, const GpuSharePod& pod) {
  const gpu_share::Shape shape = shape_of(pod);
  switch (policy) {
    case SharePolicy::DotProd:
      return gpu_share::dot_product_score(n.view(), shape);
    case SharePolicy::GpuClustering: {
      const auto tag = n.tags.find(gpu_share::clustering_tag(shape));
      return gpu_share::clustering_score(n.view(), shape, tag != n.tags.end() && tag->second > 0,
                                         n.tags.size());
    }
    case SharePolicy::GpuPacking:
      return gpu_share::packing_score(n.view(), shape);
    case SharePolicy::BestFit:
      return gpu_share::best_fit_score(n.view(), shape);
    case SharePolicy::Fgd:
    case SharePolicy::FgdCpuPacking:
    case SharePolicy::Random:
      break;  // run_fragmentation chooses by these itself: the target workload, the draws
  }
  return 0;
}

/// Reserve (§2.4, §3.7): the GPUs gpu_share::take_gpus gives, `device` the one a policy chose.
void place(NodeState& n, const GpuSharePod& pod, int device) {
  n.cpu_left -= pod.cpu_milli;
  n.memory_left -= pod.memory_mib;
  ++n.pods;
  if (pod.gpu_milli <= 0) return;
  ++n.tags[gpu_share::clustering_tag(shape_of(pod))];
  const std::vector<std::int32_t> taken = gpu_share::take_gpus(n.free, shape_of(pod), device);
  GPUSCHED_CHECK(std::ssize(taken) == (pod.gpu_milli == kMilliPerGpu ? pod.gpu_count : 1),
                 "a node that fits a pod has its GPUs");
  for (const std::int32_t d : taken) n.free[static_cast<std::size_t>(d)] -= pod.gpu_milli;
}

/// `name < other` as Go compares strings.
bool by_name(const GpuSharePod& a, const GpuSharePod& b) {
  return a.name < b.name;
}

}  // namespace

std::optional<SharePolicy> share_policy(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<SharePolicy>(i);
  }
  return std::nullopt;
}

std::string_view to_string(SharePolicy policy) {
  return kNames[static_cast<std::size_t>(policy)];
}

std::vector<std::string_view> share_policy_names() {
  return {kNames.begin(), kNames.end()};
}

double python_round2(double x) {
  // CPython rounds the exact binary value (correctly rounded, ties to even), as printf does.
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", x);
  return std::strtod(text, nullptr);
}

FragmentationRun run_fragmentation(const GpuShareTrace& trace,
                                   const FragmentationOptions& options) {
  FragmentationRun out;
  for (const GpuShareNode& node : trace.nodes)
    out.total_milli += std::int64_t{node.gpus} * kMilliPerGpu;
  if (out.total_milli == 0) {
    throw InputError(trace.nodes_file, "",
                     "the node list has no GPU: the experiment measures GPU allocation");
  }
  // §1.3: the trace's pods sorted by name are the workload clones come from.
  std::vector<GpuSharePod> workload = trace.pods;
  std::stable_sort(workload.begin(), workload.end(), by_name);
  GoRand rng(options.seed);
  (void)rng.int_();  // rand.Int(), a log argument evaluated with debug logging off
  // The pods to schedule, in order: each one of the workload's (a clone is the same pod again;
  // its name, `<name>-tuned-<i>`, plays no part).
  std::vector<const GpuSharePod*> events;
  events.reserve(workload.size());
  for (const GpuSharePod& pod : workload) events.push_back(&pod);
  rng.shuffle(static_cast<int>(events.size()), [&](int i, int j) {
    std::swap(events[static_cast<std::size_t>(i)], events[static_cast<std::size_t>(j)]);
  });
  // TunePodsByNodeTotalResource: clones of random workload pods appended until the next one
  // would pass the target (the stop test adds the clone's per-GPU milli only, a quirk kept), or
  // random pods removed while the demand passes it.
  std::int64_t demand = 0;
  for (const GpuSharePod* pod : events) demand += pod->total_gpu_milli();
  // The target in float64, as Go computes ratio * capacity and compares with it.
  const double target =
      (static_cast<double>(options.tune_permille) / 1000.0) * static_cast<double>(out.total_milli);
  if (demand == 0) {
    // The artifact panics ("sim.podTotalMilliGpuReq <= 0"): tuning could never stop.
    throw InputError(trace.pods_file, "",
                     "no pod asks for a GPU: the experiment tunes by GPU demand");
  }
  if (static_cast<double>(demand) > target) {
    // tuneDownPods: random pods of the shuffled list removed until the demand is within it.
    while (static_cast<double>(demand) > target && !events.empty()) {
      const auto index =
          static_cast<std::size_t>(rng.intn(static_cast<std::int32_t>(events.size())));
      demand -= events[index]->total_gpu_milli();
      events.erase(events.begin() + static_cast<std::ptrdiff_t>(index));
      ++out.removed;
    }
  } else if (static_cast<double>(demand) < target && !workload.empty()) {
    // tuneUpPods.
    for (;;) {
      const GpuSharePod& pick =
          workload[static_cast<std::size_t>(rng.intn(static_cast<std::int32_t>(workload.size())))];
      if (static_cast<double>(demand + pick.gpu_milli) > target) break;
      if (out.clones == kMaxClones) {
        throw InputError(trace.pods_file, "",
                         "tuning to " + std::to_string(options.tune_permille / 10) +
                             " % of the GPU capacity would clone more than " +
                             std::to_string(kMaxClones) + " pods");
      }
      demand += pick.total_gpu_milli();
      events.push_back(&pick);
      ++out.clones;
    }
  }
  for (int i = 0; i < kHiddenDraws; ++i) (void)rng.int63();
  // syncClusterResourceList: nodes sorted by name, each renamed with its rank in rand.Perm.
  std::vector<const GpuShareNode*> sorted;
  for (const GpuShareNode& node : trace.nodes) sorted.push_back(&node);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const GpuShareNode* a, const GpuShareNode* b) { return a->name < b->name; });
  const std::vector<int> perm = rng.perm(static_cast<int>(sorted.size()));
  std::vector<NodeState> nodes(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    NodeState& n = nodes[i];
    n.node = sorted[i];
    char rank[16];
    std::snprintf(rank, sizeof rank, "%04d-", perm[i]);
    n.key = rank + sorted[i]->name;
    n.cpu_left = sorted[i]->cpu_milli;
    n.memory_left = sorted[i]->memory_mib;
    n.free.assign(static_cast<std::size_t>(sorted[i]->gpus), kMilliPerGpu);
  }

  // §1.3 step 9, §1.6, §4: each pod once, in order; after each, the arrived and allocated
  // shares and the cluster's fragmentation (the [Alloc] and [Report] lines).
  const double gpus = static_cast<double>(out.total_milli / kMilliPerGpu);
  std::vector<double> arrive, alloc, amount, ratio;
  arrive.reserve(events.size());
  alloc.reserve(events.size());
  amount.reserve(events.size());
  ratio.reserve(events.size());
  // The target workload, from the trace's pods (never the clones), and each node's
  // fragmentation bins as they stand, kept until a pod lands there: FGD scores with their sum,
  // the report sums them over the nodes.
  const bool by_fgd =
      options.policy == SharePolicy::Fgd || options.policy == SharePolicy::FgdCpuPacking;
  const bool cpu_packing = options.policy == SharePolicy::FgdCpuPacking;
  gpu_share::ShapeCounts counts;
  for (const GpuSharePod& pod : trace.pods)
    ++counts[{pod.cpu_milli, pod.gpu_milli, pod.gpu_count, pod.gpu_type}];
  const std::vector<TypicalPod> typical = gpu_share::typical_pods(counts);
  std::vector<Bins> bins(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    bins[i] = gpu_share::fragment_bins(nodes[i].view(), typical);
  std::int64_t arrived = 0;
  for (const GpuSharePod* event : events) {
    const GpuSharePod& pod = *event;
    arrived += pod.total_gpu_milli();
    std::size_t chosen = nodes.size();
    std::int64_t best = 0;
    std::int64_t best_used = 0;  // FGDCpuPacking's second key
    int device = -1;
    if (options.policy == SharePolicy::Random) {
      // RandomScore's PreScore: one of the feasible nodes, drawn when there are several (the
      // artifact's feasible list comes from a parallel filter, in no fixed order; gpusched's is
      // in node order).
      std::vector<std::size_t> feasible;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (fits(nodes[i], pod)) feasible.push_back(i);
      }
      if (feasible.size() == 1) chosen = feasible[0];
      if (feasible.size() > 1)
        chosen = feasible[static_cast<std::size_t>(
            rng.intn(static_cast<std::int32_t>(feasible.size())))];
      if (chosen != nodes.size() && shape_of(pod).is_share()) {
        device = gpu_share::random_share_gpu(nodes[chosen].free, shape_of(pod),
                                             [&](std::int32_t n) { return rng.intn(n); });
      }
    }
    for (std::size_t i = 0; i < nodes.size() && options.policy != SharePolicy::Random; ++i) {
      const NodeState& n = nodes[i];
      if (!fits(n, pod)) continue;
      // selectHost of the fork: the highest score, the smallest (renamed) name on a tie. With
      // one feasible node scoring is skipped, which cannot change the choice (FGD's Reserve
      // scores the devices anyway).
      std::int64_t s = 0;
      int d = -1;
      if (by_fgd) {
        const gpu_share::FgdChoice c =
            gpu_share::fgd(n.view(), shape_of(pod), typical, gpu_share::frag_amount(bins[i]));
        s = c.score;
        d = c.device;
      } else {
        s = score(options.policy, n, pod);
      }
      // FGDCpuPacking (gpusched's own): a CPU-only pod among nodes FGD ties goes where the
      // fewest GPU milli are free, which keeps the CPU of nodes with idle GPUs for the GPU pods
      // to come.
      const std::int64_t used =
          cpu_packing && pod.gpu_milli <= 0 ? kMaxSpecGpu - n.view().free_milli() : 0;
      if (chosen == nodes.size() || s > best ||
          (s == best && (used > best_used || (used == best_used && n.key < nodes[chosen].key)))) {
        chosen = i;
        best = s;
        best_used = used;
        device = d;
      }
    }
    if (chosen == nodes.size()) {
      ++out.failed;
    } else {
      NodeState& n = nodes[chosen];
      place(n, pod, device);
      out.used_milli += pod.total_gpu_milli();
      bins[chosen] = gpu_share::fragment_bins(n.view(), typical);
    }
    arrive.push_back(std::nearbyint(static_cast<double>(arrived) / gpus / 10));
    alloc.push_back(python_round2(static_cast<double>(out.used_milli) / gpus / 10));
    // ClusterGpuFragReport: the nodes' bins summed bin by bin; frag amount and ratio as logged.
    Bins cluster{};
    for (const Bins& b : bins) {
      for (std::size_t k = 0; k < cluster.size(); ++k) cluster[k] += b[k];
    }
    const double frag_sum = gpu_share::frag_amount(cluster);
    double idle = 0;
    for (const double b : cluster) idle += b;
    // The log line's `%.2f`, read back: python_round2 rounds the same way.
    amount.push_back(python_round2(frag_sum));
    ratio.push_back(python_round2(idle > 0 ? 100 * frag_sum / idle : 0));
  }
  out.events = events.size();

  // merge_alloc_discrete.py, merge_frag_discrete.py, merge_frag_ratio_discrete.py.
  const std::int64_t columns = options.tune_permille / 10;
  out.allocated = by_arrived(arrive, alloc, columns, python_round2);
  out.frag_amount = by_arrived(arrive, amount, columns, [&](double mean) {
    return python_round2(100 * mean / 1000 / gpus);
  });
  out.frag_ratio = by_arrived(arrive, ratio, columns, [](double mean) { return mean; });
  return out;
}

std::vector<FragmentationRun> run_fragmentations(const GpuShareTrace& trace,
                                                 const std::vector<FragmentationOptions>& runs,
                                                 unsigned jobs) {
  std::vector<FragmentationRun> out(runs.size());
  for_each_parallel(runs.size(), jobs,
                    [&](std::size_t i) { out[i] = run_fragmentation(trace, runs[i]); });
  return out;
}

}  // namespace gpusched::plan
