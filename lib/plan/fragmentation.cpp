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
#include "plan/parallel.hpp"

namespace gpusched::plan {
namespace {

// pkg/type/open-gpu-share/utils/const.go.
constexpr std::int64_t kMaxSpecCpu = 128000;
constexpr std::int64_t kMaxSpecGpu = 8000;
constexpr std::int32_t kMilli = 1000;
constexpr std::int64_t kMaxNodeScore = 100;
// The node YAML's `pods: 1001`.
constexpr std::int32_t kMaxPods = 1001;
// The reflectors' rand.Float64 draws between tuning and rand.Perm (§1.4).
constexpr int kHiddenDraws = 10;
// The most pods tuning may add: the default trace adds about 2,700; a trace whose GPU pods are
// rare and small would otherwise clone CPU-only pods by the million before it stops.
constexpr std::size_t kMaxClones = 1'000'000;

constexpr std::array<std::string_view, 7> kNames = {
    "DotProd", "GpuClustering", "GpuPacking", "BestFit", "FGD", "Random", "FGDCpuPacking"};
// typicalPodsConfig: podPopularityThreshold 95, podIncreaseStep 1.
constexpr double kPopularityThreshold = 95;

/// A group of the target workload (§3.6): the pods of one shape and their share.
struct TypicalPod {
  std::int64_t cpu_milli = 0;
  std::int32_t gpu_milli = 0;
  std::int32_t gpu_count = 0;
  std::string gpu_type;
  double share = 0;
};

/// GetTypicalPods: the trace's pods grouped by shape, the most common first (ties: the larger
/// shape, field by field), until they cover 95 % of the pods; each group's share renormalized
/// over those taken.
std::vector<TypicalPod> typical_pods(const std::vector<GpuSharePod>& pods) {
  using Key = std::tuple<std::int64_t, std::int32_t, std::int32_t, std::string>;
  std::map<Key, double> counts;
  for (const GpuSharePod& pod : pods)
    counts[Key{pod.cpu_milli, pod.gpu_milli, pod.gpu_count, pod.gpu_type}] += 1;
  const auto total = static_cast<double>(pods.size());
  std::vector<std::pair<Key, double>> sorted(counts.begin(), counts.end());
  // sort.Sort(sort.Reverse(pl)): the count, then the key, both descending.
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    if (a.second != b.second) return a.second > b.second;
    return a.first > b.first;
  });
  const double expected = kPopularityThreshold * total / 100.0;
  double cumulative = 0;
  std::size_t taken = 0;
  std::vector<TypicalPod> out;
  while (cumulative < expected && taken < sorted.size()) {
    const auto& [key, count] = sorted[taken++];
    cumulative += count;
    out.push_back(
        {std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), count / total});
  }
  if (taken < sorted.size()) {
    for (TypicalPod& t : out) t.share /= cumulative / total;
  }
  return out;
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

  [[nodiscard]] std::int64_t free_milli() const {
    return std::accumulate(free.begin(), free.end(), std::int64_t{0});
  }
  [[nodiscard]] std::int32_t fully_free() const {
    return static_cast<std::int32_t>(std::count(free.begin(), free.end(), kMilli));
  }
};

[[nodiscard]] bool is_share(const GpuSharePod& pod) {
  return pod.gpu_count == 1 && pod.gpu_milli < kMilli;
}

/// utils.IsNodeAccessibleToPodByType: any model, or one of `A|B` exactly.
[[nodiscard]] bool type_accepts(std::string_view type, std::string_view model) {
  if (type.empty()) return true;
  for (;;) {
    const std::size_t bar = type.find('|');
    if (type.substr(0, bar) == model) return true;
    if (bar == std::string_view::npos) return false;
    type.remove_prefix(bar + 1);
  }
}

/// §2.3: NodeResourcesFit (CPU, memory, pod count), then Open-Gpu-Share's filter.
[[nodiscard]] bool fits(const NodeState& n, const GpuSharePod& pod) {
  if (pod.cpu_milli > n.cpu_left || pod.memory_mib > n.memory_left || n.pods + 1 > kMaxPods)
    return false;
  if (pod.gpu_milli <= 0) return true;
  if (n.free.empty() || !type_accepts(pod.gpu_type, n.node->model)) return false;
  // AllocateGpuId: a device takes a slot per gpu_milli it has free.
  std::int64_t slots = 0;
  for (const std::int32_t f : n.free) slots += f / pod.gpu_milli;
  return slots >= pod.gpu_count;
}

