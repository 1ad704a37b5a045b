// String checks and Go renderings of pkg/apis/resource/validation/validation.go (release-1.36)
// and the core validation it borrows (ValidateCSIDriverName, pkg/apis/core/validation).
#include "io/resource_validation.hpp"

#include <algorithm>
#include <cctype>

#include "io/api_validation.hpp"

namespace gpusched::io {
namespace {

/// resource.DriverNameMaxLength, DeviceMaxIDLength and PoolNameMaxLength.
constexpr std::size_t kDriverNameMaxLength = 63;
constexpr std::size_t kDeviceMaxIdLength = 32;
constexpr std::size_t kPoolNameMaxLength = 253;

/// validation.IsCIdentifier's RegexError, with its doubled spaces before " or ".
constexpr std::string_view kCIdentifierErrMsg =
    "a valid C identifier must start with alphabetic character or '_', followed by a string of "
    "alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
    "validation is '[A-Za-z_][A-Za-z0-9_]*')";

/// field.TooLong as the API server prints it (the value is omitted).
std::string too_long(std::size_t max) {
  return "Too long: may not be more than " + std::to_string(max) + " bytes";
}

bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_ascii_alnum(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_hex(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// [A-Za-z_][A-Za-z0-9_]*
bool is_c_identifier(std::string_view id) {
  if (id.empty() || is_ascii_digit(id.front())) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return is_ascii_alnum(c) || c == '_'; });
}

/// validateCIdentifier.
void c_identifier_errors(std::string_view id, std::vector<std::string>& out) {
  if (id.size() > kDeviceMaxIdLength) out.push_back(too_long(kDeviceMaxIdLength));
  if (!is_c_identifier(id)) out.push_back(invalid_value(id, kCIdentifierErrMsg));
}

/// numericIdentifier: 0|[1-9]\d*
bool is_numeric_identifier(std::string_view s) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), is_ascii_digit)) return false;
  return s == "0" || s.front() != '0';
}

/// preReleaseIdentifier: 0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*, that is a numeric identifier or
/// a run of [0-9a-zA-Z-] with at least one character that is not a digit.
bool is_prerelease_identifier(std::string_view s) {
  if (is_numeric_identifier(s)) return true;
  if (s.empty()) return false;
  bool has_non_digit = false;
  for (char c : s) {
    if (!is_ascii_alnum(c) && c != '-') return false;
    has_non_digit = has_non_digit || !is_ascii_digit(c);
  }
  return has_non_digit;
}

/// buildIdentifier: [0-9a-zA-Z-]+
bool is_build_identifier(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_ascii_alnum(c) || c == '-'; });
}

