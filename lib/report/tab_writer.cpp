#include "report/tab_writer.hpp"

#include <algorithm>
#include <vector>

namespace gpusched::report {
namespace {

using Line = std::vector<std::string_view>;

/// Width in code points, as tabwriter counts runes rather than bytes.
std::size_t display_width(std::string_view cell) {
  return static_cast<std::size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
  }));
}

/// Mirrors text/tabwriter's Writer.format / writeLines (Go src/text/tabwriter/tabwriter.go).
class Aligner {
 public:
  Aligner(const std::vector<Line>& lines, const TabSettings& settings)
      : lines_(lines), settings_(settings) {}

  std::string run() {
    format(0, lines_.size());
    return std::move(out_);
  }

 private:
  void format(std::size_t line0, std::size_t line1) {
    const std::size_t column = widths_.size();
    for (std::size_t current = line0; current < line1; ++current) {
      if (column + 1 >= lines_[current].size()) continue;
      // A cell in this column opens a block: lines above it are complete.
      write_lines(line0, current);
      line0 = current;
      std::size_t width = settings_.min_width;
      for (; current < line1 && column + 1 < lines_[current].size(); ++current) {
        width = std::max(width, display_width(lines_[current][column]) + settings_.padding);
      }
      widths_.push_back(width);
      format(line0, current);
      widths_.pop_back();
      line0 = current;
    }
    write_lines(line0, line1);
  }

  void write_lines(std::size_t line0, std::size_t line1) {
    for (std::size_t i = line0; i < line1; ++i) {
      const Line& line = lines_[i];
      std::string text;
      for (std::size_t j = 0; j < line.size(); ++j) {
        text += line[j];
        if (j < widths_.size()) {
          const std::size_t width = display_width(line[j]);
          if (widths_[j] > width) text.append(widths_[j] - width, ' ');
        }
      }
      const auto end = text.find_last_not_of(' ');
      text.erase(end == std::string::npos ? 0 : end + 1);
      out_ += text;
      out_ += '\n';
    }
  }

  const std::vector<Line>& lines_;
  const TabSettings& settings_;
  std::vector<std::size_t> widths_;
  std::string out_;
};

}  // namespace

std::string align_tabs(std::string_view text, const TabSettings& settings) {
  std::vector<Line> lines;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view row = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    Line cells;
    for (;;) {
      const auto tab = row.find('\t');
      cells.push_back(row.substr(0, tab));
      if (tab == std::string_view::npos) break;
      row.remove_prefix(tab + 1);
    }
    lines.push_back(std::move(cells));
  }
  return Aligner(lines, settings).run();
}

}  // namespace gpusched::report
