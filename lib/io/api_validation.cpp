#include "io/api_validation.hpp"

#include <cstdio>

#include "gpusched/model/validation.hpp"

namespace gpusched::io {
namespace {

// Regular expressions quoted in upstream messages
// (k8s.io/apimachinery/pkg/util/validation/validation.go).
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label value must be an empty string or consist of alphanumeric characters, '-', '_' "
    "or '.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";

/// validation.RegexError, including its doubled space before " or ".
std::string regex_error(std::string_view message, std::string_view format,
                        std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'";
    out += example;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += format;
  out += "')";
  return out;
}

std::string max_len_error(int length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matches_dns1123_label(std::string_view s) {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_lower_alnum(c) && c != '-') return false;
  }
  return true;
}

bool matches_dns1123_subdomain(std::string_view s) {
  while (true) {
    std::size_t dot = s.find('.');
    if (!matches_dns1123_label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

}  // namespace

std::string invalid_value_raw(std::string_view rendered, std::string_view message) {
  std::string out = "Invalid value: ";
  out += rendered;
  if (!message.empty()) out.append(": ").append(message);
  return out;
}

std::string invalid_value(std::string_view value, std::string_view message) {
  return invalid_value_raw(go_quote(value), message);
}

std::string invalid_value(std::int64_t value, std::string_view message) {
  return invalid_value_raw(std::to_string(value), message);
}

std::string required_value(std::string_view message) {
  std::string out = "Required value";
  if (!message.empty()) out.append(": ").append(message);
  return out;
}

std::string forbidden(std::string_view message) {
  return "Forbidden: " + std::string(message);
}

std::string not_supported(std::string_view value,
                          std::initializer_list<std::string_view> supported) {
  std::string out = "Unsupported value: " + go_quote(value) + ": supported values: ";
  bool first = true;
  for (std::string_view s : supported) {
    if (!first) out += ", ";
    first = false;
    out += go_quote(s);
  }
  return out;
}

std::string duplicate_value(std::string_view value) {
  return "Duplicate value: " + go_quote(value);
}

std::vector<std::string> dns1123_subdomain_errors(std::string_view name) {
  std::vector<std::string> errors;
  if (name.size() > 253) errors.push_back(max_len_error(253));
  if (!matches_dns1123_subdomain(name)) {
    errors.push_back(regex_error(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errors;
}

std::vector<std::string> dns1123_label_errors(std::string_view name) {
  std::vector<std::string> errors;
  if (name.size() > 63) errors.push_back(max_len_error(63));
  if (!matches_dns1123_label(name)) {
    // A valid subdomain that is not a valid label can only differ by its dots.
    if (matches_dns1123_subdomain(name)) {
      errors.emplace_back("must not contain dots");
    } else {
      errors.push_back(regex_error(kDns1123LabelErrMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errors;
}

std::vector<std::string> label_value_errors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > 63) errors.push_back(max_len_error(63));
  if (!value.empty() && !matches_label_value(value)) {
    errors.push_back(
        regex_error(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

std::vector<std::string> path_segment_name_errors(std::string_view name) {
  // NameMayNotBe and NameMayNotContain.
  for (std::string_view illegal : {".", ".."}) {
    if (name == illegal) return {"may not be '" + std::string(illegal) + "'"};
  }
  std::vector<std::string> errors;
  for (std::string_view illegal : {"/", "%"}) {
    if (name.find(illegal) != std::string_view::npos)
      errors.push_back("may not contain '" + std::string(illegal) + "'");
  }
  return errors;
}

}  // namespace gpusched::io
