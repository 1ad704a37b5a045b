#pragma once
// Text in the forms the API server prints and JSON pointers use; shared by model validation and
// the scenario loader.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

/// Go's %q for a plain string, as field errors print values: "a\"b".
[[nodiscard]] std::string go_quote(std::string_view text);

/// Go's %#v for a map[string]string: map[string]string{"a":"b", "c":"d"}.
[[nodiscard]] std::string go_string_map(const std::map<std::string, std::string, std::less<>>& map);

/// Go's time.Duration String() of `ms` milliseconds, as %v prints a duration: "0s", "500ms",
/// "5m0s", "4m59.5s", "1h0m0s".
[[nodiscard]] std::string go_duration(std::int64_t ms);

/// RFC 6901 escaping of one reference token: "~" -> "~0", "/" -> "~1".
[[nodiscard]] std::string escape_pointer_token(std::string_view token);

/// strings.Join: the parts with `separator` between them (a Status's reasons are joined with
/// ", " in its message).
[[nodiscard]] std::string joined(const std::vector<std::string>& parts,
                                 std::string_view separator = ", ");

}  // namespace gpusched
