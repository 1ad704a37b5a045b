#include "framework/pod_info_pool.hpp"

#include <algorithm>
#include <memory>

namespace gpusched {
namespace {

// Slabs double from a few dozen pods (small scenarios stay small) to about a megabyte, then
// jump to 33 MiB: just above the largest threshold (32 MiB) past which glibc's malloc maps a
// block on its own and unmaps it when freed, so that draining a slab gives its memory back. The
// drain holds a slab's pods and their records together, so the slab is no larger. Pages of a
// slab that no pod has used yet are never touched, so they cost no memory.
constexpr std::size_t kFirstSlab = 64;
constexpr std::size_t kLastDoubledSlab = 1024;
constexpr std::size_t kLargeSlab = (std::size_t{33} << 20) / sizeof(PodInfo);

std::size_t next_capacity(std::size_t last) {
  if (last == 0) return kFirstSlab;
  return last < kLastDoubledSlab ? last * 2 : kLargeSlab;
}

}  // namespace

PodInfoPool::~PodInfoPool() {
  for (Slab& slab : slabs_) release(slab, nullptr);
}

PodInfo& PodInfoPool::create() {
  if (!free_.empty()) {
    PodInfo* slot = free_.back();
    std::construct_at(slot);
    free_.pop_back();
    for (Slab& slab : slabs_) {
      if (slot >= slab.items && slot < slab.items + slab.used) {
        slab.live[static_cast<std::size_t>(slot - slab.items)] = true;
        break;
      }
    }
    ++live_;
    return *slot;
  }
  if (slabs_.empty() || slabs_.back().used == slabs_.back().capacity) {
    Slab slab;
    slab.capacity = next_capacity(slabs_.empty() ? 0 : slabs_.back().capacity);
    slab.items = std::allocator<PodInfo>().allocate(slab.capacity);
    slab.live.reserve(slab.capacity);
    slabs_.push_back(std::move(slab));
  }
  Slab& slab = slabs_.back();
  PodInfo* slot = slab.items + slab.used;
  std::construct_at(slot);
  ++slab.used;
  slab.live.push_back(true);
  ++live_;
  return *slot;
}

void PodInfoPool::destroy(PodInfo& info) noexcept {
  PodInfo* slot = &info;
  for (Slab& slab : slabs_) {
    if (slot < slab.items || slot >= slab.items + slab.used) continue;
    std::destroy_at(slot);
    slab.live[static_cast<std::size_t>(slot - slab.items)] = false;
    free_.push_back(slot);
    --live_;
    return;
  }
}

void PodInfoPool::release(Slab& slab, const std::function<void(PodInfo&)>* take) {
  if (slab.items == nullptr) return;
  for (std::size_t i = 0; i < slab.used; ++i) {
    if (!slab.live[i]) continue;
    if (take != nullptr) (*take)(slab.items[i]);
    std::destroy_at(slab.items + i);
    slab.live[i] = false;
    --live_;
  }
  std::erase_if(free_,
                [&](const PodInfo* p) { return p >= slab.items && p < slab.items + slab.used; });
  std::allocator<PodInfo>().deallocate(slab.items, slab.capacity);
  slab = Slab{};
}

void PodInfoPool::drain(const std::function<void(PodInfo&)>& take) {
  for (Slab& slab : slabs_) release(slab, &take);
  slabs_.clear();
}

}  // namespace gpusched