/// Whether every dot-separated part of `s` passes `part_ok`.
template <typename Pred>
bool dot_separated(std::string_view s, Pred part_ok) {
  while (true) {
    const std::size_t dot = s.find('.');
    if (!part_ok(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

std::string go_string_ptr(const std::optional<std::string>& value) {
  return value ? "(*string)(" + go_quote(*value) + ")" : "(*string)(nil)";
}

std::string go_requirements(const std::vector<SelectorRequirement>& requirements) {
  if (requirements.empty()) return "[]core.NodeSelectorRequirement(nil)";
  std::string out = "[]core.NodeSelectorRequirement{";
  for (std::size_t i = 0; i < requirements.size(); ++i) {
    const SelectorRequirement& r = requirements[i];
    if (i > 0) out += ", ";
    out += "core.NodeSelectorRequirement{Key:" + go_quote(r.key) +
           ", Operator:" + go_quote(to_string(r.op)) +
           ", Values:" + go_string_slice(r.values, !r.values.empty()) + "}";
  }
  return out + "}";
}

}  // namespace

std::vector<std::string> driver_name_errors(std::string_view name) {
  std::vector<std::string> out;
  if (name.empty()) out.push_back(required_value());
  if (name.size() > kDriverNameMaxLength) out.push_back(too_long(kDriverNameMaxLength));
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const std::string& message : dns1123_subdomain_errors(lower)) {
    out.push_back(invalid_value(name, message));
  }
  return out;
}

std::vector<std::string> device_qualified_name_errors(std::string_view name) {
  std::vector<std::string> out;
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) {
    c_identifier_errors(name, out);
    return out;
  }
  if (name.find('/', slash + 1) != std::string_view::npos) {
    out.push_back(invalid_value(name, "must not contain more than one slash"));
    return out;
  }
  const std::string_view domain = name.substr(0, slash);
  const std::string_view id = name.substr(slash + 1);
  if (domain.empty()) {
    out.push_back(invalid_value("", "the domain must not be empty"));
  } else {
    for (std::string& message : driver_name_errors(domain)) out.push_back(std::move(message));
  }
  if (id.empty()) {
    out.push_back(invalid_value("", "the name must not be empty"));
  } else {
    c_identifier_errors(id, out);
  }
  return out;
}

std::vector<std::string> fully_qualified_name_errors(std::string_view name) {
  std::vector<std::string> out = device_qualified_name_errors(name);
  if (name.find('/') == std::string_view::npos) {
    out.push_back(invalid_value(name,
                                "a fully qualified name must be a domain and a name separated by a "
                                "slash"));
  }
  return out;
}

std::vector<std::string> pool_name_errors(std::string_view name) {
  std::vector<std::string> out;
  if (name.empty()) {
    out.push_back(required_value());
    return out;
  }
  if (name.size() > kPoolNameMaxLength) out.push_back(too_long(kPoolNameMaxLength));
  while (true) {
    const std::size_t slash = name.find('/');
    const std::string_view part = name.substr(0, slash);
    for (const std::string& message : dns1123_subdomain_errors(part)) {
      out.push_back(invalid_value(part, message));
    }
    if (slash == std::string_view::npos) return out;
    name.remove_prefix(slash + 1);
  }
}

bool is_semver(std::string_view text) {
  std::string_view core = text;
  std::string_view prerelease;
  std::string_view build;
  bool has_prerelease = false;
  bool has_build = false;
  if (const std::size_t plus = core.find('+'); plus != std::string_view::npos) {
    build = core.substr(plus + 1);
    core = core.substr(0, plus);
    has_build = true;
  }
  if (const std::size_t dash = core.find('-'); dash != std::string_view::npos) {
    prerelease = core.substr(dash + 1);
    core = core.substr(0, dash);
    has_prerelease = true;
  }
  if (std::count(core.begin(), core.end(), '.') != 2 ||
      !dot_separated(core, is_numeric_identifier)) {
    return false;
  }
  if (has_prerelease && !dot_separated(prerelease, is_prerelease_identifier)) return false;
  return !has_build || dot_separated(build, is_build_identifier);
}

std::vector<std::string> uid_errors(std::string_view uid) {
  // github.com/google/uuid Validate: the hyphenated form, with an urn:uuid: prefix or braces,
  // or 32 hex digits.
  std::string_view body = uid;
  std::string error;
  switch (uid.size()) {
    case 36:
      break;
    case 36 + 9: {
      std::string prefix(uid.substr(0, 9));
      std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (prefix != "urn:uuid:") error = "invalid urn prefix: " + go_quote(uid.substr(0, 9));
      body = uid.substr(9);
      break;
    }
    case 36 + 2:
      if (uid.front() != '{' || uid.back() != '}') error = "invalid bracketed UUID format";
      body = uid.substr(1, 36);
      break;
    case 32:
      if (!std::all_of(uid.begin(), uid.end(), is_hex)) error = "invalid UUID format";
      body = {};
      break;
    default:
      error = "invalid UUID length: " + std::to_string(uid.size());
      body = {};
  }
  if (error.empty() && body.size() == 36) {
    for (std::size_t i = 0; i < body.size(); ++i) {
      const bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
      if (hyphen ? body[i] != '-' : !is_hex(body[i])) error = "invalid UUID format";
    }
  }
  if (!error.empty()) return {invalid_value(uid, "error validating uid: " + error)};
  const bool lower =
      std::none_of(uid.begin(), uid.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  if (uid.size() != 36 || !lower) {
    return {invalid_value(uid,
                          "uid must be in RFC 4122 normalized form, "
                          "`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal "
                          "characters")};
  }
  return {};
}

std::string go_node_selector_terms(const std::vector<NodeSelectorTerm>& terms) {
  if (terms.empty()) return "[]core.NodeSelectorTerm(nil)";
  std::string out = "[]core.NodeSelectorTerm{";
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) out += ", ";
    out += "core.NodeSelectorTerm{MatchExpressions:" + go_requirements(terms[i].match_expressions) +
           ", MatchFields:" + go_requirements(terms[i].match_fields) + "}";
  }
  return out + "}";
}

std::string go_device_attribute(const std::optional<std::int64_t>& int_value,
                                const std::optional<bool>& bool_value,
                                const std::optional<std::string>& string_value,
                                const std::optional<std::string>& version_value) {
  const std::string int_text =
      int_value ? "(*int64)(" + std::to_string(*int_value) + ")" : "(*int64)(nil)";
  const std::string bool_text =
      bool_value ? std::string("(*bool)(") + (*bool_value ? "true" : "false") + ")"
                 : "(*bool)(nil)";
  return "resource.DeviceAttribute{IntValue:" + int_text + ", BoolValue:" + bool_text +
         ", StringValue:" + go_string_ptr(string_value) +
         ", VersionValue:" + go_string_ptr(version_value) + "}";
}

std::string go_pod_resource_claim(const PodResourceClaim& claim) {
  return "core.PodResourceClaim{Name:" + go_quote(claim.name) +
         ", ResourceClaimName:" + go_string_ptr(claim.resource_claim_name) +
         ", ResourceClaimTemplateName:" + go_string_ptr(claim.resource_claim_template_name) + "}";
}

std::string go_string_slice(const std::vector<std::string>& items, bool given) {
  if (!given) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += go_quote(items[i]);
  }
  return out + "}";
}

}  // namespace gpusched::io
