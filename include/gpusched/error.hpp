#pragma once
/// Errors for bad input. Modelled outcomes (a pod that does not fit) are values, never errors.

#include <stdexcept>
#include <string>

namespace gpusched {

/// `file:line: pointer: reason`, how gpusched names a place in its input: the line is left out
/// when 0 (unknown), the pointer when empty (the whole file).
[[nodiscard]] std::string located_message(const std::string& file, const std::string& pointer,
                                          const std::string& reason, int line = 0);

/// Invalid input: a file, a place in it and what is wrong. Maps to exit code 2.
class InputError : public std::runtime_error {
 public:
  /// `pointer` is a JSON pointer (RFC 6901) into the file, empty for the whole file;
  /// `line` is 1-based, 0 when unknown.
  InputError(std::string file, std::string pointer, std::string reason, int line = 0);

  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
  [[nodiscard]] const std::string& reason() const noexcept { return reason_; }
  [[nodiscard]] int line() const noexcept { return line_; }

 private:
  std::string file_;
  std::string pointer_;
  std::string reason_;
  int line_;
};

}  // namespace gpusched