/// §3.5 getBestFitScore: the normalized free resources left, reversed. (Its min-max
/// normalization keeps the order of the raw scores, so the raw score decides.)
[[nodiscard]] std::int64_t best_fit(const NodeState& n, const GpuSharePod& pod) {
  const double free[2] = {static_cast<double>(n.cpu_left), static_cast<double>(n.free_milli())};
  const double req[2] = {static_cast<double>(pod.cpu_milli),
                         static_cast<double>(pod.total_gpu_milli())};
  const double max_spec[2] = {static_cast<double>(kMaxSpecCpu), static_cast<double>(kMaxSpecGpu)};
  double score = 0;
  for (int i = 0; i < 2; ++i) score += (free[i] - req[i]) / max_spec[i] * 0.5;
  score = (1.0 - score) * static_cast<double>(kMaxNodeScore);
  return static_cast<std::int64_t>(score);
}

/// §3.2 calculateDotProductScore, dimExt merge, norm max: one match group.
[[nodiscard]] std::int64_t dot_product(const NodeState& n, const GpuSharePod& pod) {
  const double node_vec[2] = {
      static_cast<double>(n.cpu_left) / static_cast<double>(kMaxSpecCpu),
      static_cast<double>(n.free_milli()) / static_cast<double>(kMaxSpecGpu)};
  const double pod_vec[2] = {
      static_cast<double>(pod.cpu_milli) / static_cast<double>(kMaxSpecCpu),
      static_cast<double>(pod.total_gpu_milli()) / static_cast<double>(kMaxSpecGpu)};
  double score = 0;
  for (int i = 0; i < 2; ++i) score += node_vec[i] * pod_vec[i];
  score /= 2;
  score = 1 - score;
  return static_cast<std::int64_t>(static_cast<double>(kMaxNodeScore) * score);
}

/// The tag GpuClustering groups pods by.
[[nodiscard]] std::int32_t tag_of(const GpuSharePod& pod) {
  return is_share(pod) ? 0 : pod.gpu_count;
}

/// §3.3 GpuClustering (integer arithmetic).
[[nodiscard]] std::int64_t clustering(const NodeState& n, const GpuSharePod& pod) {
  if (pod.gpu_milli <= 0) return 0;
  const std::int64_t base = kMaxNodeScore / 4 * (kMaxSpecGpu - n.free_milli()) / kMaxSpecGpu;
  const auto tag = n.tags.find(tag_of(pod));
  if (tag != n.tags.end() && tag->second > 0)
    return base + (n.tags.size() == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4);
  return base + (n.tags.empty() ? kMaxNodeScore / 4 : 0);
}

/// §3.4 getPackingScore.
[[nodiscard]] std::int64_t packing(const NodeState& n, const GpuSharePod& pod) {
  if (pod.gpu_milli <= 0) return 0;
  const std::int32_t fully_free = n.fully_free();
  if (fully_free == static_cast<std::int32_t>(n.free.size()))
    return std::max<std::int64_t>(kMaxNodeScore / 3 - fully_free, fully_free);
  // SortedMilliGpuLeftIndexList(true): the least free first, stable.
  std::vector<std::size_t> order(n.free.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return n.free[a] < n.free[b]; });
  std::int32_t wanted = pod.gpu_count;
  std::int32_t fully_free_used = 0;
  std::int64_t free_ratio = 0;
  for (const std::size_t d : order) {
    if (wanted == 0) break;
    if (pod.gpu_milli > n.free[d]) continue;
    --wanted;
    if (n.free[d] == kMilli) ++fully_free_used;
    free_ratio += std::int64_t{n.free[d]} * 100 / kMilli;
  }
  if (fully_free_used > 0)
    return std::max<std::int64_t>(kMaxNodeScore / 2 - fully_free_used, kMaxNodeScore / 3);
  return std::max<std::int64_t>(kMaxNodeScore - free_ratio / 10, kMaxNodeScore / 2);
}

/// NodeGpuShareFragAmount's bins, in FragRatioDataMap's order.
enum Bin : std::size_t {
  kLackBoth,
  kLackGpu,
  kSatisfied,
  kLackCpu,
  kCpuSatisfied,
  kCpuLacking,
  kNoAccess
};
using Bins = std::array<double, 7>;

