#pragma once
/// Freeing a JSON tree when memory has run out.

#include <nlohmann/json.hpp>

namespace gpusched::io {

/// Empties `value` (it becomes null) without allocating, innermost values first. nlohmann's
/// destructor moves a tree's children into a heap-allocated stack before freeing them: when a
/// parse is unwound by std::bad_alloc, that allocation fails again inside a noexcept destructor
/// and std::terminate aborts the process. Recursion follows the tree's depth, which the parsers
/// bound by kMaxJsonDepth.
void release(nlohmann::json& value) noexcept;

}  // namespace gpusched::io
