#include "devices/gpu_allocator.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>

namespace gpusched::devices {
namespace {

// go-gpuallocator gpuallocator/besteffort_policy.go, iterateGPUPartitions + Allocate, over
// "slots": slot i < gpu_count is available[i], slots gpu_count.. are the nil padding entries
// gpuSetCopyAndAddPadding appends. The enumeration order is upstream's exactly, because ties
// go to the first partition found:
// - the first remaining slot always opens the next set, joined by every combination of
//   size - 1 of the slots after it in lexicographic order (iterateGPUSets), so no partition
//   is visited twice;
// - a set holds either no padding or all of it;
// - the last size slots left form the last set.
// Upstream rebuilds each partition and rescores it from scratch; here the score and "has a
// set without padding holding all of required" (gpuPartitionContainsSetWithAll) are carried
// down the recursion, which visits the same partitions in the same order. A subtree is skipped
// when even its best conceivable completion cannot beat the best partition so far: upstream
// replaces the best only on a strictly greater score, so the answer is unchanged.
class PartitionSearch {
 public:
  PartitionSearch(const GpuTopology& topology, const std::vector<int>& gpus,
                  const std::vector<int>& required, int size)
      : size_(static_cast<std::size_t>(size)),
        gpu_count_(gpus.size()),
        slot_count_((gpus.size() + size_ - 1) / size_ * size_),
        padding_(slot_count_ - gpu_count_),
        scores_(slot_count_ * slot_count_, 0),
        required_(slot_count_, 0),
        in_set_(slot_count_, 0),
        partners_(slot_count_, 0),
        path_(slot_count_),
        remaining_(slot_count_ / size_ + 1) {
    for (std::size_t a = 0; a < gpu_count_; ++a) {
      for (std::size_t b = 0; b < gpu_count_; ++b) {
        scores_[a * slot_count_ + b] = topology.pair_score(gpus[a], gpus[b]);
      }
    }
    for (std::size_t a = 0; a < gpu_count_; ++a) partners_[a] = best_partners(a);
    max_pair_ = *std::max_element(scores_.begin(), scores_.end());
    for (const int gpu : required) {
      const auto slot = std::lower_bound(gpus.begin(), gpus.end(), gpu) - gpus.begin();
      required_[static_cast<std::size_t>(slot)] = 1;
    }
    required_count_ = required.size();
  }

  // The sets of the best partition, in upstream's order (empty when none qualifies).
  [[nodiscard]] std::vector<std::vector<std::size_t>> run() {
    auto& all = remaining_[0];
    all.resize(slot_count_);
    for (std::size_t slot = 0; slot < slot_count_; ++slot) all[slot] = slot;
    int partners = 0;
    for (const int p : partners_) partners += p;
    partition(0, Progress{0, false, partners});
    std::vector<std::vector<std::size_t>> sets;
    if (!found_) return sets;
    for (std::size_t start = 0; start < slot_count_; start += size_) {
      sets.emplace_back(best_.begin() + static_cast<std::ptrdiff_t>(start),
                        best_.begin() + static_cast<std::ptrdiff_t>(start + size_));
    }
    return sets;
  }

  [[nodiscard]] int set_score(const std::vector<std::size_t>& set) const {
    int score = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
      for (std::size_t j = i + 1; j < set.size(); ++j) score += pair(set[i], set[j]);
    }
    return score;
  }

  [[nodiscard]] bool holds_required(const std::vector<std::size_t>& set) const {
    return required_count_ ==
           static_cast<std::size_t>(std::count_if(
               set.begin(), set.end(), [&](std::size_t slot) { return required_[slot] != 0; }));
  }

  [[nodiscard]] bool is_padding(std::size_t slot) const { return slot >= gpu_count_; }

 private:
  [[nodiscard]] int pair(std::size_t a, std::size_t b) const {
    return scores_[a * slot_count_ + b];
  }

  // The sum of the size - 1 highest pair scores of GPU slot `a`: no set can give it more.
  [[nodiscard]] int best_partners(std::size_t a) const {
    std::vector<int> others;
    for (std::size_t b = 0; b < gpu_count_; ++b) {
      if (b != a) others.push_back(pair(a, b));
    }
    const auto take = static_cast<std::ptrdiff_t>(std::min(size_ - 1, others.size()));
    std::partial_sort(others.begin(), others.begin() + take, others.end(), std::greater<>());
    int sum = 0;
    for (auto it = others.begin(); it != others.begin() + take; ++it) sum += *it;
    return sum;
  }

  // The path so far: the score of its sets, whether one of them is a set without padding
  // holding all of required, and the best_partners sum of the slots not yet placed.
  struct Progress {
    int score;
    bool has_required_set;
    int partners;
  };

