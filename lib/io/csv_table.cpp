#include "io/csv_table.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include "gpusched/error.hpp"

namespace gpusched::io {
namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t comma = line.find(',');
    fields.push_back(line.substr(0, comma));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

std::string joined(const std::vector<std::string_view>& columns) {
  std::string out;
  for (std::string_view column : columns) out.append(out.empty() ? "" : ",").append(column);
  return out;
}

std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

/// What is wrong with a header line, naming the first column at fault; empty when it is right.
std::string header_fault(const std::vector<std::string_view>& got,
                         const std::vector<std::string_view>& expected) {
  for (std::string_view column : expected) {
    if (std::find(got.begin(), got.end(), column) == got.end()) {
      return "missing column " + quoted(column);
    }
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::find(expected.begin(), expected.end(), got[i]) == expected.end()) {
      return "unknown column " + quoted(got[i]);
    }
    if (std::find(got.begin(), got.begin() + static_cast<long>(i), got[i]) !=
        got.begin() + static_cast<long>(i)) {
      return "column " + quoted(got[i]) + " appears twice";
    }
  }
  // Same columns, each once: only the order differs.
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i]) {
      return "column " + std::to_string(i + 1) + " is " + quoted(got[i]) + ", expected " +
             quoted(expected[i]);
    }
  }
  return {};
}

}  // namespace

CsvTable::CsvTable(std::string file, std::string_view text, std::vector<std::string_view> columns)
    : file_(std::move(file)), columns_(std::move(columns)) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  bool header = true;
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    std::vector<std::string_view> fields = split_fields(line);
    if (header) {
      if (const std::string fault = header_fault(fields, columns_); !fault.empty()) {
        throw InputError(file_, "",
                         "header: " + fault + "; the header must be " + quoted(joined(columns_)),
                         number);
      }
      header = false;
      continue;
    }
    if (fields.size() != columns_.size()) {
      throw InputError(file_, "",
                       "expected " + std::to_string(columns_.size()) + " fields (" +
                           joined(columns_) + "), got " + std::to_string(fields.size()),
                       number);
    }
    lines_.push_back(number);
    fields_.insert(fields_.end(), fields.begin(), fields.end());
  }
  if (header) {
    throw InputError(file_, "",
                     "the file is empty; expected the header " + quoted(joined(columns_)));
  }
}

std::string_view CsvTable::field(std::size_t row, std::size_t column) const {
  return fields_.at(row * columns_.size() + column);
}

std::int64_t CsvTable::integer(std::size_t row, std::size_t column, std::int64_t max) const {
  const std::string_view text = field(row, column);
  if (text.starts_with('-') && text.size() > 1 &&
      std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    fail(row, column, std::string(text) + " is negative");
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // from_chars takes a leading '-' (handled above) but no '+' and no spaces.
  if (text.empty() || end != text.data() + text.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    fail(row, column, quoted(text) + " is not an integer");
  }
  if (ec == std::errc::result_out_of_range || value > max) {
    fail(row, column, std::string(text) + " is larger than " + std::to_string(max));
  }
  return value;
}

void CsvTable::fail(std::size_t row, std::size_t column, const std::string& reason) const {
  throw InputError(file_, "", "column " + std::string(columns_.at(column)) + ": " + reason,
                   line(row));
}

void CsvTable::fail(std::size_t row, const std::string& reason) const {
  throw InputError(file_, "", reason, line(row));
}

}  // namespace gpusched::io
