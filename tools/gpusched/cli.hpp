#pragma once
/// The gpusched command line, callable in-process so that tests need no subprocess.

#include <functional>
#include <ostream>

namespace gpusched::cli {

/// Runs `gpusched` with `argv` (argv[0] is the program name), writing reports to `out` and
/// diagnostics to `err`, both through one filter that escapes control characters
/// (report::append_terminal_text). Returns the exit code: 0 success (every expectation holds),
/// 1 an expectation failed, 2 invalid input or usage, 3 an internal error or a report that could
/// not be written (`out` or a file refusing a write or the final flush). Never throws.
[[nodiscard]] int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

/// Runs `body` and turns what escapes it into an exit code and a line on `err`
/// (docs/architecture.md, "Errors"): InputError 2 (`gpusched: error: ...`); InternalError 3
/// (`gpusched: internal error: invariant "x" broken at FILE:LINE`); WriteError 3
/// (`gpusched: error: cannot write PATH: reason`); std::bad_alloc 3
/// (`gpusched: out of memory`); anything else 3 (`gpusched: internal error: ...`). Otherwise
/// body's own code. run() goes through it.
[[nodiscard]] int run_guarded(const std::function<int()>& body, std::ostream& err);

}  // namespace gpusched::cli
