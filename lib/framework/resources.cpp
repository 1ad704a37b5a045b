#include "gpusched/framework/resources.hpp"

#include <limits>

#include "framework/string_pool.hpp"
#include "gpusched/model/resource_list.hpp"

namespace gpusched {

ResourceRegistry::ResourceRegistry(StringPool& pool) : pool_(pool) {
  // Fixed ids for the resources every node and pod has (see res::k*).
  intern(resource::kCpu);
  intern(resource::kMemory);
  intern(resource::kEphemeralStorage);
}

ResId ResourceRegistry::intern(std::string_view name) {
  std::string key(name);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  const auto id = static_cast<ResId>(names_.size());
  names_.push_back(key);
  // fit.go: fmt.Sprintf("Insufficient %v", rName) for every resource but the pod count.
  insufficient_.push_back(pool_.intern("Insufficient " + key));
  scalar_.push_back(resource::is_scalar(name));
  ids_.emplace(std::move(key), id);
  return id;
}

std::int64_t& ResVec::at(ResId id) {
  if (id < kInline) return inline_[id];
  for (auto& [other, value] : more_) {
    if (other == id) return value;
  }
  return more_.emplace_back(id, 0).second;
}

void ResVec::add(ResId id, std::int64_t delta) {
  std::int64_t& value = at(id);
  std::int64_t sum = 0;
  if (__builtin_add_overflow(value, delta, &sum)) {
    sum = delta > 0 ? std::numeric_limits<std::int64_t>::max()
                    : std::numeric_limits<std::int64_t>::min();
  }
  value = sum;
}

void ResVec::set(ResId id, std::int64_t value) {
  at(id) = value;
}

}  // namespace gpusched
