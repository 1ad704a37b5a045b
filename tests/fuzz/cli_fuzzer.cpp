// libFuzzer target: the command line's file arguments. The first byte picks a command and the
// file's extension, the rest is the file; `gpusched <command> ... <file>` then runs in-process
// (cli::run) with its output discarded. Whatever the file holds, the exit code is 0, 1 or 2:
// 3 (an internal error, out of memory, an exception cli::run did not expect) is a crash, as are
// ASan/UBSan findings, -timeout and -rss_limit_mb (docs/fuzzing.md).
//
// Commands that replay run only on small scenarios (small_scenario.hpp), as the scenario
// fuzzer does; the others (validate, snapshot, merge, import) read any size.

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/cli.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/snapshot.hpp"
#include "small_scenario.hpp"

namespace {

namespace fs = std::filesystem;

// What a command reads, for small_enough; ScenarioWithUntil: a scenario whose replay the
// command cannot end sooner (`check` has no --until), so it must say when it ends itself.
enum class Reads { Any, Scenario, ScenarioWithUntil, Snapshot };

struct Command {
  std::vector<std::string> args;  // "@" stands for the file
  Reads reads = Reads::Any;
};

const std::array<Command, 10> kCommands = {{
    {{"validate", "@"}},
    {{"validate", "--strict", "@"}},
    {{"snapshot", "@"}},
    {{"snapshot", "--to-scenario", "--until", "1h", "@"}},
    {{"merge", "@", "@"}},
    {{"import", "openb", "@", "@"}},
    {{"replay", "-o", "json", "--until", "1h", "@"}, Reads::Scenario},
    {{"check", "@"}, Reads::ScenarioWithUntil},
    {{"explain", "@", "--pod", "default/p", "--until", "1h"}, Reads::Scenario},
    {{"whatif", "--cluster", "@", "--add", "@", "--until", "1h"}, Reads::Snapshot},
}};

const std::array<const char*, 4> kExtensions = {".json", ".yaml", ".yml", ".csv"};

// The fuzz input's file, in a directory of this process's own.
const fs::path& directory() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("gpusched-cli-fuzz-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// Whether a command that replays would replay something small; a file that does not parse is
// given to the command all the same (its error is what is tested).
bool small_enough(Reads reads, std::string_view text, const std::string& file) {
  try {
    if (reads == Reads::Scenario || reads == Reads::ScenarioWithUntil) {
      const gpusched::Scenario scenario = gpusched::io::parse_scenario(text, file);
      return gpusched::fuzz::small_enough(scenario) &&
             (reads == Reads::Scenario || scenario.until.has_value());
    }
    if (reads == Reads::Snapshot) {
      return gpusched::fuzz::small_enough(gpusched::io::parse_snapshot(text, file).scenario);
    }
  } catch (const gpusched::InputError&) {
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Command& command = kCommands[data[0] % kCommands.size()];
  const char* extension = kExtensions[(data[0] / kCommands.size()) % kExtensions.size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string file = (directory() / (std::string("input") + extension)).string();
  if (command.reads != Reads::Any && !small_enough(command.reads, text, file)) return 0;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  std::vector<std::string> args = {"gpusched"};
  for (const std::string& arg : command.args) args.push_back(arg == "@" ? file : arg);
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  std::ostringstream err;
  const int code = gpusched::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  if (code < 0 || code > 2) {
    // Say what the command printed, then crash so that libFuzzer keeps the input.
    fprintf(stderr, "exit %d: %s\n", code, err.str().c_str());
    std::abort();
  }
  return 0;
}
