#pragma once
/// A comma-separated table with a header line, as trace files write them (the Alibaba openb
/// trace): no quoting, LF or CRLF line ends, the last line's end optional. Errors name the file,
/// the line and the column: `pods.csv:7: column cpu_milli: "1.5" is not an integer`.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::io {

class CsvTable {
 public:
  /// Splits `text`, the whole file named `file`, which must outlive the table. Its first line
  /// must name exactly `columns`, in that order, and every later line have as many fields. Blank
  /// lines are skipped and a leading UTF-8 byte-order mark is ignored. Throws InputError.
  CsvTable(std::string file, std::string_view text, std::vector<std::string_view> columns);

  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  /// Records, the header left out.
  [[nodiscard]] std::size_t size() const noexcept { return lines_.size(); }
  /// The 1-based line of record `row` in the file.
  [[nodiscard]] int line(std::size_t row) const { return lines_.at(row); }
  [[nodiscard]] std::string_view field(std::size_t row, std::size_t column) const;
  /// The field as a decimal integer from 0 to `max`; fails (naming the column) when it is
  /// empty, not plain digits, negative or above `max`.
  [[nodiscard]] std::int64_t integer(std::size_t row, std::size_t column, std::int64_t max) const;

  /// Throws InputError(file, "", "column <name>: <reason>", line of `row`).
  [[noreturn]] void fail(std::size_t row, std::size_t column, const std::string& reason) const;
  /// Throws InputError(file, "", reason, line of `row`): a record's fault, not one column's.
  [[noreturn]] void fail(std::size_t row, const std::string& reason) const;

 private:
  std::string file_;
  std::vector<std::string_view> columns_;
  std::vector<int> lines_;                // per record
  std::vector<std::string_view> fields_;  // record-major, columns_.size() per record
};

}  // namespace gpusched::io
