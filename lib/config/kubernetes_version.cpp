// Which kube-scheduler release is mirrored. Behaviour that changed inside a minor release is
// keyed on the first patch that carries the change.
#include "gpusched/config/kubernetes_version.hpp"

#include <charconv>
#include <string>

namespace gpusched {
namespace {

// PR #135023 ("Pod statuses no longer include specific taint keys or values when scheduling
// fails because of untolerated taints") was cherry-picked into 1.34 and is listed under
// "Changelog since v1.34.1" in kubernetes/kubernetes CHANGELOG/CHANGELOG-1.34.md, so the first
// 1.34 release with the aggregated reason is 1.34.2.
constexpr int kAggregatedTaintReasonPatch134 = 2;

std::string supported_versions() {
  std::string out;
  for (int minor = KubernetesVersion::kMinMinor; minor <= KubernetesVersion::kMaxMinor; ++minor) {
    if (!out.empty()) out += ", ";
    out += "1." + std::to_string(minor);
  }
  return out;
}

// A non-negative decimal number without a sign.
bool parse_number(std::string_view text, int& out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<KubernetesVersion> KubernetesVersion::parse(std::string_view text,
                                                          std::string* error) {
  const std::string original(text);
  auto fail = [&](const std::string& why) -> std::optional<KubernetesVersion> {
    if (error != nullptr) {
      *error = "unsupported Kubernetes version \"" + original + "\": " + why +
               "; supported versions are " + supported_versions() +
               " (optionally with a patch, e.g. \"1.34.2\")";
    }
    return std::nullopt;
  };
  if (text.starts_with('v')) text.remove_prefix(1);
  if (!text.starts_with("1.")) return fail("expected 1.<minor>[.<patch>]");
  text.remove_prefix(2);
  const auto dot = text.find('.');
  KubernetesVersion version;
  if (!parse_number(text.substr(0, dot), version.minor)) {
    return fail("expected 1.<minor>[.<patch>]");
  }
  if (dot != std::string_view::npos && !parse_number(text.substr(dot + 1), version.patch)) {
    return fail("expected 1.<minor>[.<patch>]");
  }
  if (version.minor < kMinMinor || version.minor > kMaxMinor) {
    return fail("minor release not supported");
  }
  return version;
}

std::string KubernetesVersion::to_string() const {
  std::string out = "1." + std::to_string(minor);
  if (patch >= 0) out += "." + std::to_string(patch);
  return out;
}

bool KubernetesVersion::aggregated_taint_reason() const noexcept {
  return minor > 34 || (minor == 34 && patch >= kAggregatedTaintReasonPatch134);
}

}  // namespace gpusched
