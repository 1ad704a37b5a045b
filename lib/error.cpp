#include "gpusched/error.hpp"

#include <utility>

namespace gpusched {

std::string located_message(const std::string& file, const std::string& pointer,
                            const std::string& reason, int line) {
  // append() rather than operator+: GCC 12 warns falsely (-Wrestrict) on chained temporaries.
  std::string out = file;
  if (line > 0) out.append(":").append(std::to_string(line));
  out.append(": ");
  if (!pointer.empty()) out.append(pointer).append(": ");
  out.append(reason);
  return out;
}

InputError::InputError(std::string file, std::string pointer, std::string reason, int line)
    : std::runtime_error(located_message(file, pointer, reason, line)),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      reason_(std::move(reason)),
      line_(line) {}

namespace {

std::string internal_message(const std::string& invariant, const std::string& file, unsigned line) {
  std::string out = "invariant \"";
  out.append(invariant).append("\" broken at ").append(file).append(":");
  out.append(std::to_string(line));
  return out;
}

}  // namespace

InternalError::InternalError(std::string invariant, std::string file, unsigned line)
    : std::logic_error(internal_message(invariant, file, line)),
      invariant_(std::move(invariant)),
      file_(std::move(file)),
      line_(line) {}

void internal_error(std::string_view invariant, const char* file, unsigned line) {
  throw InternalError(std::string(invariant), file, line);
}

}  // namespace gpusched
