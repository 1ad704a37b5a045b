#pragma once
// Test support: the CLI run in-process, its exit code and both streams captured.

#include <sstream>
#include <string>
#include <vector>

#include "gpusched/cli.hpp"

namespace gpusched::test {

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

/// Runs `gpusched args...`.
inline Outcome run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "gpusched");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  std::ostringstream err;
  const int code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace gpusched::test
