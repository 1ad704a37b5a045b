#include "gpusched/framework/pod_index.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "model/permute.hpp"

namespace gpusched {
namespace {

/// The first 32 bytes of a pod's "namespace/name" key as four big-endian words, which compare
/// as the bytes do (unsigned, as std::string compares them). A key shorter than 32 bytes is
/// padded with zeros, below any byte a longer one has there: names and namespaces hold no NUL
/// (validation admits DNS labels and subdomains only).
using KeyPrefix = std::array<std::uint64_t, 4>;

KeyPrefix key_prefix(const ObjectMeta& meta) noexcept {
  std::array<unsigned char, 32> bytes{};
  std::size_t size = 0;
  const auto append = [&](std::string_view text) {
    const std::size_t n = std::min(text.size(), bytes.size() - size);
    std::copy_n(text.begin(), n, bytes.begin() + static_cast<std::ptrdiff_t>(size));
    size += n;
  };
  append(meta.namespace_);
  append("/");
  append(meta.name);
  KeyPrefix words{};
  for (std::size_t i = 0; i < bytes.size(); ++i) words[i / 8] = (words[i / 8] << 8) | bytes[i];
  return words;
}

bool entry_less(const PodInfo* a, const PodInfo* b) noexcept {
  return key_less(a->pod.metadata, b->pod.metadata);
}

}  // namespace

void PodsByKey::insert(PodInfo& pod) {
  added_.push_back(Entry{&pod, pod.sequence});
  ++size_;
}

void PodsByKey::erase(const PodInfo& pod) {
  erased_.push_back(pod.sequence);
  --size_;
}

void PodsByKey::clear() noexcept {
  // Replaced by empty lists, which frees them: assigning {} (an empty initializer list) would
  // keep their capacity.
  sorted_ = std::vector<Entry>();
  added_ = std::vector<Entry>();
  erased_ = std::vector<std::uint64_t>();
  size_ = 0;
}

PodsByKey::Iterator PodsByKey::begin() const {
  settle();
  return Iterator(sorted_.data());
}

PodsByKey::Iterator PodsByKey::end() const {
  settle();
  return Iterator(sorted_.data() + sorted_.size());
}

void PodsByKey::settle_when_grown() const {
  if (!added_.empty() && added_.size() >= sorted_.size()) settle();
}

void PodsByKey::settle() const {
  if (!erased_.empty()) {
    std::sort(erased_.begin(), erased_.end());
    const auto gone = [&](const Entry& entry) {
      return std::binary_search(erased_.begin(), erased_.end(), entry.sequence);
    };
    std::erase_if(sorted_, gone);
    std::erase_if(added_, gone);
    erased_ = std::vector<std::uint64_t>();
  }
  if (added_.empty()) return;

  // The pods added, in key order: compared by their keys' prefixes, copied out once, and only
  // on a tie by the keys themselves (a read of both pods, likely cache misses both).
  struct Prefixed {
    KeyPrefix prefix;
    std::size_t index;  ///< in added_
  };
  std::vector<Prefixed> added;
  added.reserve(added_.size());
  for (std::size_t i = 0; i < added_.size(); ++i)
    added.push_back({key_prefix(added_[i].pod->pod.metadata), i});
  std::sort(added.begin(), added.end(), [&](const Prefixed& a, const Prefixed& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return entry_less(added_[a.index].pod, added_[b.index].pod);
  });

  if (sorted_.empty()) {
    // The first pods (a million at the start of a large replay): added_ itself is put in that
    // order, with no third list of them.
    std::vector<std::uint32_t> from(added.size());
    for (std::size_t i = 0; i < added.size(); ++i)
      from[i] = static_cast<std::uint32_t>(added[i].index);
    added = std::vector<Prefixed>();
    permute(added_, from);
    sorted_ = std::move(added_);
    added_ = std::vector<Entry>();
    return;
  }

  // Merged into the ordered list: each added pod's place is found by galloping from the last
  // one's, so a few pods added to many cost a few searches and many added to few a walk.
  std::vector<Entry> merged;
  merged.reserve(sorted_.size() + added.size());
  const auto less = [](const Entry& a, const Entry& b) { return entry_less(a.pod, b.pod); };
  auto from = sorted_.cbegin();
  for (const Prefixed& p : added) {
    const Entry& entry = added_[p.index];
    std::ptrdiff_t step = 1;
    auto low = from;
    while (sorted_.cend() - low > step && !less(entry, low[step])) {
      low += step;
      step *= 2;
    }
    const auto to = std::upper_bound(low, low + std::min(step, sorted_.cend() - low), entry, less);
    merged.insert(merged.end(), from, to);
    merged.push_back(entry);
    from = to;
  }
  merged.insert(merged.end(), from, sorted_.cend());
  sorted_ = std::move(merged);
  added_ = std::vector<Entry>();
}

}  // namespace gpusched
