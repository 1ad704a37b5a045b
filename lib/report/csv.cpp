#include "report/csv.hpp"

#include "gpusched/error.hpp"

namespace gpusched::report {

namespace {

/// A decimal number as gpusched writes them: an optional minus, digits, an optional fraction.
bool is_decimal(std::string_view value) {
  if (value.starts_with('-')) value.remove_prefix(1);
  const std::size_t dot = value.find('.');
  const std::string_view whole = value.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view("0") : value.substr(dot + 1);
  auto digits = [](std::string_view part) {
    return !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return digits(whole) && digits(fraction);
}

}  // namespace

bool csv_formula_like(std::string_view value) {
  // OWASP's CSV injection advice: a spreadsheet evaluates a cell starting with = + - @ (and
  // after a tab or a CR) as a formula. Numbers such as -1 or -0.5 are data and keep their sign.
  return !value.empty() && std::string_view("=+-@\t\r").find(value[0]) != std::string_view::npos &&
         !is_decimal(value);
}

std::string csv_field(std::string_view value) {
  std::string neutral;
  if (csv_formula_like(value)) {
    neutral = "'" + std::string(value);
    value = neutral;
  }
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  return out + '\n';
}

std::vector<CsvLine> read_csv(std::string_view text, const std::string& file) {
  std::vector<CsvLine> out;
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n' || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      i += text[i] == '\r' ? 2 : 1;  // a blank line
      ++line;
      continue;
    }
    CsvLine record{line, {}};
    while (true) {
      std::string field;
      if (i < text.size() && text[i] == '"') {
        const int opened = line;
        ++i;
        while (true) {
          if (i >= text.size())
            throw InputError(file, "", "a quoted field is never closed", opened);
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i++];
        }
        if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
          throw InputError(file, "", "text after a closing quote", line);
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
          field += text[i++];
      }
      record.fields.push_back(std::move(field));
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      break;
    }
    if (i < text.size() && text[i] == '\r') ++i;
    if (i < text.size() && text[i] == '\n') ++i;
    ++line;
    out.push_back(std::move(record));
  }
  return out;
}

}  // namespace gpusched::report