  // The highest score any completion of the path could reach. The sets still to come add at
  // most half the best_partners of their GPUs (a pair counts for both its GPUs), and at most
  // their number of pairs times the best pair score.
  [[nodiscard]] int upper_bound(const std::vector<std::size_t>& remaining,
                                const Progress& progress) const {
    std::size_t pairs = remaining.size() / size_ * (size_ * (size_ - 1) / 2);
    if (is_padding(remaining.back())) {
      // One set will hold all the padding and only size - padding (at least 1) GPUs.
      const std::size_t real = size_ - padding_;
      pairs -= size_ * (size_ - 1) / 2 - real * (real - 1) / 2;
    }
    const int by_count = static_cast<int>(pairs) * max_pair_;
    return progress.score + std::min(progress.partners / 2, by_count);
  }

  // The sets of the current path occupy path_[0, depth * size_).
  void partition(std::size_t depth, const Progress& progress) {
    const std::vector<std::size_t>& remaining = remaining_[depth];
    if (found_ && upper_bound(remaining, progress) <= best_score_) return;
    if (remaining.size() == size_) {
      finish(depth, progress);
      return;
    }
    const std::size_t first = depth * size_;
    path_[first] = remaining[0];
    grow_set(depth, 1, 1,
             SetState{progress, 0, is_padding(remaining[0]) ? 1U : 0U,
                      required_[remaining[0]] != 0 ? 1U : 0U});
  }

  struct SetState {
    Progress before;  // the sets before this one
    int set_score;
    std::size_t padding;
    std::size_t required;
  };

  // Adds members to the set being built at `depth` (iterateGPUSets over the slots after the
  // first), `filled` members so far, the next one taken from remaining[from..].
  void grow_set(std::size_t depth, std::size_t filled, std::size_t from, const SetState& state) {
    const std::vector<std::size_t>& remaining = remaining_[depth];
    const std::size_t first = depth * size_;
    if (filled == size_) {
      close_set(depth, state);
      return;
    }
    for (std::size_t i = from; i + (size_ - filled) <= remaining.size(); ++i) {
      const std::size_t slot = remaining[i];
      SetState next = state;
      for (std::size_t m = first; m < first + filled; ++m) next.set_score += pair(slot, path_[m]);
      next.padding += is_padding(slot) ? 1 : 0;
      next.required += required_[slot] != 0 ? 1 : 0;
      path_[first + filled] = slot;
      grow_set(depth, filled + 1, i + 1, next);
    }
  }

  // "Only consider sets that either contain the full padding or no padding at all."
  void close_set(std::size_t depth, const SetState& state) {
    if (state.padding != 0 && state.padding != padding_) return;
    const std::size_t first = depth * size_;
    for (std::size_t m = first; m < first + size_; ++m) in_set_[path_[m]] = 1;
    std::vector<std::size_t>& next = remaining_[depth + 1];
    next.clear();
    for (const std::size_t slot : remaining_[depth]) {
      if (in_set_[slot] == 0) next.push_back(slot);
    }
    int partners = state.before.partners;
    for (std::size_t m = first; m < first + size_; ++m) {
      in_set_[path_[m]] = 0;
      partners -= partners_[path_[m]];
    }
    const bool holds = state.padding == 0 && state.required == required_count_;
    partition(depth + 1, Progress{state.before.score + state.set_score,
                                  state.before.has_required_set || holds, partners});
  }

  // The base case: the size_ slots left are the last set. A later partition replaces the best
  // one only when its score is strictly greater (`score > bestScore || bestPartition == nil`),
  // and the best is copied out, as upstream does since TestBestEffortAllocateRetainsBestPartition.
  void finish(std::size_t depth, const Progress& progress) {
    const std::vector<std::size_t>& last = remaining_[depth];
    const bool last_holds =
        std::none_of(last.begin(), last.end(), [&](std::size_t s) { return is_padding(s); }) &&
        holds_required(last);
    if (!progress.has_required_set && !last_holds) return;
    const int total = progress.score + set_score(last);
    if (found_ && total <= best_score_) return;
    found_ = true;
    best_score_ = total;
    best_.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(depth * size_));
    best_.insert(best_.end(), last.begin(), last.end());
  }

  std::size_t size_;
  std::size_t gpu_count_;
  std::size_t slot_count_;
  std::size_t padding_;
  std::vector<int> scores_;     // slot x slot pair scores; 0 with padding (a nil device)
  std::vector<char> required_;  // per slot
  std::size_t required_count_ = 0;
  std::vector<char> in_set_;
  std::vector<int> partners_;  // best_partners per slot; 0 for padding
  int max_pair_ = 0;
  std::vector<std::size_t> path_;
  std::vector<std::vector<std::size_t>> remaining_;  // per depth
  bool found_ = false;
  int best_score_ = 0;
  std::vector<std::size_t> best_;
};

std::vector<int> sorted_unique(std::vector<int> gpus) {
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  return gpus;
}

// iterateGPUPartitions' size == 1 case: one partition per device, all scoring 0, so the first
// available device holding `required` (already known to be available) wins.
std::vector<int> allocate_one(const std::vector<int>& available, const std::vector<int>& required) {
  return required.empty() ? std::vector<int>{available.front()} : required;
}

