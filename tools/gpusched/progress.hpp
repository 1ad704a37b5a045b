#pragma once
// The progress line of a long replay: on stderr when it is a terminal, nothing otherwise, so
// that logs and pipes see only the report.

#include <chrono>
#include <cstdio>
#include <string>

#include "gpusched/sim/simulator.hpp"

namespace gpusched::cli {

/// "replaying: 1h2m virtual, 12,288 cycles, 10,000 bound, 10,500 pods".
[[nodiscard]] std::string progress_line(const Progress& progress);

/// Draws progress_line on `terminal` at most every 200 ms while a replay runs, and erases it
/// when destroyed. Attach it only when `terminal` is a TTY (see on_terminal()).
class ProgressLine {
 public:
  explicit ProgressLine(std::FILE* terminal) : terminal_(terminal) {}
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Sets options.progress to draw on this line.
  void attach(SimulationOptions& options);

 private:
  void draw(const Progress& progress);

  std::FILE* terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// Whether stderr is a terminal.
[[nodiscard]] bool stderr_is_terminal();

/// simulate(), with a ProgressLine on stderr when it is a terminal.
[[nodiscard]] SimulationResult simulate_with_progress(const Scenario& scenario,
                                                      SimulationOptions options);

}  // namespace gpusched::cli
