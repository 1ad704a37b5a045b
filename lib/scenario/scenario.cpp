#include "gpusched/scenario/scenario.hpp"

#include <string>

namespace gpusched {

std::string pool_node_name(const NodePool& pool, std::int32_t index) {
  return pool.name + "-" + std::to_string(index);
}

}  // namespace gpusched
