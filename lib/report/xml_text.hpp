#pragma once
// Text for XML and HTML markup: what JUnit XML and the HTML report carry from a scenario.

#include <string>
#include <string_view>

namespace gpusched::report {

/// XML 1.0 (and HTML) text or attribute value: the markup characters as entities, line breaks
/// and tabs as character references in attributes (where a parser would fold them into spaces),
/// and U+FFFD for what XML 1.0 cannot carry (control characters other than tab, LF and CR;
/// U+FFFE and U+FFFF; bytes that are not UTF-8), and for DEL and C1 controls, so that any text
/// makes a well-formed document.
[[nodiscard]] std::string xml_escaped(std::string_view text, bool attribute);

}  // namespace gpusched::report
