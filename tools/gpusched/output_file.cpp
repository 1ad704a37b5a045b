#include "gpusched/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "gpusched/error.hpp"

namespace gpusched::cli {

WriteError::WriteError(const std::string& what, const std::string& reason)
    : std::runtime_error("cannot write " + what + (reason.empty() ? "" : ": " + reason)) {}

void refuse_input_as_output(const std::string& option, const std::string& output,
                            const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    std::error_code ec;  // an output that does not exist yet is no input
    if (std::filesystem::equivalent(output, input, ec)) {
      throw InputError(option, "",
                       output + " is the input " + input +
                           ": writing it would destroy the input; name another file");
    }
  }
}

OutputFile::OutputFile(const std::string& option, std::string path) : path_(std::move(path)) {
  errno = 0;
  file_.open(path_, std::ios::binary);
  if (!file_) {
    const int error = errno;
    throw InputError(
        option, "",
        "cannot write " + path_ + (error != 0 ? ": " + std::string(std::strerror(error)) : ""));
  }
}

void OutputFile::close() {
  errno = 0;
  file_.close();  // flushes; fails when a write or the flush did
  if (!file_) {
    const int error = errno;
    throw WriteError(path_, error != 0 ? std::strerror(error) : "");
  }
}

}  // namespace gpusched::cli
