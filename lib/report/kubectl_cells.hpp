#pragma once
// Cells of kubectl's tables, shared by the reports.

#include <string>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// The phase, except that a finished pod reads `Completed` and a pod with a deletionTimestamp
/// reads `Terminating` (printers.printPod).
[[nodiscard]] std::string pod_status(const PodRecord& record);

/// An empty cell as kubectl prints it: `<none>`.
[[nodiscard]] std::string or_none(const std::string& value);

}  // namespace gpusched::report
