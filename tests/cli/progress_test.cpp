// The progress line: its text, and how it draws and erases itself.

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "gpusched/progress.hpp"

namespace gpusched {

TEST_CASE("the progress line reads virtual time and counts", "[cli][progress]") {
  CHECK(cli::progress_line(Progress{3'723'000, 12'288, 10'000, 1'234'567}) ==
        "replaying: 1h2m3s virtual, 12,288 cycles, 10,000 bound, 1,234,567 pods");
  CHECK(cli::progress_line(Progress{}) == "replaying: 0s virtual, 0 cycles, 0 bound, 0 pods");
}

TEST_CASE("the progress line draws in place, at most every 200 ms, and is erased at the end",
          "[cli][progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    cli::ProgressLine line(file);
    SimulationOptions options;
    line.attach(options);
    REQUIRE(options.progress);
    options.progress(Progress{1000, 4096, 10, 20});
    options.progress(Progress{2000, 8192, 20, 30});  // within 200 ms: not drawn
  }
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text.push_back(static_cast<char>(c));
  std::fclose(file);
  CHECK(text == "\r\033[Kreplaying: 1s virtual, 4,096 cycles, 10 bound, 20 pods\r\033[K");
}

}  // namespace gpusched
