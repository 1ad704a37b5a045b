// Value type names as cel-go prints them, and blang/semver v4's Parse and Compare (semver.go),
// with apiserver's normalizeAndParse (k8s.io/apiserver/pkg/cel/library/semverlib.go).
#include "dra/cel_value.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/go_text.hpp"

namespace gpusched::dra::cel::detail {
namespace {

constexpr std::string_view kNumbers = "0123456789";
constexpr std::string_view kAlphanum =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

bool contains_only(std::string_view s, std::string_view set) {
  return s.find_first_not_of(set) == std::string_view::npos;
}

bool has_leading_zeroes(std::string_view s) {
  return s.size() > 1 && s[0] == '0';
}

void set(std::string* error, std::string text) {
  if (error != nullptr) *error = std::move(text);
}

// strconv.ParseUint(s, 10, 64) of a string of digits.
std::optional<std::uint64_t> parse_uint(std::string_view s, std::string* error) {
  if (s.empty()) {
    set(error, "strconv.ParseUint: parsing " + go_quote(s) + ": invalid syntax");
    return std::nullopt;
  }
  std::uint64_t v = 0;
  for (char c : s) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) {
      set(error, "strconv.ParseUint: parsing " + go_quote(s) + ": value out of range");
      return std::nullopt;
    }
    v = v * 10 + d;
  }
  return v;
}

// One numeric component (major, minor, patch) with blang's checks, `what` naming it.
std::optional<std::uint64_t> component(std::string_view s, std::string_view what,
                                       std::string_view capitalized, std::string* error) {
  if (!contains_only(s, kNumbers)) {
    set(error, "Invalid character(s) found in " + std::string(what) + " number " + go_quote(s));
    return std::nullopt;
  }
  if (has_leading_zeroes(s)) {
    set(error, std::string(capitalized) + " number must not contain leading zeroes " + go_quote(s));
    return std::nullopt;
  }
  return parse_uint(s, error);
}

