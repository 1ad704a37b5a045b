// Resource-name predicates of pkg/apis/core/v1/helper/helpers.go (IsNativeResource,
// IsHugePageResourceName, IsExtendedResourceName, IsOvercommitAllowed, IsScalarResourceName),
// pkg/apis/core/helper/helpers.go (IsIntegerResourceName) and
// k8s.io/apimachinery/pkg/util/validation (IsQualifiedName, used by IsExtendedResourceName).
#include "gpusched/model/resource_list.hpp"

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {
namespace resource {
namespace {

constexpr std::string_view kHugePagesPrefix = "hugepages-";
constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";
constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kAttachableVolumesPrefix = "attachable-volumes-";

constexpr std::size_t kQualifiedNameMaxLength = 63;
constexpr std::size_t kDns1123SubdomainMaxLength = 253;

bool is_alnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// qualifiedNameFmt: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool matches_qualified_name_part(std::string_view s) noexcept {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// dns1123SubdomainFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool matches_dns1123_subdomain(std::string_view s) noexcept {
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string regex_error(std::string_view msg, std::string_view fmt,
                        std::initializer_list<std::string_view> examples) {
  // validation.RegexError.
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'";
    out += e;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += fmt;
  out += "')";
  return out;
}

std::string qualified_name_regex_error() {
  return regex_error(
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character",
      "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", {"MyName", "my.name", "123-abc"});
}

bool is_prefixed_native(std::string_view name) noexcept {
  return name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

}  // namespace

std::vector<std::string> qualified_name_errors(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a qualified name " + qualified_name_regex_error() +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.emplace_back("prefix part must be non-empty");
    } else {
      // IsDNS1123Subdomain, each message prefixed.
      if (prefix.size() > kDns1123SubdomainMaxLength) {
        errs.push_back("prefix part must be no more than " +
                       std::to_string(kDns1123SubdomainMaxLength) + " characters");
      }
      if (!matches_dns1123_subdomain(prefix)) {
        errs.push_back(
            "prefix part " +
            regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                        "characters, '-' or '.', and must start and end with an alphanumeric "
                        "character",
                        "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
                        {"example.com"}));
      }
    }
  }
  if (name.empty()) {
    errs.emplace_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part must be no more than " + std::to_string(kQualifiedNameMaxLength) +
                   " characters");
  }
  if (!matches_qualified_name_part(name))
    errs.push_back("name part " + qualified_name_regex_error());
  return errs;
}

bool is_native(std::string_view name) noexcept {
  return name.find('/') == std::string_view::npos || is_prefixed_native(name);
}

bool is_hugepages(std::string_view name) noexcept {
  return name.starts_with(kHugePagesPrefix);
}

bool is_extended(std::string_view name) noexcept {
  if (is_native(name) || name.starts_with(kRequestsPrefix)) return false;
  // The quota form "requests.<name>" must be a qualified name. A non-native name has a '/', so
  // that is: one '/', "requests.<prefix>" a DNS-1123 subdomain, and a valid name part.
  const std::size_t slash = name.find('/');
  const std::string_view prefix = name.substr(0, slash);
  const std::string_view part = name.substr(slash + 1);
  return part.find('/') == std::string_view::npos && !prefix.empty() &&
         kRequestsPrefix.size() + prefix.size() <= kDns1123SubdomainMaxLength &&
         matches_dns1123_subdomain(prefix) && part.size() <= kQualifiedNameMaxLength &&
         matches_qualified_name_part(part);
}

bool is_scalar(std::string_view name) noexcept {
  return is_extended(name) || is_hugepages(name) || is_prefixed_native(name) ||
         name.starts_with(kAttachableVolumesPrefix);
}

bool is_integer_resource(std::string_view name) noexcept {
  // helper.IsIntegerResourceName: object counts (quota resources) and extended resources.
  static constexpr std::array<std::string_view, 9> kIntegerResources = {"pods",
                                                                        "resourcequotas",
                                                                        "services",
                                                                        "replicationcontrollers",
                                                                        "secrets",
                                                                        "configmaps",
                                                                        "persistentvolumeclaims",
                                                                        "services.nodeports",
                                                                        "services.loadbalancers"};
  for (std::string_view r : kIntegerResources) {
    if (r == name) return true;
  }
  return is_extended(name);
}

bool is_overcommit_allowed(std::string_view name) noexcept {
  return is_native(name) && !is_hugepages(name);
}

QuantityFormat default_format(std::string_view name) noexcept {
  // The scheduler's Resource.ResourceList() builds memory, ephemeral storage and hugepages as
  // BinarySI and everything else as DecimalSI.
  if (name == kMemory || name == kEphemeralStorage || is_hugepages(name)) {
    return QuantityFormat::BinarySI;
  }
  return QuantityFormat::DecimalSI;
}

}  // namespace resource

void add_to(ResourceList& list, std::string_view name, const Quantity& q) {
  // addResourceList: a missing entry starts from zero, which takes q's format (Quantity.Add).
  auto it = list.find(name);
  if (it == list.end()) {
    list.emplace(std::string(name), q);
    return;
  }
  it->second = it->second.plus(q);
}

}  // namespace gpusched
