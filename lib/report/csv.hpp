#pragma once
// Writing CSV (RFC 4180): the tables gpusched prints for spreadsheets and for `merge`.

#include <string>
#include <string_view>
#include <vector>

namespace gpusched::report {

/// Whether a spreadsheet would take `value` for a formula: it starts with `=`, `+`, `-`, `@`, a
/// tab or a CR and is not a decimal number (`-1` and `-0.5` are numbers, not formulas).
[[nodiscard]] bool csv_formula_like(std::string_view value);
/// The field as RFC 4180 writes it: quoted, with quotes doubled, when it holds a comma, a quote
/// or a line break; a formula-like value (csv_formula_like) first gets a leading `'`, which
/// spreadsheets show as text (OWASP, "CSV Injection"), so that no name from the input runs as
/// a formula.
[[nodiscard]] std::string csv_field(std::string_view value);
/// One record of a CSV text and the line it starts on.
struct CsvLine {
  int number = 0;
  std::vector<std::string> fields;
};

/// Splits an RFC 4180 text (quoted fields may hold commas, doubled quotes and line breaks; CRLF
/// or LF line ends; blank lines skipped). Throws InputError(file, line) for a quote left open or
/// text after a closing quote.
[[nodiscard]] std::vector<CsvLine> read_csv(std::string_view text, const std::string& file);

/// The fields joined with commas, each quoted as needed, and a line end.
[[nodiscard]] std::string csv_row(const std::vector<std::string>& fields);

}  // namespace gpusched::report
