#include "model/go_text.hpp"

#include <cstdio>

namespace gpusched {

std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[5];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string go_string_map(const std::map<std::string, std::string, std::less<>>& map) {
  std::string out = "map[string]string{";
  bool first = true;
  for (const auto& [key, value] : map) {
    if (!first) out += ", ";
    first = false;
    out += go_quote(key) + ":" + go_quote(value);
  }
  return out + "}";
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string go_duration(std::int64_t ms) {
  if (ms == 0) return "0s";
  std::string sign = ms < 0 ? "-" : "";
  std::uint64_t u =
      ms < 0 ? static_cast<std::uint64_t>(-(ms + 1)) + 1 : static_cast<std::uint64_t>(ms);
  // Under a second Go prints the unit that keeps an integer part: milliseconds here.
  if (u < 1000) return sign + std::to_string(u) + "ms";
  std::string seconds = std::to_string(u / 1000 % 60);
  if (const std::uint64_t frac = u % 1000; frac != 0) {
    std::string digits = std::to_string(frac + 1000).substr(1);  // three digits, then trimmed
    while (digits.back() == '0') digits.pop_back();
    seconds += "." + digits;
  }
  std::string out = seconds + "s";
  const std::uint64_t minutes = u / 60000;
  if (minutes > 0) {
    out = std::to_string(minutes % 60) + "m" + out;
    if (const std::uint64_t hours = minutes / 60; hours > 0)
      out = std::to_string(hours) + "h" + out;
  }
  return sign + out;
}

}  // namespace gpusched
