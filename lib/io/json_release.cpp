#include "io/json_release.hpp"

#include <iterator>

namespace gpusched::io {

void release(nlohmann::json& value) noexcept {
  // Each child is emptied before it is removed, so its own destructor has nothing to move.
  if (auto* array = value.get_ptr<nlohmann::json::array_t*>()) {
    while (!array->empty()) {
      release(array->back());
      array->pop_back();
    }
  } else if (auto* object = value.get_ptr<nlohmann::json::object_t*>()) {
    while (!object->empty()) {
      auto last = std::prev(object->end());
      release(last->second);
      object->erase(last);
    }
  }
  value = nullptr;
}

}  // namespace gpusched::io
