#include "framework/string_pool.hpp"

namespace gpusched {

StringPool::StringPool() {
  intern("");
}

StrId StringPool::intern(std::string_view text) {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  const std::string& stored = storage_.emplace_back(text);
  const auto id = static_cast<StrId>(strings_.size());
  strings_.push_back(&stored);
  ids_.emplace(std::string_view(stored), id);
  return id;
}

StrId StringPool::find(std::string_view text) const {
  auto it = ids_.find(text);
  return it == ids_.end() ? kMissing : it->second;
}

}  // namespace gpusched
