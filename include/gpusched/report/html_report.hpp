#pragma once
/// A replay as one self-contained HTML page to open in a browser: who held which node and GPU
/// when, who waited, the preemptions, GPU allocation over time, the events, the resource claims
/// and why the pods still pending wait.

#include <ostream>
#include <string>
#include <vector>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// Why a pod still pending at the end of the run waits, as `gpusched explain` tells it.
struct HtmlPendingExplanation {
  std::string pod;        ///< "ns/name"
  std::string layer;      ///< capacity-supply, provisioning, scheduling, workload or none
  std::string diagnosis;  ///< in plain words
  std::vector<std::string> remedies;
};

struct HtmlReportOptions {
  /// Explanations of the pods pending at the end, shown with each pod's last FailedScheduling
  /// message and wait; one for a pod that is not pending at the end is not shown.
  std::vector<HtmlPendingExplanation> explanations;
};

/// Writes the page: the result's data as one inline JSON document and an inline script that
/// draws it (SVG timelines per node and per GPU from SimulationResult::pod_spans, pending
/// intervals, preemption markers, GPU allocation over time, the summary metrics, the events,
/// the pending pods and the ResourceClaims, a pod's also beside it), paged and searchable so
/// that a replay of thousands of nodes stays usable.
/// Nothing is fetched from the network. Every text from the scenario is escaped; the same
/// result and options give the same bytes.
void write_html_report(std::ostream& out, const SimulationResult& result,
                       const HtmlReportOptions& options = {});

}  // namespace gpusched::report