/// NodeGpuShareFragAmount (§3.6): per typical pod, the node's free GPU milli it could not use
/// (or could, in kSatisfied), weighted by its share, in the bin that says why.
[[nodiscard]] Bins fragment_bins(std::int64_t cpu_left, const std::vector<std::int32_t>& free,
                                 std::string_view model, const std::vector<TypicalPod>& typical) {
  Bins bins{};
  const std::int64_t left = std::accumulate(free.begin(), free.end(), std::int64_t{0});
  for (const TypicalPod& t : typical) {
    const bool cpu = cpu_left >= t.cpu_milli;
    if (t.gpu_milli == 0) {
      bins[cpu ? kCpuSatisfied : kCpuLacking] += t.share * static_cast<double>(left);
      continue;
    }
    if (!type_accepts(t.gpu_type, model)) {
      bins[kNoAccess] += t.share * static_cast<double>(left);
      continue;
    }
    // CanNodeHostPodOnGpuMemory.
    std::int32_t wanted = t.gpu_count;
    bool hosts = false;
    for (const std::int32_t f : free) {
      if (f >= t.gpu_milli && --wanted <= 0) {
        hosts = true;
        break;
      }
    }
    if (hosts && cpu) {
      std::int64_t short_of = 0;  // GetGpuFragMilliByNodeResAndPodRes
      for (const std::int32_t f : free) {
        if (f < t.gpu_milli) short_of += f;
      }
      bins[kLackGpu] += t.share * static_cast<double>(short_of);
      bins[kSatisfied] += t.share * static_cast<double>(left - short_of);
    } else if (hosts) {
      bins[kLackCpu] += t.share * static_cast<double>(left);
    } else {
      bins[cpu ? kLackGpu : kLackBoth] += t.share * static_cast<double>(left);
    }
  }
  return bins;
}

/// FragAmountSumExceptQ3: every bin but kSatisfied, in bin order.
[[nodiscard]] double frag_amount(const Bins& bins) {
  double sum = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    if (i != kSatisfied) sum += bins[i];
  }
  return sum;
}

/// NodeGpuShareFragAmountScore.
[[nodiscard]] double fragmentation(std::int64_t cpu_left, const std::vector<std::int32_t>& free,
                                   std::string_view model, const std::vector<TypicalPod>& typical) {
  return frag_amount(fragment_bins(cpu_left, free, model, typical));
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

/// The score for a fragmentation change: int64(sigmoid(Δ/1000) × 100).
[[nodiscard]] std::int64_t fgd_score(double before, double after) {
  const double delta = (before - after) / 1000;
  return static_cast<std::int64_t>(1.0 / (1 + std::exp(-delta)) *
                                   static_cast<double>(kMaxNodeScore));
}

/// calculateGpuShareFragExtendScore: the node's score and, for a share, the device it takes
/// (the first reaching the highest score).
struct FgdChoice {
  std::int64_t score = 0;
  int device = -1;
};
[[nodiscard]] FgdChoice fgd(const NodeState& n, const GpuSharePod& pod,
                            const std::vector<TypicalPod>& typical, double before) {
  std::vector<std::int32_t> free = n.free;
  const std::int64_t cpu_after = n.cpu_left - pod.cpu_milli;
  const std::string_view model = n.node->model;
  FgdChoice out;
  if (is_share(pod)) {
    for (std::size_t i = 0; i < free.size(); ++i) {
      if (free[i] < pod.gpu_milli) continue;
      // A device with the free milli of one before it leaves the node as that one would, and
      // only a strictly higher score moves the choice: it cannot win.
      if (std::find(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(i), free[i]) !=
          free.begin() + static_cast<std::ptrdiff_t>(i))
        continue;
      free[i] -= pod.gpu_milli;
      const std::int64_t s = fgd_score(before, fragmentation(cpu_after, free, model, typical));
      free[i] += pod.gpu_milli;
      if (out.device < 0 || s > out.score) out = {s, static_cast<int>(i)};
    }
    return out;
  }
  // nodeRes.Sub: whole GPUs from the least free that hold them (fully free ones).
  std::int32_t wanted = pod.gpu_milli > 0 ? pod.gpu_count : 0;
  std::vector<std::size_t> order(free.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return free[a] < free[b]; });
  for (const std::size_t d : order) {
    if (wanted == 0) break;
    if (free[d] < pod.gpu_milli) continue;
    free[d] -= pod.gpu_milli;
    --wanted;
  }
  out.score = fgd_score(before, fragmentation(cpu_after, free, model, typical));
  return out;
}

