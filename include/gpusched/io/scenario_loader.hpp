#pragma once
/// Reading scenarios: JSON in, validated model out, or an InputError naming file and place.

#include <filesystem>
#include <string>
#include <string_view>

#include "gpusched/sim/scenario.hpp"

namespace gpusched::io {

/// Largest scenario file accepted, so that absurd input cannot exhaust memory.
inline constexpr std::uintmax_t kMaxFileBytes = 256u << 20;

/// Reads and validates a scenario file. Throws InputError (file, JSON pointer, line, reason).
[[nodiscard]] Scenario load_scenario(const std::filesystem::path& path);

/// The same for text already in memory; `file` names it in errors.
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& file);

}  // namespace gpusched::io
