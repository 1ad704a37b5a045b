#include "gpusched/progress.hpp"

#include <unistd.h>

#include "gpusched/model/time.hpp"

namespace gpusched::cli {
namespace {

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (std::size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

}  // namespace

std::string progress_line(const Progress& progress) {
  return "replaying: " + format_duration(progress.now) + " virtual, " + grouped(progress.cycles) +
         " cycles, " + grouped(progress.bound) + " bound, " + grouped(progress.pods) + " pods";
}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fputs("\r\033[K", terminal_);  // erase the line: the report follows
}

void ProgressLine::attach(SimulationOptions& options) {
  options.progress = [this](const Progress& progress) { draw(progress); };
}

void ProgressLine::draw(const Progress& progress) {
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  drawn_ = true;
  std::fprintf(terminal_, "\r\033[K%s", progress_line(progress).c_str());
  std::fflush(terminal_);
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) == 1;
}

SimulationResult simulate_with_progress(const Scenario& scenario, SimulationOptions options) {
  if (!stderr_is_terminal()) return simulate(scenario, options);
  ProgressLine line(stderr);
  line.attach(options);
  return simulate(scenario, options);
}

}  // namespace gpusched::cli