// Calls f(identifier) for each "."-separated part of `s` (strings.Split semantics).
template <typename F>
bool each_part(std::string_view s, F f) {
  while (true) {
    const std::size_t dot = s.find('.');
    if (!f(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

int compare_identifier(std::string_view a, std::string_view b) {
  // PRVersion.Compare: numeric identifiers sort before alphanumeric ones; numbers compare by
  // value (they have no leading zeros, so by length first), the rest byte-wise.
  const bool a_num = contains_only(a, kNumbers);
  const bool b_num = contains_only(b, kNumbers);
  if (a_num && !b_num) return -1;
  if (!a_num && b_num) return 1;
  if (a_num && a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace

std::string_view type_name(const Value& v) {
  switch (v.kind) {
    case ValueKind::Null:
      return "null_type";
    case ValueKind::Bool:
      return "bool";
    case ValueKind::Int:
      return "int";
    case ValueKind::String:
      return "string";
    case ValueKind::Quantity:
      return "kubernetes.Quantity";
    case ValueKind::Semver:
      return "kubernetes.Semver";
    case ValueKind::List:
      return "list";
    case ValueKind::Map:
      return "map";
    case ValueKind::Error:
      return "error";
  }
  return "error";
}

std::string_view go_type_name(const Value& v) {
  switch (v.kind) {
    case ValueKind::Null:
      return "types.Null";
    case ValueKind::Bool:
      return "types.Bool";
    case ValueKind::Int:
      return "types.Int";
    case ValueKind::String:
      return "types.String";
    case ValueKind::Quantity:
      return "cel.Quantity";
    case ValueKind::Semver:
      return "cel.Semver";
    case ValueKind::List:
      return "*types.baseList";
    case ValueKind::Map:
      return "*types.baseMap";
    case ValueKind::Error:
      return "*types.Err";
  }
  return "*types.Err";
}

std::optional<SemverValue> parse_semver(std::string_view s, std::string* error) {
  if (s.empty()) {
    set(error, "Version string empty");
    return std::nullopt;
  }
  // strings.SplitN(s, ".", 3)
  const std::size_t d1 = s.find('.');
  const std::size_t d2 = d1 == std::string_view::npos ? d1 : s.find('.', d1 + 1);
  if (d2 == std::string_view::npos) {
    set(error, "No Major.Minor.Patch elements found");
    return std::nullopt;
  }
  SemverValue v;
  const auto major = component(s.substr(0, d1), "major", "Major", error);
  if (!major) return std::nullopt;
  const auto minor = component(s.substr(d1 + 1, d2 - d1 - 1), "minor", "Minor", error);
  if (!minor) return std::nullopt;
  std::string_view patch = s.substr(d2 + 1);
  std::string_view build;
  bool has_build = false;
  if (const std::size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = patch.substr(plus + 1);
    has_build = true;
    patch = patch.substr(0, plus);
  }
  std::string_view pre;
  bool has_pre = false;
  if (const std::size_t dash = patch.find('-'); dash != std::string_view::npos) {
    pre = patch.substr(dash + 1);
    has_pre = true;
    patch = patch.substr(0, dash);
  }
  const auto patch_number = component(patch, "patch", "Patch", error);
  if (!patch_number) return std::nullopt;
  if (has_pre) {
    const bool ok = each_part(pre, [&](std::string_view id) {
      if (id.empty()) {
        set(error, "Prerelease is empty");
        return false;
      }
      if (contains_only(id, kNumbers)) {
        if (has_leading_zeroes(id)) {
          set(error, "Numeric PreRelease version must not contain leading zeroes " + go_quote(id));
          return false;
        }
        return parse_uint(id, error).has_value();
      }
      if (!contains_only(id, kAlphanum)) {
        set(error, "Invalid character(s) found in prerelease " + go_quote(id));
        return false;
      }
      return true;
    });
    if (!ok) return std::nullopt;
  }
  if (has_build) {
    const bool ok = each_part(build, [&](std::string_view id) {
      if (id.empty()) {
        set(error, "Build meta data is empty");
        return false;
      }
      if (!contains_only(id, kAlphanum)) {
        set(error, "Invalid character(s) found in build meta data " + go_quote(id));
        return false;
      }
      return true;
    });
    if (!ok) return std::nullopt;
  }
  v.major = *major;
  v.minor = *minor;
  v.patch = *patch_number;
  v.pre = pre;
  return v;
}

std::optional<SemverValue> parse_semver_normalized(std::string_view text, std::string& storage,
                                                   std::string* error) {
  if (!text.empty() && text[0] == 'v') text.remove_prefix(1);
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (parts.size() < 2) {
    const std::size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) break;
    parts.emplace_back(text.substr(start, dot - start));
    start = dot + 1;
  }
  parts.emplace_back(text.substr(start));
  for (std::string& p : parts) {
    if (p.size() > 1) {
      const std::size_t nz = p.find_first_not_of('0');
      p = nz == std::string::npos ? std::string() : p.substr(nz);
      if (p.empty() || p[0] < '0' || p[0] > '9') p = "0" + p;
    }
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      set(error, "short version cannot contain PreRelease/Build meta data");
      return std::nullopt;
    }
    while (parts.size() < 3) parts.emplace_back("0");
  }
  storage = parts[0] + "." + parts[1] + "." + parts[2];
  return parse_semver(storage, error);
}

int compare_semver(const SemverValue& a, const SemverValue& b) {
  if (a.major != b.major) return a.major > b.major ? 1 : -1;
  if (a.minor != b.minor) return a.minor > b.minor ? 1 : -1;
  if (a.patch != b.patch) return a.patch > b.patch ? 1 : -1;
  if (a.pre.empty() && b.pre.empty()) return 0;
  if (a.pre.empty()) return 1;
  if (b.pre.empty()) return -1;
  std::string_view x = a.pre;
  std::string_view y = b.pre;
  while (true) {
    const std::size_t dx = x.find('.');
    const std::size_t dy = y.find('.');
    const int c = compare_identifier(x.substr(0, dx), y.substr(0, dy));
    if (c != 0) return c;
    const bool x_done = dx == std::string_view::npos;
    const bool y_done = dy == std::string_view::npos;
    if (x_done && y_done) return 0;
    if (x_done) return -1;
    if (y_done) return 1;
    x.remove_prefix(dx + 1);
    y.remove_prefix(dy + 1);
  }
}

}  // namespace gpusched::dra::cel::detail
