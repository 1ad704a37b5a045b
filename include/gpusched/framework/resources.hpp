#pragma once
/// Interned resource names and dense per-node resource vectors.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/framework/interned.hpp"

namespace gpusched {

class StringPool;

/// Index of a resource name; cpu, memory and ephemeral-storage have fixed ids.
using ResId = std::uint16_t;

namespace res {
inline constexpr ResId kCpu = 0;
inline constexpr ResId kMemory = 1;
inline constexpr ResId kEphemeralStorage = 2;
}  // namespace res

/// Every resource name seen in a run, with what the Filter needs precomputed.
class ResourceRegistry {
 public:
  explicit ResourceRegistry(StringPool& pool);

  /// The id of a resource name ("pods" is not a vector resource: it is the pod count).
  ResId intern(std::string_view name);
  [[nodiscard]] const std::string& name(ResId id) const { return names_[id]; }
  /// The id of a resource name seen so far, or nullopt.
  [[nodiscard]] std::optional<ResId> find(const std::string& name) const {
    auto it = ids_.find(name);
    return it == ids_.end() ? std::nullopt : std::optional<ResId>(it->second);
  }
  /// The interned reason "Insufficient <name>".
  [[nodiscard]] StrId insufficient_reason(ResId id) const { return insufficient_[id]; }
  /// schedutil.IsScalarResourceName: extended resources, hugepages, attachable volumes.
  [[nodiscard]] bool is_scalar(ResId id) const { return scalar_[id]; }
  [[nodiscard]] std::size_t size() const noexcept { return names_.size(); }

 private:
  StringPool& pool_;
  std::vector<std::string> names_;
  std::vector<StrId> insufficient_;
  std::vector<bool> scalar_;
  std::unordered_map<std::string, ResId> ids_;  // lookups only
};

/// Milli-units per resource id; ids beyond the stored size read as 0. The first ids (cpu,
/// memory, ephemeral-storage and the first extended resources) are stored inline: the Filter
/// and Score loops read them for hundreds of nodes per pod, and a separate heap block per node
/// costs a cache miss each time.
class ResVec {
 public:
  [[nodiscard]] std::int64_t operator[](ResId id) const noexcept {
    if (id < kInline) return inline_[id];
    for (const auto& [other, value] : more_) {
      if (other == id) return value;
    }
    return 0;
  }
  /// Adds `delta` (saturating), growing the vector when needed.
  void add(ResId id, std::int64_t delta);
  void set(ResId id, std::int64_t value);
  void clear() noexcept {
    inline_ = {};
    more_.clear();
  }
  /// Calls `visit(id, milli)` for each nonzero entry.
  template <class Visit>
  void for_each(Visit visit) const {
    for (std::size_t id = 0; id < kInline; ++id) {
      if (inline_[id] != 0) visit(static_cast<ResId>(id), inline_[id]);
    }
    for (const auto& [id, value] : more_) {
      if (value != 0) visit(id, value);
    }
  }

 private:
  static constexpr std::size_t kInline = 6;
  [[nodiscard]] std::int64_t& at(ResId id);

  std::array<std::int64_t, kInline> inline_{};
  // The other ids a node or pod has: a few at most, among possibly thousands of names.
  std::vector<std::pair<ResId, std::int64_t>> more_;
};

/// One requested resource of a pod, in milli-units.
struct ResAmount {
  ResId id;
  std::int64_t milli;
};

}  // namespace gpusched
