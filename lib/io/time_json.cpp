#include "io/time_json.hpp"

namespace gpusched::io {

TimeMs parse_time(const JsonNode& node) {
  if (node.is_number()) {
    // The number's own text, so that 0.1 is exactly 100ms.
    std::string text = node.json().dump();
    std::optional<TimeMs> ms = parse_seconds(text);
    if (!ms) {
      node.fail("invalid time " + text +
                ": a number of seconds must be non-negative, with at most 3 decimals");
    }
    return *ms;
  }
  if (!node.is_string()) {
    node.fail(std::string("expected a duration such as \"90s\" or a number of seconds, got ") +
              node.json().type_name());
  }
  std::string text = node.string();
  std::string error;
  std::optional<TimeMs> ms = parse_time_text(text, &error);
  if (!ms) node.fail(error);
  return *ms;
}

}  // namespace gpusched::io
