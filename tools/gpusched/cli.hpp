#pragma once
/// The gpusched command line, callable in-process so that tests need no subprocess.

#include <ostream>

namespace gpusched::cli {

/// Runs `gpusched` with `argv` (argv[0] is the program name), writing reports to `out` and
/// diagnostics to `err`. Returns the exit code: 0 success (every expectation holds), 1 an
/// expectation failed, 2 invalid input or usage, 3 an internal error. Never throws.
[[nodiscard]] int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace gpusched::cli
