#include "gpusched/framework/status.hpp"

#include "framework/string_pool.hpp"
#include "model/go_text.hpp"

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

std::string Status::message(const StringPool& pool) const {
  std::vector<std::string> texts;
  texts.reserve(reasons.size());
  for (StrId r : reasons) texts.push_back(pool.str(r));
  return joined(texts, ", ");
}

}  // namespace gpusched
