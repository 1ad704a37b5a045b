#include "gpusched/devices/template_gpus.hpp"

#include <string>

#include "devices/node_devices.hpp"
#include "gpusched/model/well_known.hpp"

namespace gpusched {

std::int64_t template_gpus(const NodePool& pool, const devices::DevicePluginSettings& plugin) {
  std::string error;
  if (auto derived = devices::derive_node_devices(pool.node, plugin, &error))
    return static_cast<std::int64_t>(derived->gpus.size());
  for (const ResourceList* stated : {&pool.node.capacity, &pool.node.allocatable}) {
    if (auto gpus = stated->find(resource::kGpu); gpus != stated->end())
      return gpus->second.value();
  }
  return 0;
}

}  // namespace gpusched
