#include <string>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched {

std::string pool_node_name(const NodePool& pool, std::int32_t index) {
  return pool.name + "-" + std::to_string(index);
}

}  // namespace gpusched
