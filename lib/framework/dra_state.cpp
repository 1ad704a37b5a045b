#include "gpusched/framework/dra_state.hpp"

#include <utility>

namespace gpusched {

namespace {

std::string key_of(std::string_view namespace_, std::string_view name) {
  std::string key;
  key.reserve(namespace_.size() + 1 + name.size());
  key.append(namespace_).append("/").append(name);
  return key;
}

template <class Map, class T>
bool put(Map& map, std::string key, T value) {
  const bool added = !map.contains(key);
  map.insert_or_assign(std::move(key), std::move(value));
  return added;
}

template <class Map>
bool erase(Map& map, std::string_view key) {
  const auto it = map.find(key);
  if (it == map.end()) return false;
  map.erase(it);
  return true;
}

template <class Map>
auto find(Map& map, std::string_view key) -> decltype(&map.begin()->second) {
  const auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

bool DraState::apply_class(dra::DeviceClass device_class) {
  std::string key = device_class.metadata.name;
  ++classes_generation_;
  return put(classes_, std::move(key), std::move(device_class));
}

bool DraState::remove_class(std::string_view name) {
  if (!erase(classes_, name)) return false;
  ++classes_generation_;
  return true;
}

const dra::DeviceClass* DraState::find_class(std::string_view name) const {
  return find(classes_, name);
}

const dra::DeviceClass* DraState::extended_resource_class(std::string_view name) const {
  if (classes_.empty()) return nullptr;
  if (extended_resources_generation_ != classes_generation_) {
    extended_resources_.clear();
    for (const auto& [class_name, device_class] : classes_) {
      extended_resources_.emplace(std::string(dra::kDeviceClassResourcePrefix) + class_name,
                                  &device_class);
      if (!device_class.extended_resource_name) continue;
      // addOrUpdateMapping: "we prefer the newer DeviceClass. The name serves as tie-breaker";
      // classes_ goes by name, so a later class wins only when strictly newer.
      auto [it, added] =
          extended_resources_.emplace(*device_class.extended_resource_name, &device_class);
      if (!added && device_class.metadata.creation_ms > it->second->metadata.creation_ms)
        it->second = &device_class;
    }
    extended_resources_generation_ = classes_generation_;
  }
  const auto it = extended_resources_.find(name);
  return it == extended_resources_.end() ? nullptr : it->second;
}

bool DraState::apply_slice(dra::ResourceSlice slice) {
  std::string key = slice.metadata.name;
  ++slices_generation_;
  return put(slices_, std::move(key), std::move(slice));
}

bool DraState::remove_slice(std::string_view name) {
  if (!erase(slices_, name)) return false;
  ++slices_generation_;
  return true;
}

const dra::ResourceSlice* DraState::find_slice(std::string_view name) const {
  return find(slices_, name);
}

const std::vector<const dra::ResourceSlice*>& DraState::slice_list() const {
  if (slice_list_generation_ != slices_generation_) {
    slice_list_.clear();
    for (const auto& [name, slice] : slices_) slice_list_.push_back(&slice);
    slice_list_generation_ = slices_generation_;
  }
  return slice_list_;
}

void DraState::changed(std::string key) {
  // A bounded journal: past it, whoever is behind rebuilds.
  constexpr std::size_t kMaxChanges = 1 << 16;
  if (changes_.size() == kMaxChanges) {
    change_base_ += changes_.size();
    changes_.clear();
  }
  changes_.push_back(std::move(key));
}

std::optional<std::span<const std::string>> DraState::claim_changes_since(
    std::uint64_t since) const {
  if (since < change_base_) return std::nullopt;
  const std::size_t from = static_cast<std::size_t>(since - change_base_);
  if (from > changes_.size()) return std::nullopt;
  return std::span<const std::string>(changes_).subspan(from);
}

bool DraState::apply_claim(dra::ResourceClaim claim) {
  std::string key = key_of(claim.metadata.namespace_, claim.metadata.name);
  ++claims_generation_;
  changed(key);
  return put(claims_, std::move(key), std::move(claim));
}

bool DraState::remove_claim(std::string_view namespace_, std::string_view name) {
  std::string key = key_of(namespace_, name);
  if (!erase(claims_, key)) return false;
  ++claims_generation_;
  changed(std::move(key));
  return true;
}

const dra::ResourceClaim* DraState::find_claim(std::string_view namespace_,
                                               std::string_view name) const {
  return find(claims_, key_of(namespace_, name));
}

dra::ResourceClaim* DraState::edit_claim(std::string_view namespace_, std::string_view name) {
  std::string key = key_of(namespace_, name);
  dra::ResourceClaim* claim = find(claims_, key);
  if (claim != nullptr) {
    ++claims_generation_;
    changed(std::move(key));
  }
  return claim;
}

void DraState::signal_pending_allocation(dra::ResourceClaim claim) {
  std::string uid = claim.metadata.uid;
  ++claims_generation_;
  changed(pending_change_key(uid));
  put(pending_, std::move(uid), std::move(claim));
}

bool DraState::remove_pending_allocation(std::string_view uid) {
  if (!erase(pending_, uid)) return false;
  ++claims_generation_;
  changed(pending_change_key(uid));
  return true;
}

bool DraState::apply_template(dra::ResourceClaimTemplate claim_template) {
  std::string key = key_of(claim_template.metadata.namespace_, claim_template.metadata.name);
  return put(templates_, std::move(key), std::move(claim_template));
}

bool DraState::remove_template(std::string_view namespace_, std::string_view name) {
  return erase(templates_, key_of(namespace_, name));
}

const dra::ResourceClaimTemplate* DraState::find_template(std::string_view namespace_,
                                                          std::string_view name) const {
  return find(templates_, key_of(namespace_, name));
}

}  // namespace gpusched
