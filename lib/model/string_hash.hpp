#pragma once
// A transparent hash for unordered containers keyed by std::string, so that a lookup by a
// std::string_view or a literal hashes it in place instead of building a std::string.

#include <cstddef>
#include <functional>
#include <string_view>

namespace gpusched {

struct StringHash {
  using is_transparent = void;
  [[nodiscard]] std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

}  // namespace gpusched
