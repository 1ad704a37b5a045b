#pragma once
// Test support: a CSV text checked as the RFC 4180 tables gpusched writes (report/csv.hpp), split
// by the library's own reader.

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "report/csv.hpp"

namespace gpusched::test {

/// A CSV text split into its header and records, and what is wrong with it.
struct CheckedCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> faults;  ///< empty when the text is a well-formed table
};

/// Splits `text` with report::read_csv and lists its faults:
/// - it does not read as RFC 4180 (a quote left open, text after a closing quote);
/// - it is not byte for byte what report::csv_row writes for the fields it holds. A field is
///   quoted exactly when it holds a comma, a quote or a line break, quotes are doubled, and every
///   record ends with LF, the last one too; read_csv takes CRLF, blank lines, bare quotes and a
///   missing last line end, which this rejects;
/// - no header, or a record with other than the header's number of fields;
/// - a field that is neither empty (not applicable) nor a decimal number, in a column not named
///   in `text_columns`; and a name in `text_columns` that the header lacks, which would leave
///   the check weaker than its caller meant.
inline CheckedCsv check_csv(const std::string& text, const std::vector<std::string>& text_columns) {
  CheckedCsv csv;
  std::vector<report::CsvLine> lines;
  try {
    lines = report::read_csv(text, "csv");
  } catch (const InputError& e) {
    csv.faults.emplace_back(e.what());
    return csv;
  }
  std::string rewritten;
  for (const report::CsvLine& line : lines) rewritten += report::csv_row(line.fields);
  if (rewritten != text) {
    const auto differ = static_cast<std::size_t>(
        std::mismatch(text.begin(), text.end(), rewritten.begin(), rewritten.end()).first -
        text.begin());
    csv.faults.push_back("byte " + std::to_string(differ) + ": \"" + text.substr(differ, 20) +
                         "\" where csv_row writes \"" + rewritten.substr(differ, 20) + "\"");
  }
  if (lines.empty()) {
    csv.faults.emplace_back("no header");
    return csv;
  }
  csv.header = lines.front().fields;
  for (const std::string& column : text_columns) {
    if (std::find(csv.header.begin(), csv.header.end(), column) == csv.header.end())
      csv.faults.push_back("no column " + column);
  }
  const std::regex number("-?[0-9]+(\\.[0-9]+)?");
  for (std::size_t l = 1; l < lines.size(); ++l) {
    const report::CsvLine& line = lines[l];
    const std::string at = "line " + std::to_string(line.number) + ": ";
    if (line.fields.size() != csv.header.size()) {
      csv.faults.push_back(at + std::to_string(line.fields.size()) + " fields, the header has " +
                           std::to_string(csv.header.size()));
      continue;
    }
    for (std::size_t c = 0; c < line.fields.size(); ++c) {
      const std::string& field = line.fields[c];
      const bool text_column =
          std::find(text_columns.begin(), text_columns.end(), csv.header[c]) != text_columns.end();
      if (!text_column && !field.empty() && !std::regex_match(field, number))
        csv.faults.push_back(at + csv.header[c] + ": \"" + field + "\" is not a number");
    }
    csv.records.push_back(line.fields);
  }
  return csv;
}

}  // namespace gpusched::test
