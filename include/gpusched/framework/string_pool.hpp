#pragma once
/// Interned strings: label keys and values, node names, taints and failure reasons become small
/// integers, so the Filter and Score loops compare integers instead of strings.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpusched {

/// An interned string; 0 is the empty string.
using StrId = std::uint32_t;

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

  /// Returned by find() for a string never interned; never equal to an interned id.
  static constexpr StrId kMissing = 0xffffffffu;

 private:
  std::deque<std::string> storage_;  // stable addresses for the string_view keys
  std::vector<const std::string*> strings_;
  std::unordered_map<std::string_view, StrId> ids_;  // lookups only; never iterated
};

}  // namespace gpusched
