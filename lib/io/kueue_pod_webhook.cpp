#include "io/kueue_pod_webhook.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "io/api_validation.hpp"

namespace gpusched::io {
namespace {

constexpr std::string_view kWebhook = "vpod.kb.io";

/// One field.Error: its node (for the place) and its text.
struct PodFieldError {
  JsonNode at;
  std::string text;
};

std::string field_key(std::string_view map, std::string_view key) {
  return "metadata." + std::string(map) + "[" + std::string(key) + "]";
}

/// strconv.Atoi's error for `text`, or nothing when it parses (into `value`).
std::optional<std::string> atoi_error(const std::string& text, long long& value) {
  const std::string prefix = "strconv.Atoi: parsing " + go_quote(text) + ": ";
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  if (i == text.size()) return prefix + "invalid syntax";
  for (std::size_t j = i; j < text.size(); ++j) {
    if (text[j] < '0' || text[j] > '9') return prefix + "invalid syntax";
  }
  errno = 0;
  value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return prefix + "value out of range";
  return std::nullopt;
}

}  // namespace

void check_kueue_pod(const JsonNode& pod, const std::optional<KueueConfiguration>& kueue) {
  if (!kueue || !kueue->enabled("pod") || !pod.json().is_object()) return;
  const std::optional<JsonNode> meta = pod.get("metadata");
  if (!meta || !meta->json().is_object()) return;
  const std::optional<JsonNode> ns = meta->get("namespace");
  const std::string namespace_ = ns && ns->is_string() ? ns->string() : "default";
  if (namespace_ == "kube-system" || namespace_ == "kueue-system") return;
  const std::optional<JsonNode> labels = meta->get("labels");
  const std::optional<JsonNode> annotations = meta->get("annotations");
  const auto value = [](const std::optional<JsonNode>& map,
                        std::string_view key) -> std::optional<JsonNode> {
    if (!map || !map->json().is_object()) return std::nullopt;
    std::optional<JsonNode> found = map->get(key);
    if (found && !found->is_string()) return std::nullopt;
    return found;
  };
  // validateCommon: validateManagedLabel, then validatePodGroupMetadata.
  std::vector<PodFieldError> errors;
  if (auto managed = value(labels, kueue::kManagedLabel); managed && managed->string() != "true") {
    errors.push_back({*managed, field_key("labels", kueue::kManagedLabel) + ": " +
                                    forbidden("managed label value can only be 'true'")});
  }
  const std::optional<JsonNode> group = value(labels, kueue::kPodGroupNameLabel);
  const std::optional<JsonNode> total = value(annotations, kueue::kPodGroupTotalCountAnnotation);
  const std::string detail = "both the '" + std::string(kueue::kPodGroupTotalCountAnnotation) +
                             "' annotation and the '" + std::string(kueue::kPodGroupNameLabel) +
                             "' label should be set";
  const std::string group_field = field_key("labels", kueue::kPodGroupNameLabel);
  const std::string total_field = field_key("annotations", kueue::kPodGroupTotalCountAnnotation);
  bool checked = false;
  if (!group || group->string().empty()) {
    if (total) {
      errors.push_back({*total, group_field + ": " + required_value(detail)});
      checked = true;
    }
  } else {
    // ValidateLabelAsCRDName: a group name is a Workload's name.
    std::string joined;
    for (const std::string& e : dns1123_subdomain_errors(group->string()))
      joined += (joined.empty() ? "" : ",") + e;
    if (!joined.empty())
      errors.push_back({*group, group_field + ": " + invalid_value(group->string(), joined)});
    if (!total) {
      errors.push_back({*group, total_field + ": " + required_value(detail)});
      checked = true;
    }
  }
  if (!checked && total) {
    // groupTotalCount: strconv.Atoi, then at least 1.
    const std::string text = total->string();
    long long count = 0;
    std::optional<std::string> error = atoi_error(text, count);
    if (!error && count < 1) {
      error = "incorrect annotation value '" + std::string(kueue::kPodGroupTotalCountAnnotation) +
              "=" + text + "': group total count should be greater than zero";
    }
    if (error) errors.push_back({*total, total_field + ": " + invalid_value(text, *error)});
  }
  if (errors.empty()) return;
  // field.ErrorList.ToAggregate: one error as it is, several as "[a, b]".
  std::string text;
  if (errors.size() == 1) {
    text = errors.front().text;
  } else {
    for (const PodFieldError& e : errors) text += (text.empty() ? "[" : ", ") + e.text;
    text += "]";
  }
  errors.front().at.fail("admission webhook \"" + std::string(kWebhook) +
                         "\" denied the request: " + text);
}

}  // namespace gpusched::io
