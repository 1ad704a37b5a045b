#include "framework/pod_info_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>

namespace gpusched {
namespace {

// Slabs double from a few dozen pods (small scenarios stay small) to about a megabyte, then
// are 8 MiB each, mapped from the operating system directly (not through malloc, which keeps
// freed blocks below its mapping threshold, up to 32 MiB in glibc, in its heap): draining a
// slab gives its memory back at once, and the drain holds at most one slab's pods together with
// their records. Pages of a slab that no pod has used yet are never touched, so they cost no
// memory.
constexpr std::size_t kFirstSlab = 64;
constexpr std::size_t kLastDoubledSlab = 1024;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kLargeSlabBytes = 4 * kHugePage;
constexpr std::size_t kLargeSlab = kLargeSlabBytes / sizeof(PodInfo);
static_assert(kLargeSlab > kLastDoubledSlab, "a slab's size tells how it was allocated");

std::size_t next_capacity(std::size_t last) {
  if (last == 0) return kFirstSlab;
  return last < kLastDoubledSlab ? last * 2 : kLargeSlab;
}

// A large slab is mapped on huge page boundaries and asks for transparent huge pages: its pods
// are written in order, and each first touch of a fresh page is a page fault, which a virtual
// machine pays dearly for (one per 2 MiB instead of one per 4 KiB; where the kernel gives no
// huge pages, the advice changes nothing). The mapping is a huge page longer than the slab and
// trimmed to the boundary inside it.
PodInfo* allocate_slab(std::size_t capacity) {
  if (capacity <= kLastDoubledSlab) return std::allocator<PodInfo>().allocate(capacity);
  void* pages = mmap(nullptr, kLargeSlabBytes + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(pages);
  const std::uintptr_t slab = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (slab > start) munmap(pages, slab - start);
  if (const std::uintptr_t tail = kHugePage - (slab - start); tail > 0)
    munmap(reinterpret_cast<void*>(slab + kLargeSlabBytes), tail);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(slab), kLargeSlabBytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<PodInfo*>(slab);
}

void free_slab(PodInfo* items, std::size_t capacity) noexcept {
  if (capacity <= kLastDoubledSlab) {
    std::allocator<PodInfo>().deallocate(items, capacity);
  } else {
    munmap(items, kLargeSlabBytes);
  }
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
    slab.items = allocate_slab(slab.capacity);
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
  free_slab(slab.items, slab.capacity);
  slab = Slab{};
}

void PodInfoPool::drain(const std::function<void(PodInfo&)>& take) {
  for (Slab& slab : slabs_) release(slab, &take);
  slabs_.clear();
}

}  // namespace gpusched
