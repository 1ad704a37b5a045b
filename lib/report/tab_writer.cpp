#include "report/tab_writer.hpp"

#include <algorithm>
#include <vector>

namespace gpusched::report {
namespace {

/// Width in code points, as tabwriter counts runes rather than bytes.
std::size_t display_width(std::string_view cell) {
  return static_cast<std::size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
  }));
}

/// Mirrors text/tabwriter's Writer.format / writeLines (Go src/text/tabwriter/tabwriter.go).
/// The cells of every line are kept in one list (a table of a million lines would otherwise
/// hold a vector per line), and the aligned lines go straight to the caller's string.
class Aligner {
 public:
  Aligner(std::string_view text, const TabSettings& settings, std::string& out)
      : settings_(settings), out_(out) {
    starts_.push_back(0);
    while (!text.empty()) {
      const auto newline = text.find('\n');
      std::string_view row = text.substr(0, newline);
      text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
      for (;;) {
        const auto tab = row.find('\t');
        cells_.push_back(row.substr(0, tab));
        if (tab == std::string_view::npos) break;
        row.remove_prefix(tab + 1);
      }
      starts_.push_back(cells_.size());
    }
  }

  void run() { format(0, starts_.size() - 1); }

 private:
  [[nodiscard]] std::size_t cell_count(std::size_t line) const {
    return starts_[line + 1] - starts_[line];
  }
  [[nodiscard]] std::string_view cell(std::size_t line, std::size_t column) const {
    return cells_[starts_[line] + column];
  }

  void format(std::size_t line0, std::size_t line1) {
    const std::size_t column = widths_.size();
    for (std::size_t current = line0; current < line1; ++current) {
      if (column + 1 >= cell_count(current)) continue;
      // A cell in this column opens a block: lines above it are complete.
      write_lines(line0, current);
      line0 = current;
      std::size_t width = settings_.min_width;
      for (; current < line1 && column + 1 < cell_count(current); ++current) {
        width = std::max(width, display_width(cell(current, column)) + settings_.padding);
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
      const std::size_t begin = out_.size();
      for (std::size_t j = 0; j < cell_count(i); ++j) {
        const std::string_view text = cell(i, j);
        out_ += text;
        if (j < widths_.size()) {
          const std::size_t width = display_width(text);
          if (widths_[j] > width) out_.append(widths_[j] - width, ' ');
        }
      }
      // No trailing spaces, the cells' own included.
      while (out_.size() > begin && out_.back() == ' ') out_.pop_back();
      out_ += '\n';
    }
  }

  const TabSettings& settings_;
  std::string& out_;
  std::vector<std::string_view> cells_;
  std::vector<std::size_t> starts_;  // line i's cells: [starts_[i], starts_[i + 1])
  std::vector<std::size_t> widths_;
};

}  // namespace

void append_aligned_tabs(std::string& out, std::string_view text, const TabSettings& settings) {
  Aligner(text, settings, out).run();
}

std::string align_tabs(std::string_view text, const TabSettings& settings) {
  std::string out;
  append_aligned_tabs(out, text, settings);
  return out;
}

}  // namespace gpusched::report
