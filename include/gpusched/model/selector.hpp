#pragma once
/// Selectors: node selector terms (core/v1) and label selectors (metav1).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/object_meta.hpp"

namespace gpusched {

/// NodeSelectorOperator and LabelSelectorOperator share their names; Gt/Lt only for nodes.
enum class SelectorOperator { In, NotIn, Exists, DoesNotExist, Gt, Lt };
/// The operator's name as the API spells it ("In", "DoesNotExist", ...).
[[nodiscard]] std::string_view to_string(SelectorOperator op) noexcept;

struct SelectorRequirement {
  std::string key;
  SelectorOperator op = SelectorOperator::In;
  std::vector<std::string> values;
  friend bool operator==(const SelectorRequirement&, const SelectorRequirement&) = default;
};

/// The integer a node selector requirement's `Gt`/`Lt` value stands for: decimal digits with an
/// optional leading `-`, within int64 (labels.NewRequirement's strconv.ParseInt); nullopt when
/// the text is not such an integer, which validation rejects.
[[nodiscard]] std::optional<std::int64_t> parse_selector_integer(std::string_view text);

/// A node selector requirement against a node's labels (nodeaffinity's
/// NodeSelectorRequirementsAsSelector): In/NotIn need values, Gt/Lt compare integers.
[[nodiscard]] bool node_requirement_matches(const SelectorRequirement& req, const Labels& labels);

/// core/v1 NodeSelectorTerm: requirements are ANDed.
struct NodeSelectorTerm {
  std::vector<SelectorRequirement> match_expressions;
  std::vector<SelectorRequirement> match_fields;  ///< only `metadata.name` is supported upstream
  friend bool operator==(const NodeSelectorTerm&, const NodeSelectorTerm&) = default;
};

/// metav1.LabelSelector: matchLabels and matchExpressions, ANDed.
struct LabelSelector {
  Labels match_labels;
  std::vector<SelectorRequirement> match_expressions;
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;

  /// An empty selector matches everything (metav1.LabelSelectorAsSelector).
  [[nodiscard]] bool matches(const Labels& labels) const;
  [[nodiscard]] bool empty() const noexcept {
    return match_labels.empty() && match_expressions.empty();
  }
};

}  // namespace gpusched
