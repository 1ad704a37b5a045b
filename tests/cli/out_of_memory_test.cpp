// Out of memory is exit 3 and a sentence, never a signal (issue 19), even where no handler can
// catch it: a std::bad_alloc leaving a noexcept destructor (one that allocates to free a tree
// while memory has run out) calls std::terminate, which the CLI turns into that exit.

#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <new>
#include <string>

#include "support/run_cli.hpp"

namespace gpusched::cli {
namespace {

[[noreturn]] void throw_bad_alloc() {
  throw std::bad_alloc();
}

/// Frees nothing, but throws from its destructor as nlohmann's tree does under memory pressure.
struct AllocatingDestructor {
  void (*volatile release)() = throw_bad_alloc;
  ~AllocatingDestructor() { release(); }  // noexcept: the throw calls std::terminate
};

TEST_CASE("out of memory inside a destructor is exit 3 and a sentence", "[cli][limits]") {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    (void)test::run_cli({"--version"});  // as any command: the CLI is set up
    { AllocatingDestructor tree; }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string err;
  char buffer[256];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) err.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(err == "gpusched: out of memory\n");
}

}  // namespace
}  // namespace gpusched::cli