[[nodiscard]] std::int64_t score(SharePolicy policy, const NodeState& n, const GpuSharePod& pod) {
  switch (policy) {
    case SharePolicy::DotProd:
      return dot_product(n, pod);
    case SharePolicy::GpuClustering:
      return clustering(n, pod);
    case SharePolicy::GpuPacking:
      return packing(n, pod);
    case SharePolicy::BestFit:
      return best_fit(n, pod);
    case SharePolicy::Fgd:
    case SharePolicy::FgdCpuPacking:
    case SharePolicy::Random:
      break;  // run_fragmentation chooses by these itself: the target workload, the draws
  }
  return 0;
}

/// Reserve (§2.4, §3.7): whole GPUs take the first fully free devices in index order; a share
/// takes `device` when the policy chose one (FGD), else the device with the least free milli
/// that holds it, the lowest index on a tie.
void place(NodeState& n, const GpuSharePod& pod, int device) {
  n.cpu_left -= pod.cpu_milli;
  n.memory_left -= pod.memory_mib;
  ++n.pods;
  if (pod.gpu_milli <= 0) return;
  ++n.tags[tag_of(pod)];
  if (pod.gpu_milli == kMilli) {
    std::int32_t wanted = pod.gpu_count;
    for (std::int32_t& f : n.free) {
      if (wanted == 0) break;
      if (f != kMilli) continue;
      f = 0;
      --wanted;
    }
    GPUSCHED_CHECK(wanted == 0, "a node that fits a pod has its whole GPUs");
    return;
  }
  std::int32_t* best = device >= 0 ? &n.free[static_cast<std::size_t>(device)] : nullptr;
  if (best == nullptr) {
    for (std::int32_t& f : n.free) {
      if (f >= pod.gpu_milli && (best == nullptr || f < *best)) best = &f;
    }
  }
  GPUSCHED_CHECK(best != nullptr, "a node that fits a shared pod has a GPU with room");
  *best -= pod.gpu_milli;
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
  for (const GpuShareNode& node : trace.nodes) out.total_milli += std::int64_t{node.gpus} * kMilli;
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
    n.free.assign(static_cast<std::size_t>(sorted[i]->gpus), kMilli);
  }

  // §1.3 step 9, §1.6, §4: each pod once, in order; after each, the arrived and allocated
  // shares and the cluster's fragmentation (the [Alloc] and [Report] lines).
  const double gpus = static_cast<double>(out.total_milli / kMilli);
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
  const std::vector<TypicalPod> typical = typical_pods(trace.pods);
  std::vector<Bins> bins(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    bins[i] = fragment_bins(nodes[i].cpu_left, nodes[i].free, nodes[i].node->model, typical);
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
      if (chosen != nodes.size() && is_share(pod)) {
        // Reserve's reservoir sampling over the devices that hold the share.
        std::int32_t seen = 0;
        const NodeState& n = nodes[chosen];
        for (std::size_t d = 0; d < n.free.size(); ++d) {
          if (n.free[d] < pod.gpu_milli) continue;
          if (rng.intn(++seen) == 0) device = static_cast<int>(d);
        }
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
        const FgdChoice c = fgd(n, pod, typical, frag_amount(bins[i]));
        s = c.score;
        d = c.device;
      } else {
        s = score(options.policy, n, pod);
      }
      // FGDCpuPacking (gpusched's own): a CPU-only pod among nodes FGD ties goes where the
      // fewest GPU milli are free, which keeps the CPU of nodes with idle GPUs for the GPU pods
      // to come.
      const std::int64_t used =
          cpu_packing && pod.gpu_milli <= 0 ? kMaxSpecGpu - n.free_milli() : 0;
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
      bins[chosen] = fragment_bins(n.cpu_left, n.free, n.node->model, typical);
    }
    arrive.push_back(std::nearbyint(static_cast<double>(arrived) / gpus / 10));
    alloc.push_back(python_round2(static_cast<double>(out.used_milli) / gpus / 10));
    // ClusterGpuFragReport: the nodes' bins summed bin by bin; frag amount and ratio as logged.
    Bins cluster{};
    for (const Bins& b : bins) {
      for (std::size_t k = 0; k < cluster.size(); ++k) cluster[k] += b[k];
    }
    const double frag_sum = frag_amount(cluster);
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
