#pragma once
/// Errors: bad input, and broken invariants. Modelled outcomes (a pod that does not fit) are
/// values, never errors. docs/architecture.md, "Errors", has the policy.

#include <stdexcept>
#include <string>
#include <string_view>

namespace gpusched {

/// `file:line: pointer: reason`, how gpusched names a place in its input: the line is left out
/// when 0 (unknown), the pointer when empty (the whole file).
[[nodiscard]] std::string located_message(const std::string& file, const std::string& pointer,
                                          const std::string& reason, int line = 0);

/// Invalid input: a file, a place in it and what is wrong. Maps to exit code 2. For a bad
/// argument of a library call, the "file" names the argument (`count_fits`,
/// `SimulationOptions::plugins`).
class InputError : public std::runtime_error {
 public:
  /// `pointer` is a JSON pointer (RFC 6901) into the file, empty for the whole file;
  /// `line` is 1-based, 0 when unknown.
  InputError(std::string file, std::string pointer, std::string reason, int line = 0);

  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
  [[nodiscard]] const std::string& reason() const noexcept { return reason_; }
  [[nodiscard]] int line() const noexcept { return line_; }
  /// what() as a string: whole even when the input put a NUL byte in a name or a value, where
  /// what()'s C string ends.
  [[nodiscard]] std::string message() const {
    return located_message(file_, pointer_, reason_, line_);
  }

 private:
  std::string file_;
  std::string pointer_;
  std::string reason_;
  int line_;
};

/// A broken invariant: a state only a bug in gpusched can reach. Maps to exit code 3. what() is
/// `invariant "<invariant>" broken at <file>:<line>`.
class InternalError : public std::logic_error {
 public:
  InternalError(std::string invariant, std::string file, unsigned line);

  /// The invariant in words, as GPUSCHED_CHECK was given it.
  [[nodiscard]] const std::string& invariant() const noexcept { return invariant_; }
  /// The source file of the check, relative to the source tree in gpusched's own build.
  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] unsigned line() const noexcept { return line_; }

 private:
  std::string invariant_;
  std::string file_;
  unsigned line_;
};

/// Throws InternalError for `invariant`, placed at `file`:`line` (GPUSCHED_CHECK passes its own
/// place; std::source_location would be neater, but Clang 14, which builds the fuzzers, lacks it).
[[noreturn]] void internal_error(std::string_view invariant, const char* file, unsigned line);

}  // namespace gpusched

/// Checks an invariant in every build (NDEBUG or not): when `cond` is false, throws
/// gpusched::InternalError naming `invariant` (words, e.g. "the pod is not bound yet") and the
/// place of the check. The failing path is out of line, so a check costs a test and a branch.
#define GPUSCHED_CHECK(cond, invariant)                          \
  do {                                                           \
    if (!(cond)) [[unlikely]]                                    \
      ::gpusched::internal_error(invariant, __FILE__, __LINE__); \
  } while (false)
