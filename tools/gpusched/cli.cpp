#include "gpusched/cli.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/output_file.hpp"
#include "gpusched/terminal_stream.hpp"

#ifndef GPUSCHED_VERSION
#error "GPUSCHED_VERSION must be defined by the build (tools/CMakeLists.txt)"
#endif

namespace gpusched::cli {

namespace {

/// CLI11 reports usage errors with its own exit codes (100+); ours is 2 for every bad usage.
int usage_error(const CLI::App& app, const CLI::ParseError& e, std::ostream& out,
                std::ostream& err) {
  // --help and --version arrive as "errors" with exit code 0.
  if (e.get_exit_code() == 0) return app.exit(e, out, err);
  err << kErrorPrefix << e.what() << "\nRun with --help for more information.\n";
  return 2;
}

int run_app(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Replays Kubernetes scheduling offline on a virtual clock.", "gpusched"};
  app.set_version_flag("--version", "gpusched " GPUSCHED_VERSION);
  app.require_subcommand(0, 1);
  const std::vector<Command> commands{
      add_replay_command(app), add_check_command(app),    add_validate_command(app),
      add_whatif_command(app), add_snapshot_command(app), add_import_command(app),
      add_plan_command(app),   add_compare_command(app),  add_sweep_command(app),
      add_merge_command(app),  add_explain_command(app),  add_experiment_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e, out, err);
  }
  for (const Command& command : commands) {
    if (command.app->parsed()) return command.run(out, err);
  }
  err << app.help();
  return 2;
}

std::terminate_handler previous_terminate = nullptr;

/// The last resort when memory runs out where run_guarded cannot catch it: a destructor that
/// allocates while a std::bad_alloc unwinds the stack (std::terminate). It says what
/// run_guarded says and exits 3, never a signal; other reasons go to the previous handler.
[[noreturn]] void on_terminate() noexcept {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
      std::fputs("gpusched: out of memory\n", stderr);
      std::_Exit(3);
    } catch (...) {
    }
  }
  if (previous_terminate != nullptr) previous_terminate();
  std::abort();
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  static const bool installed = [] {
    previous_terminate = std::set_terminate(on_terminate);
    return true;
  }();
  (void)installed;
  // Every byte printed passes one filter: names and messages from the input cannot drive the
  // terminal (terminal_stream.hpp).
  TerminalTextBuffer out_buffer(*out.rdbuf());
  TerminalTextBuffer err_buffer(*err.rdbuf());
  std::ostream safe_out(&out_buffer);
  std::ostream safe_err(&err_buffer);
  safe_err.flags(err.flags());  // std::cerr flushes after each write (unitbuf)
  int code = run_guarded([&] { return run_app(argc, argv, safe_out, safe_err); }, safe_err);
  // A report that never reached its reader (a full disk, a closed pipe) is no success: a
  // sweep shard must not "pass" with its table lost.
  if (!safe_out.flush()) {
    safe_err << kErrorPrefix << WriteError("standard output", out_buffer.failure()).what() << '\n';
    code = 3;
  }
  safe_err.flush();
  return code;
}

int run_guarded(const std::function<int()>& body, std::ostream& err) {
  try {
    return body();
  } catch (const InputError& e) {
    err << kErrorPrefix << e.message() << '\n';
    return 2;
  } catch (const WriteError& e) {
    // The input was fine and the work done; what failed is the disk or the reader.
    err << kErrorPrefix << e.what() << '\n';
    return 3;
  } catch (const InternalError& e) {
    // what() names the invariant and the place of its check: what a bug report needs.
    err << "gpusched: internal error: " << e.what() << '\n';
    return 3;
  } catch (const std::bad_alloc&) {
    // Neither the input's fault in a way we can place nor a bug: say what ran out.
    err << "gpusched: out of memory\n";
    return 3;
  } catch (const std::exception& e) {
    err << "gpusched: internal error: " << e.what() << '\n';
    return 3;
  } catch (...) {
    err << "gpusched: internal error: unknown exception\n";
    return 3;
  }
}

}  // namespace gpusched::cli
