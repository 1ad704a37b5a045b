#pragma once
/// Interned strings: label keys and values, node names, taints and failure reasons become small
/// integers, so the Filter and Score loops compare integers instead of strings. The cluster
/// (ClusterState::intern, text, find_interned) owns the table.

#include <cstdint>

namespace gpusched {

/// An interned string; 0 is the empty string.
using StrId = std::uint32_t;

/// What a lookup of a string never interned gives; never equal to an interned id.
inline constexpr StrId kNotInterned = 0xffffffffu;

}  // namespace gpusched
