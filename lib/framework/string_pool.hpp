#pragma once
// The table of interned strings (gpusched/framework/interned.hpp) that ClusterState owns.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/framework/interned.hpp"

namespace gpusched {

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  /// The id of `text`, adding it when new.
  StrId intern(std::string_view text);
  /// The id of `text` if it was interned, else nullopt-like kMissing.
  [[nodiscard]] StrId find(std::string_view text) const;
  [[nodiscard]] const std::string& str(StrId id) const { return *strings_[id]; }
  [[nodiscard]] std::size_t size() const noexcept { return strings_.size(); }

  /// Returned by find() for a string never interned.
  static constexpr StrId kMissing = kNotInterned;

 private:
  std::deque<std::string> storage_;  // stable addresses for the string_view keys
  std::vector<const std::string*> strings_;
  std::unordered_map<std::string_view, StrId> ids_;  // lookups only; never iterated
};

}  // namespace gpusched
