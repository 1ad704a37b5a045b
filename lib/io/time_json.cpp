#include "io/time_json.hpp"

namespace gpusched::io {
namespace {

// Largest number of whole seconds accepted, about 292 years as Go's time.Duration.
constexpr std::int64_t kMaxSeconds = 9'223'372'036;

/// "180", "1.5", "0.250": digits with up to three decimals, read exactly.
std::optional<TimeMs> parse_seconds(std::string_view text) {
  std::size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 10 || fraction.size() > 3 ||
      (dot != std::string_view::npos && fraction.empty())) {
    return std::nullopt;
  }
  std::int64_t seconds = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
    seconds = seconds * 10 + (c - '0');
  }
  std::int64_t millis = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    char c = i < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return std::nullopt;
    millis = millis * 10 + (c - '0');
  }
  if (seconds > kMaxSeconds) return std::nullopt;
  return seconds * 1000 + millis;
}

}  // namespace

std::optional<TimeMs> parse_time_text(std::string_view text, std::string* error) {
  if (std::optional<TimeMs> seconds = parse_seconds(text)) return seconds;
  return parse_duration(text, error);
}

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
