#pragma once
/// Where the cluster's PodInfo objects live: slabs with stable addresses, whose slots are reused
/// after a pod is removed, and which can be drained slab by slab.

#include <cstddef>
#include <functional>
#include <vector>

#include "gpusched/framework/pod_info.hpp"

namespace gpusched {

class PodInfoPool {
 public:
  PodInfoPool() = default;
  PodInfoPool(const PodInfoPool&) = delete;
  PodInfoPool& operator=(const PodInfoPool&) = delete;
  ~PodInfoPool();

  /// A default-constructed PodInfo at an address that stays valid until destroy().
  [[nodiscard]] PodInfo& create();
  void destroy(PodInfo& info) noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return live_; }

  /// Hands every live PodInfo to `take`, slab by slab in allocation order, and frees each slab
  /// once its pods are handed over; leaves the pool empty. At the end of a replay the pods move
  /// into the result as the slabs go, so the process never holds both copies of a million pods
  /// (large slabs are mapped pages of their own: freeing one gives its memory back).
  void drain(const std::function<void(PodInfo&)>& take);

 private:
  struct Slab {
    PodInfo* items = nullptr;
    std::size_t capacity = 0;
    std::size_t used = 0;    // slots handed out at least once; the rest are untouched memory
    std::vector<bool> live;  // per used slot: holds a constructed PodInfo
  };
  // Destroys the slab's live pods (handing each to `take` first when given) and frees it.
  void release(Slab& slab, const std::function<void(PodInfo&)>* take);

  std::vector<Slab> slabs_;
  std::vector<PodInfo*> free_;  // destroyed slots, reused before new ones
  std::size_t live_ = 0;
};

}  // namespace gpusched
