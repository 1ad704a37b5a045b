// metav1.LabelSelectorAsSelector + labels.Requirement.Matches
// (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go, pkg/labels/selector.go).
#include "gpusched/model/selector.hpp"

#include <algorithm>
#include <charconv>

namespace gpusched {

std::string_view to_string(SelectorOperator op) noexcept {
  switch (op) {
    case SelectorOperator::In:
      return "In";
    case SelectorOperator::NotIn:
      return "NotIn";
    case SelectorOperator::Exists:
      return "Exists";
    case SelectorOperator::DoesNotExist:
      return "DoesNotExist";
    case SelectorOperator::Gt:
      return "Gt";
    case SelectorOperator::Lt:
      return "Lt";
  }
  return "In";
}

namespace {

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// labels.Requirement.Matches for the operators a LabelSelector may use. Gt/Lt are not label
// selector operators and In/NotIn need values: LabelSelectorAsSelector fails on those, and a
// selector that cannot be built selects nothing.
bool requirement_matches(const SelectorRequirement& req, const Labels& labels) {
  const auto it = labels.find(req.key);
  switch (req.op) {
    case SelectorOperator::In:
      return !req.values.empty() && it != labels.end() && contains(req.values, it->second);
    case SelectorOperator::NotIn:
      return !req.values.empty() && (it == labels.end() || !contains(req.values, it->second));
    case SelectorOperator::Exists:
      return it != labels.end();
    case SelectorOperator::DoesNotExist:
      return it == labels.end();
    case SelectorOperator::Gt:
    case SelectorOperator::Lt:
      return false;
  }
  return false;
}

}  // namespace

bool node_requirement_matches(const SelectorRequirement& req, const Labels& labels) {
  if (req.op != SelectorOperator::Gt && req.op != SelectorOperator::Lt)
    return requirement_matches(req, labels);
  // Gt/Lt: exactly one integer value, and the label an integer too.
  const auto it = labels.find(req.key);
  if (it == labels.end() || req.values.size() != 1) return false;
  const auto bound = parse_selector_integer(req.values.front());
  const auto value = parse_selector_integer(it->second);
  if (!bound || !value) return false;
  return req.op == SelectorOperator::Gt ? *value > *bound : *value < *bound;
}

std::optional<std::int64_t> parse_selector_integer(std::string_view text) {
  // from_chars takes no '+' and no spaces: the loader has always refused those.
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

bool LabelSelector::matches(const Labels& labels) const {
  for (const auto& [key, value] : match_labels) {
    const auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  return std::all_of(
      match_expressions.begin(), match_expressions.end(),
      [&](const SelectorRequirement& req) { return requirement_matches(req, labels); });
}

}  // namespace gpusched
