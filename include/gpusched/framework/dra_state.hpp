#pragma once
/// The Dynamic Resource Allocation objects as kube-scheduler's listers and its DRA manager see
/// them (pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go): device classes,
/// resource slices, resource claims and claim templates, each kind with a generation that moves
/// whenever one of its objects changes, so that what is derived from them (the slices the
/// allocator reads, the devices in use) is rebuilt only then.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/dra.hpp"

namespace gpusched {

/// The change key of a claim's in-flight allocation: ":pending/<uid>" (no namespace starts with
/// a colon).
[[nodiscard]] inline std::string pending_change_key(std::string_view uid) {
  return ":pending/" + std::string(uid);
}

class DraState {
 public:
  /// Adds or replaces a DeviceClass; false when it replaced one.
  bool apply_class(dra::DeviceClass device_class);
  /// Removes a DeviceClass; false when there was none.
  bool remove_class(std::string_view name);
  [[nodiscard]] const dra::DeviceClass* find_class(std::string_view name) const;
  [[nodiscard]] const std::map<std::string, dra::DeviceClass, std::less<>>& classes() const {
    return classes_;
  }
  /// DeviceClassResolver.GetDeviceClass (deviceclass/extendedresourcecache, 1.35/1.36): the
  /// class serving the extended resource `name` through DRA (DRAExtendedResource): every class
  /// serves `deviceclass.resource.kubernetes.io/<its name>`; of the classes naming `name` in
  /// spec.extendedResourceName the newest (creationTimestamp) does, the lower name on a tie.
  /// Null when none.
  [[nodiscard]] const dra::DeviceClass* extended_resource_class(std::string_view name) const;

  /// Adds or replaces a ResourceSlice; false when it replaced one.
  bool apply_slice(dra::ResourceSlice slice);
  bool remove_slice(std::string_view name);
  [[nodiscard]] const dra::ResourceSlice* find_slice(std::string_view name) const;
  /// Every slice, by name.
  [[nodiscard]] const std::map<std::string, dra::ResourceSlice, std::less<>>& slices() const {
    return slices_;
  }
  /// Every slice by name, as the allocator takes them (valid until the next slice change).
  [[nodiscard]] const std::vector<const dra::ResourceSlice*>& slice_list() const;

  /// Adds or replaces a ResourceClaim (spec and status as given); false when it replaced one.
  bool apply_claim(dra::ResourceClaim claim);
  bool remove_claim(std::string_view namespace_, std::string_view name);
  [[nodiscard]] const dra::ResourceClaim* find_claim(std::string_view namespace_,
                                                     std::string_view name) const;
  /// A claim to write its status (allocation, reservedFor); the claims' generation moves.
  [[nodiscard]] dra::ResourceClaim* edit_claim(std::string_view namespace_, std::string_view name);
  /// Every claim, keyed "namespace/name".
  [[nodiscard]] const std::map<std::string, dra::ResourceClaim, std::less<>>& claims() const {
    return claims_;
  }

  /// The DRA manager's in-flight allocations (dra_manager.go inFlightAllocations): a claim with
  /// the allocation a pod's Reserve gave it, by the claim's uid, until its PreBind writes it or
  /// Unreserve drops it. Their devices count as allocated for every other pod.
  void signal_pending_allocation(dra::ResourceClaim claim);
  /// Drops the claim's in-flight allocation; false when it had none.
  bool remove_pending_allocation(std::string_view uid);
  [[nodiscard]] bool has_pending_allocation(std::string_view uid) const {
    return pending_.contains(uid);
  }
  [[nodiscard]] const std::map<std::string, dra::ResourceClaim, std::less<>>& pending_allocations()
      const {
    return pending_;
  }

  bool apply_template(dra::ResourceClaimTemplate claim_template);
  bool remove_template(std::string_view namespace_, std::string_view name);
  [[nodiscard]] const dra::ResourceClaimTemplate* find_template(std::string_view namespace_,
                                                                std::string_view name) const;

  /// The keys of the claims changed (added, removed, edited: "<namespace>/<name>"; their
  /// in-flight allocation signalled or dropped: pending_change_key(uid)) from change number
  /// `since` on, for those who keep
  /// something derived from the claims up to date; nullopt when those changes were forgotten
  /// (rebuild from claims() and pending_allocations()). change_count() is the next number.
  [[nodiscard]] std::optional<std::span<const std::string>> claim_changes_since(
      std::uint64_t since) const;
  [[nodiscard]] std::uint64_t change_count() const noexcept {
    return change_base_ + changes_.size();
  }

  [[nodiscard]] std::uint64_t classes_generation() const noexcept { return classes_generation_; }
  [[nodiscard]] std::uint64_t slices_generation() const noexcept { return slices_generation_; }
  /// Moves with every claim change, in-flight allocations included.
  [[nodiscard]] std::uint64_t claims_generation() const noexcept { return claims_generation_; }
  /// Whether any class, slice, claim or template exists (a cluster without DRA skips its work).
  [[nodiscard]] bool empty() const noexcept {
    return classes_.empty() && slices_.empty() && claims_.empty() && templates_.empty();
  }

 private:
  std::map<std::string, dra::DeviceClass, std::less<>> classes_;
  std::map<std::string, dra::ResourceSlice, std::less<>> slices_;
  std::map<std::string, dra::ResourceClaim, std::less<>> claims_;             // by "namespace/name"
  std::map<std::string, dra::ResourceClaimTemplate, std::less<>> templates_;  // likewise
  std::map<std::string, dra::ResourceClaim, std::less<>> pending_;            // by claim uid
  /// The journal of claim_changes_since: changes_[i] is change number change_base_ + i.
  void changed(std::string key);
  std::vector<std::string> changes_;
  std::uint64_t change_base_ = 0;
  mutable std::map<std::string, const dra::DeviceClass*, std::less<>> extended_resources_;
  mutable std::uint64_t extended_resources_generation_ = 0;
  mutable std::vector<const dra::ResourceSlice*> slice_list_;
  mutable std::uint64_t slice_list_generation_ = 0;
  std::uint64_t classes_generation_ = 1;
  std::uint64_t slices_generation_ = 1;
  std::uint64_t claims_generation_ = 1;
};

}  // namespace gpusched
