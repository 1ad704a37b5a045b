#include "report/tab_writer.hpp"

#include <catch2/catch.hpp>

namespace gpusched::report {
namespace {

TEST_CASE("append_aligned_tabs pads each column block to its widest cell", "[report]") {
  struct Row {
    const char* name;
    const char* input;
    TabSettings settings;
    const char* expected;
  };
  const Row rows[] = {
      {"one block", "a\tbb\tc\naaa\tb\tc\n", kDescribeSettings, "a    bb  c\naaa  b   c\n"},
      {"min width", "a\tb\n", kGetSettings, "a     b\n"},
      {"a line without tab ends the block", "a\tx\nlong title\nbbbb\ty\n", kDescribeSettings,
       "a  x\nlong title\nbbbb  y\n"},
      {"a shorter line ends the inner column only", "k:\tv\n  n\tm\tz\n  nnnn\tm\tz\n",
       kDescribeSettings, "k:      v\n  n     m  z\n  nnnn  m  z\n"},
      {"no trailing spaces", "a\t\nbb\tc\n", kDescribeSettings, "a\nbb  c\n"},
      {"widths count code points", "\xC3\xA9\tx\nab\ty\n", kDescribeSettings,
       "\xC3\xA9   x\nab  y\n"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      std::string out;
      append_aligned_tabs(out, row.input, row.settings);
      CHECK(out == row.expected);
      // After what the string held: a line ending in spaces there is the caller's, untouched.
      std::string after = "title  \n  ";
      append_aligned_tabs(after, row.input, row.settings);
      CHECK(after == "title  \n  " + std::string(row.expected));
    }
  }
}

}  // namespace
}  // namespace gpusched::report
