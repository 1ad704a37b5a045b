#pragma once
// The STATUS column of `kubectl get pods`, shared by the reports.

#include <string>

#include "gpusched/report/result.hpp"

namespace gpusched::report {

/// The phase, except that a finished pod reads `Completed` and a pod with a deletionTimestamp
/// reads `Terminating` (printers.printPod).
[[nodiscard]] std::string pod_status(const PodRecord& record);

}  // namespace gpusched::report
