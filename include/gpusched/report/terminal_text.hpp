#pragma once
/// Text made safe for a terminal: what gpusched prints comes partly from its input (scenario,
/// pod and file names, messages), and a terminal obeys escape sequences in it.

#include <cstddef>
#include <string>
#include <string_view>

namespace gpusched::report {

/// Appends `text` to `out` with every control character but tab and line feed (C0, DEL, and C1
/// U+0080..U+009F) written as `\u00XX`, and every byte that starts no well-formed UTF-8
/// character as `\xNN`; the rest, other UTF-8 included, as it is. JSON stays valid and means
/// the same: its strings only hold DEL and C1 raw, and `\u00XX` is their JSON escape. Returns
/// the bytes of `text` used: all of them, but when `more` (text follows) not an incomplete
/// UTF-8 sequence at the end, which the caller passes again with what follows.
std::size_t append_terminal_text(std::string& out, std::string_view text, bool more = false);

/// `text` as append_terminal_text writes it.
[[nodiscard]] std::string terminal_text(std::string_view text);

}  // namespace gpusched::report
