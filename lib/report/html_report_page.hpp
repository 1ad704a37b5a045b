#pragma once
// The HTML report's fixed parts, around its data: the style sheet and the script that draws it.

#include <string_view>

namespace gpusched::report {

/// The page's CSS (html_report_style.cpp).
[[nodiscard]] std::string_view html_report_style();
/// The page's JavaScript (html_report_script.cpp): reads the JSON in #report-data and draws it.
[[nodiscard]] std::string_view html_report_script();

}  // namespace gpusched::report
