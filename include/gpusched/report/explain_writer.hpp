#pragma once
/// Printing an Explanation: a report for people, and the JSON of scenario-format.md §4.

#include <cstddef>
#include <ostream>

#include "gpusched/explain/explain.hpp"

namespace gpusched::report {

struct ExplainTextOptions {
  /// List every node of each group (otherwise the first few, and how many more).
  bool members = false;
  /// Feasible nodes listed with their scores (the best first); the others are counted.
  std::size_t feasible_shown = 10;
};

/// The diagnosis and layer, the message, the groups of rejected nodes with each Filter plugin's
/// verdict, the feasible nodes' scores per Score plugin, preemption per node, and the remedies.
void write_explanation_text(std::ostream& out, const Explanation& explanation,
                            const ExplainTextOptions& options = {});

/// The JSON object of scenario-format.md §4 (keys in contract order, additions after them).
void write_explanation_json(std::ostream& out, const Explanation& explanation);

/// A Kueue Workload's story: its queues and condition, the diagnosis, per pod set, resource and
/// flavor its request against the ClusterQueue's quotas with the flavor assigner's reasons, and
/// the verified remedies.
void write_kueue_explanation_text(std::ostream& out, const KueueExplanation& explanation);

/// The same as JSON: {"job", "workload", "time", "localQueue", "clusterQueue", "cohort",
/// "priority", "admitted", "finished", "condition", "flavors", "diagnosis", "quota": [{"podSet",
/// "resource", "requested", "flavors": [{"flavor", "nominalQuota", "borrowingLimit", "usage",
/// "available", "cohortUnused", "reasons"}]}], "remedies": [...]}.
void write_kueue_explanation_json(std::ostream& out, const KueueExplanation& explanation);

}  // namespace gpusched::report
