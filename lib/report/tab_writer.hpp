#pragma once
/// Elastic tabstops as Go's text/tabwriter computes them, so that gpusched's tables line up
/// exactly like kubectl's (which prints every table through a tabwriter).

#include <cstddef>
#include <string>
#include <string_view>

namespace gpusched::report {

/// The tabwriter parameters a kubectl printer uses.
struct TabSettings {
  std::size_t min_width = 0;  ///< minimal cell width, padding included
  std::size_t padding = 2;    ///< spaces added to the widest cell of a column
};

/// `kubectl get` (cli-runtime printers.GetNewTabWriter: minwidth 6, padding 3).
inline constexpr TabSettings kGetSettings{6, 3};
/// `kubectl describe` (describe.tabbedString: minwidth 0, padding 2).
inline constexpr TabSettings kDescribeSettings{0, 2};

/// Appends `text` to `out` aligned, its lines holding cells terminated by '\t', the way
/// text/tabwriter does: a column is a run of consecutive lines that all have a tab-terminated
/// cell at that index, and each such block is as wide as its widest cell plus padding. The text
/// after a line's last tab is not part of any column. Trailing spaces are removed from every
/// line. `text` must not lie in `out`, which may move as it grows.
void append_aligned_tabs(std::string& out, std::string_view text, const TabSettings& settings);

/// The same, as a string of its own.
[[nodiscard]] std::string align_tabs(std::string_view text, const TabSettings& settings);

}  // namespace gpusched::report
