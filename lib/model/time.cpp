// Go's time.ParseDuration grammar (src/time/format.go) evaluated exactly in milliseconds: virtual
// time is integer milliseconds, so a duration with a sub-millisecond remainder is refused rather
// than rounded. The range is Go's (int64 nanoseconds, about 292 years). Also RFC 3339 times as
// metav1.Time reads and writes them.
#include "gpusched/model/time.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace gpusched {
namespace {

// Largest duration Go's int64 nanoseconds can hold, in whole milliseconds.
constexpr std::int64_t kMaxMs = INT64_MAX / 1'000'000;

std::nullopt_t fail(std::string* error, std::string text) {
  if (error != nullptr) *error = std::move(text);
  return std::nullopt;
}

std::string quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

// A unit as 10^pow10 * factor nanoseconds.
struct Unit {
  std::string_view name;
  int pow10;
  int factor;
};

constexpr Unit kUnits[] = {
    {"ns", 0, 1},        {"us", 3, 1}, {"\xC2\xB5s", 3, 1},  // U+00B5 micro sign
    {"\xCE\xBCs", 3, 1},                                     // U+03BC Greek mu
    {"ms", 6, 1},        {"s", 9, 1},  {"m", 10, 6},        {"h", 11, 36},
};

// digits * factor * 10^shift in milliseconds, if exact and within range. `digits` is a run of
// decimal digits (possibly long); factor is at most 36.
std::optional<std::int64_t> exact_ms(std::string digits, int factor, std::int64_t shift,
                                     bool& inexact) {
  inexact = false;
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const int d = (*it - '0') * factor + carry;
    *it = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  while (carry != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
  if (shift < 0) {
    const auto drop = static_cast<std::size_t>(-shift);
    const std::size_t keep = drop >= digits.size() ? 0 : digits.size() - drop;
    if (digits.find_first_not_of('0', keep) != std::string::npos) {
      inexact = true;
      return std::nullopt;
    }
    digits.resize(keep);
    shift = 0;
  }
  std::int64_t value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
    if (value > kMaxMs) return std::nullopt;
  }
  for (std::int64_t i = 0; i < shift && value != 0; ++i) {
    value *= 10;
    if (value > kMaxMs) return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<TimeMs> parse_duration(std::string_view text, std::string* error) {
  const std::string_view orig = text;
  const std::string invalid = "time: invalid duration " + quoted(orig);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text == "0") return 0;
  if (text.empty()) return fail(error, invalid);

  std::int64_t total = 0;
  while (!text.empty()) {
    // The next character must be [0-9.].
    if (!(text[0] == '.' || (text[0] >= '0' && text[0] <= '9'))) {
      return fail(error, invalid);
    }
    std::size_t i = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    const std::string_view whole = text.substr(0, i);
    std::string_view fraction;
    if (i < text.size() && text[i] == '.') {
      const std::size_t start = ++i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      fraction = text.substr(start, i - start);
    }
    if (whole.empty() && fraction.empty()) return fail(error, invalid);  // "."
    text.remove_prefix(i);

    std::size_t u = 0;
    while (u < text.size() && text[u] != '.' && (text[u] < '0' || text[u] > '9')) ++u;
    if (u == 0) {
      return fail(error, "time: missing unit in duration " + quoted(orig));
    }
    const std::string_view unit_name = text.substr(0, u);
    text.remove_prefix(u);
    const Unit* unit = nullptr;
    for (const Unit& candidate : kUnits) {
      if (candidate.name == unit_name) unit = &candidate;
    }
    if (unit == nullptr) {
      return fail(error,
                  "time: unknown unit " + quoted(unit_name) + " in duration " + quoted(orig));
    }

    bool inexact = false;
    const std::optional<std::int64_t> ms =
        exact_ms(std::string(whole) + std::string(fraction), unit->factor,
                 unit->pow10 - 6 - static_cast<std::int64_t>(fraction.size()), inexact);
    if (inexact) {
      return fail(error, "duration " + quoted(orig) +
                             " is not a whole number of milliseconds: virtual time counts "
                             "milliseconds");
    }
    if (!ms || *ms > kMaxMs - total) return fail(error, invalid);
    total += *ms;
  }
  if (negative && total != 0) {
    return fail(error, "duration " + quoted(orig) + " is negative");
  }
  return total;
}

std::string format_duration(TimeMs ms) {
  // Like Go's Duration.String, but zero components are left out ("10m", not "10m0s"), and a
  // remainder under a second after hours or minutes is written in ms ("1m500ms").
  if (ms == 0) return "0s";
  std::string out;
  if (ms < 0) {
    out = "-";
    ms = -ms;
  }
  const std::int64_t hours = ms / 3'600'000;
  const std::int64_t minutes = ms / 60'000 % 60;
  const std::int64_t rest = ms % 60'000;
  if (hours != 0) out += std::to_string(hours) + "h";
  if (minutes != 0) out += std::to_string(minutes) + "m";
  if (rest == 0) return out;
  if (rest < 1000) return out + std::to_string(rest) + "ms";
  out += std::to_string(rest / 1000);
  if (rest % 1000 != 0) {
    std::string frac = std::to_string(1000 + rest % 1000).substr(1);
    frac.erase(frac.find_last_not_of('0') + 1);
    out += "." + frac;
  }
  return out + "s";
}

namespace {

/// The digits of text[pos, pos + count) as a number; nullopt unless all are digits.
std::optional<int> digits(std::string_view text, std::size_t pos, std::size_t count) {
  if (pos + count > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool char_at(std::string_view text, std::size_t pos, char c) {
  return pos < text.size() && text[pos] == c;
}

}  // namespace

std::optional<std::int64_t> parse_rfc3339(std::string_view text) {
  using namespace std::chrono;
  // time.RFC3339Nano layout, as metav1.Time.UnmarshalJSON accepts it: the date, 'T', the time
  // of day, optional fractional seconds, then 'Z' or a numeric offset.
  const auto year = digits(text, 0, 4);
  const auto month = digits(text, 5, 2);
  const auto day = digits(text, 8, 2);
  const auto hour = digits(text, 11, 2);
  const auto minute = digits(text, 14, 2);
  const auto second = digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || !char_at(text, 4, '-') ||
      !char_at(text, 7, '-') || !(char_at(text, 10, 'T') || char_at(text, 10, 't')) ||
      !char_at(text, 13, ':') || !char_at(text, 16, ':') || *year == 0 || *hour > 23 ||
      *minute > 59 || *second > 59) {
    return std::nullopt;
  }
  const year_month_day date{std::chrono::year{*year}, std::chrono::month{unsigned(*month)},
                            std::chrono::day{unsigned(*day)}};
  if (!date.ok()) return std::nullopt;
  std::size_t pos = 19;
  std::int64_t millis = 0;
  if (char_at(text, pos, '.')) {
    ++pos;
    const std::size_t start = pos;
    std::int64_t scale = 100;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      millis += (text[pos] - '0') * scale;  // digits past milliseconds are dropped
      scale /= 10;
      ++pos;
    }
    if (pos == start || pos - start > 9) return std::nullopt;
  }
  std::int64_t offset_minutes = 0;
  if (char_at(text, pos, 'Z') || char_at(text, pos, 'z')) {
    ++pos;
  } else if (char_at(text, pos, '+') || char_at(text, pos, '-')) {
    const auto off_hour = digits(text, pos + 1, 2);
    const auto off_minute = digits(text, pos + 4, 2);
    if (!off_hour || !off_minute || !char_at(text, pos + 3, ':') || *off_hour > 23 ||
        *off_minute > 59) {
      return std::nullopt;
    }
    offset_minutes = (*off_hour * 60 + *off_minute) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const std::int64_t days = sys_days(date).time_since_epoch().count();
  const std::int64_t seconds =
      days * 86'400 + *hour * 3'600 + *minute * 60 + *second - offset_minutes * 60;
  return seconds * 1000 + millis;
}

std::string format_rfc3339(std::int64_t unix_ms) {
  using namespace std::chrono;
  const std::int64_t seconds = unix_ms >= 0 ? unix_ms / 1000 : (unix_ms - 999) / 1000;
  const std::int64_t millis = unix_ms - seconds * 1000;
  const std::int64_t days = seconds >= 0 ? seconds / 86'400 : (seconds - 86'399) / 86'400;
  const std::int64_t of_day = seconds - days * 86'400;
  const year_month_day date{sys_days{std::chrono::days{days}}};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld", int(date.year()),
                unsigned(date.month()), unsigned(date.day()),
                static_cast<long long>(of_day / 3'600), static_cast<long long>(of_day / 60 % 60),
                static_cast<long long>(of_day % 60));
  std::string out = buf;
  if (millis != 0) {
    std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(millis));
    out += buf;
  }
  return out + "Z";
}

namespace {

// Largest number of whole seconds accepted, about 292 years as Go's time.Duration.
constexpr std::int64_t kMaxSeconds = 9'223'372'036;

}  // namespace

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

std::optional<TimeMs> parse_time_text(std::string_view text, std::string* error) {
  if (std::optional<TimeMs> seconds = parse_seconds(text)) return seconds;
  // The virtual clock starts at 0: "-1" is refused in those words, not as a duration missing
  // its unit. "-0" is 0, as Go's ParseDuration reads it.
  if (text.starts_with('-')) {
    std::string ignored;
    if (std::optional<TimeMs> magnitude = parse_time_text(text.substr(1), &ignored)) {
      if (*magnitude == 0) return 0;
      return fail(error, "negative times are not allowed, got " + quoted(text));
    }
  }
  return parse_duration(text, error);
}

}  // namespace gpusched
