#include "gpusched/framework/status.hpp"

namespace gpusched {

std::string_view to_string(Code code) noexcept {
  switch (code) {
    case Code::Success:
      return "Success";
    case Code::Error:
      return "Error";
    case Code::Unschedulable:
      return "Unschedulable";
    case Code::UnschedulableAndUnresolvable:
      return "UnschedulableAndUnresolvable";
    case Code::Wait:
      return "Wait";
    case Code::Skip:
      return "Skip";
    case Code::Pending:
      return "Pending";
  }
  return "Unknown";
}

}  // namespace gpusched
