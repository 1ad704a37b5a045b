// cel-go v0.26.0 common/error.go (ToDisplayString) and common/errors.go (sorting, joining), over
// common/source.go's line offsets: lines split at '\n', columns counted in code points.
#include "dra/cel_source.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/utf8.hpp"

namespace gpusched::dra::cel::detail {
namespace {

// common/error.go: snippets longer than this are left out.
constexpr std::size_t kMaxSnippetLength = 16384;

struct Location {
  long line = -1;    // 1-based; -1 for NoLocation
  long column = -1;  // 0-based, in code points
  std::size_t line_start = 0;
  std::size_t line_end = 0;
};

Location locate(std::string_view source, std::optional<std::size_t> offset) {
  Location loc;
  if (!offset) return loc;
  const std::size_t at = std::min(*offset, source.size());
  loc.line = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (source[i] == '\n') {
      ++loc.line;
      loc.line_start = i + 1;
    }
  }
  loc.column = 0;
  for (std::size_t i = loc.line_start; i < at;) {
    i += decode_utf8(source, i).length;
    ++loc.column;
  }
  const std::size_t newline = source.find('\n', loc.line_start);
  loc.line_end = newline == std::string_view::npos ? source.size() : newline;
  return loc;
}

std::string display(std::string_view source, const SourceError& error, const Location& loc) {
  std::string out = "ERROR: <input>:" + std::to_string(loc.line) + ":" +
                    std::to_string(loc.column + 1) + ": " + error.message;
  if (loc.line < 1) return out;
  std::string snippet(source.substr(loc.line_start, loc.line_end - loc.line_start));
  if (snippet.size() > kMaxSnippetLength) return out;
  std::replace(snippet.begin(), snippet.end(), '\t', ' ');
  out += "\n | ";
  out += snippet;
  out += "\n | ";
  std::size_t i = 0;
  for (long c = 0; c < loc.column && i < snippet.size(); ++c) {
    const std::size_t size = decode_utf8(snippet, i).length;
    out += size > 1 ? "\uff0e" : ".";
    i += size;
  }
  out += (i < snippet.size() && decode_utf8(snippet, i).length > 1) ? "\uff3e" : "^";
  return out;
}

}  // namespace

std::string display_errors(std::string_view source, std::vector<SourceError> errors) {
  std::vector<std::pair<Location, const SourceError*>> located;
  located.reserve(errors.size());
  for (const SourceError& e : errors) located.emplace_back(locate(source, e.offset), &e);
  std::stable_sort(located.begin(), located.end(), [](const auto& a, const auto& b) {
    return a.first.line < b.first.line ||
           (a.first.line == b.first.line && a.first.column < b.first.column);
  });
  std::string out;
  for (const auto& [loc, error] : located) {
    if (!out.empty()) out += '\n';
    out += display(source, *error, loc);
  }
  return out;
}

}  // namespace gpusched::dra::cel::detail