// Allocate's last step: among the best partition's sets holding `required`, the first with
// the highest set score.
std::vector<int> best_set(const PartitionSearch& search,
                          const std::vector<std::vector<std::size_t>>& partition,
                          const std::vector<int>& gpus) {
  const std::vector<std::size_t>* best = nullptr;
  int best_score = 0;
  for (const auto& set : partition) {
    if (!search.holds_required(set)) continue;
    const int score = search.set_score(set);
    if (best == nullptr || score > best_score) {
      best = &set;
      best_score = score;
    }
  }
  std::vector<int> result;
  if (best == nullptr) return result;
  for (const std::size_t slot : *best) {
    if (search.is_padding(slot)) return {};
    result.push_back(gpus[slot]);
  }
  return result;
}

}  // namespace

std::vector<int> best_effort_allocate(const GpuTopology& topology, std::vector<int> available,
                                      const std::vector<int>& required, int size) {
  const std::vector<int> gpus = sorted_unique(std::move(available));
  const std::vector<int> must = sorted_unique(required);
  // Allocate's guards: size <= 0, len(available) < size, len(required) > size.
  if (size <= 0 || gpus.size() < static_cast<std::size_t>(size) ||
      must.size() > static_cast<std::size_t>(size)) {
    return {};
  }
  // No set can hold a device that is not available, so no partition qualifies.
  if (!std::includes(gpus.begin(), gpus.end(), must.begin(), must.end())) return {};
  if (size == 1) return allocate_one(gpus, must);
  PartitionSearch search(topology, gpus, must, size);
  return best_set(search, search.run(), gpus);
}

// ---------------------------------------------------------------------------------------------
// k8s-device-plugin internal/rm/allocate.go greedyAlloc (v0.20.0), used for replicas and MIG.

namespace {

struct GpuCounts {
  std::vector<int> allocated;  // by GPU index
  std::vector<int> picked;     // pickedFrom: taken from this GPU by this call
};

GpuCounts initial_counts(const std::vector<SharedDevice>& available,
                         const std::vector<std::string>& required,
                         const std::vector<int>& allocated_per_gpu) {
  int max_gpu = -1;
  for (const auto& device : available) max_gpu = std::max(max_gpu, device.gpu);
  const auto gpus = static_cast<std::size_t>(max_gpu + 1);
  GpuCounts counts{std::vector<int>(gpus, 0), std::vector<int>(gpus, 0)};
  for (std::size_t gpu = 0; gpu < gpus && gpu < allocated_per_gpu.size(); ++gpu) {
    counts.allocated[gpu] = allocated_per_gpu[gpu];
  }
  // prepareCandidates: allocated() is total - available, and `required` devices are not
  // candidates, so they count as allocated on their GPU.
  for (const auto& device : available) {
    if (std::find(required.begin(), required.end(), device.id) != required.end()) {
      ++counts.allocated[static_cast<std::size_t>(device.gpu)];
    }
  }
  return counts;
}

}  // namespace

std::optional<std::vector<std::string>> greedy_allocate(const std::vector<SharedDevice>& available,
                                                        const std::vector<std::string>& required,
                                                        int size,
                                                        const std::vector<int>& allocated_per_gpu,
                                                        bool packed) {
  std::vector<const SharedDevice*> candidates;
  for (const auto& device : available) {
    if (std::find(required.begin(), required.end(), device.id) == required.end()) {
      candidates.push_back(&device);
    }
  }
  const int needed = size - static_cast<int>(required.size());
  if (static_cast<int>(candidates.size()) < needed) return std::nullopt;

  GpuCounts counts = initial_counts(available, required, allocated_per_gpu);
  // The comparator passed to sort.Slice: the policy's order on allocated replicas, then
  // pickedFrom. Upstream re-sorts the same slice before every pick; std::stable_sort matches
  // Go's sort.Slice wherever that is stable (insertion sort up to 12 elements) and is a fixed
  // stand-in for the Go map order of the candidates otherwise.
  const auto before = [&](const SharedDevice* a, const SharedDevice* b) {
    const auto ga = static_cast<std::size_t>(a->gpu);
    const auto gb = static_cast<std::size_t>(b->gpu);
    if (counts.allocated[ga] != counts.allocated[gb]) {
      return packed ? counts.allocated[ga] > counts.allocated[gb]
                    : counts.allocated[ga] < counts.allocated[gb];
    }
    return counts.picked[ga] < counts.picked[gb];
  };
  std::vector<std::string> result = required;
  auto next = candidates.begin();
  for (int i = 0; i < needed; ++i, ++next) {
    std::stable_sort(next, candidates.end(), before);
    const auto gpu = static_cast<std::size_t>((*next)->gpu);
    ++counts.allocated[gpu];
    ++counts.picked[gpu];
    result.push_back((*next)->id);
  }
  return result;
}

}  // namespace gpusched::devices
