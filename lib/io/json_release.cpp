#include "io/json_release.hpp"

namespace gpusched::io {

void release(nlohmann::json& value) noexcept {
  // Each child is emptied before the container is cleared, so its own destructor has nothing
  // to move; clearing a map at once does not rebalance it after each member, as erasing did.
  if (auto* array = value.get_ptr<nlohmann::json::array_t*>()) {
    for (nlohmann::json& element : *array) release(element);
    array->clear();
  } else if (auto* object = value.get_ptr<nlohmann::json::object_t*>()) {
    for (auto& member : *object) release(member.second);
    object->clear();
  }
  value = nullptr;
}

}  // namespace gpusched::io
