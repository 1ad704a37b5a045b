#include "model/decimal.hpp"

#include <charconv>

namespace gpusched {

std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t min,
                                          std::int64_t max) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_decimal(std::string_view text, int decimals) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac =
      dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  auto all_digits = [](std::string_view s) {
    return s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (whole.empty() || whole.size() > 9 || !all_digits(whole) || !all_digits(frac) ||
      frac.size() > static_cast<std::size_t>(decimals) ||
      (dot != std::string_view::npos && frac.empty())) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  for (char c : whole) value = value * 10 + (c - '0');
  for (int i = 0; i < decimals; ++i) {
    value =
        value * 10 +
        (static_cast<std::size_t>(i) < frac.size() ? frac[static_cast<std::size_t>(i)] - '0' : 0);
  }
  return value;
}

std::string decimal_text(std::int64_t value, int decimals) {
  std::int64_t unit = 1;
  for (int i = 0; i < decimals; ++i) unit *= 10;
  std::string text = std::to_string(value / unit);
  if (const std::int64_t frac = value % unit; frac != 0) {
    std::string digits = std::to_string(unit + frac).substr(1);
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text;
}

std::string fixed_text(double value, int decimals) {
  // Room for the largest double written out in full.
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

std::string grouped_count(std::uint64_t count) {
  std::string digits = std::to_string(count);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace gpusched
