#pragma once
// The files a command writes besides its output stream (replay --html, check --junit, import
// -o): never one of its inputs, opened before the work so that a bad path fails at once, and
// closed with every write checked.

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusched::cli {

/// A report that could not be written completely (a full disk, a closed pipe): exit 3, as the
/// input was fine and the run was done, with `gpusched: error: cannot write <what>: <reason>`.
class WriteError : public std::runtime_error {
 public:
  /// `what` names the file, or "standard output"; `reason` is the system's, possibly empty.
  WriteError(const std::string& what, const std::string& reason);
};

/// Throws InputError at `option` (exit 2) when `output` is the same file as one of `inputs`
/// (std::filesystem::equivalent: the same file through any symbolic or hard link): writing it
/// would destroy the input.
void refuse_input_as_output(const std::string& option, const std::string& output,
                            const std::vector<std::string>& inputs);

/// A file given by `option`, opened (and emptied) by the constructor: InputError at `option`
/// when it cannot be opened. close() flushes and closes it and throws WriteError naming it when
/// any write failed.
class OutputFile {
 public:
  OutputFile(const std::string& option, std::string path);
  [[nodiscard]] std::ostream& stream() { return file_; }
  void close();

 private:
  std::string path_;
  std::ofstream file_;
};

}  // namespace gpusched::cli
