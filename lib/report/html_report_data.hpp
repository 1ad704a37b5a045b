#pragma once
// The HTML report's data: the result reduced to what the page's script draws, as one JSON
// document (the shape is described in html_report_data.cpp, next to the code that writes it).

#include <nlohmann/json.hpp>

#include "gpusched/report/html_report.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

[[nodiscard]] nlohmann::ordered_json html_report_data(const SimulationResult& result,
                                                      const HtmlReportOptions& options);

}  // namespace gpusched::report
