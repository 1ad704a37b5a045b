#pragma once
// Shell-style globs for pod and object names in expectations ("default/web-*").

#include <string_view>

namespace gpusched::sim {

/// `*` matches any run of characters, `?` any one character; everything else itself.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text) noexcept;

}  // namespace gpusched::sim
