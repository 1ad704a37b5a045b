#pragma once
/// The NVIDIA device plugin's configuration (api/config/v1: config.go, flags.go, sharing.go,
/// replicas.go) and mig-parted layouts, as a scenario's top-level `devicePlugin` and
/// `migConfigs` hold them (scenario-format.md §3).

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpusched::devices {

/// sharing.timeSlicing / sharing.mps resources[]: one resource name and its replicas (>= 2).
struct ReplicatedResource {
  std::string name;  ///< "nvidia.com/gpu" or a MIG resource such as "nvidia.com/mig-1g.10gb"
  int replicas = 2;
};

enum class SharingStrategy { None, TimeSlicing, Mps };

/// One named config (`version: v1`). Only what changes what a node advertises or what a pod
/// gets is kept; DisableResourceNamingInConfig makes `rename` and `devices` inert upstream.
struct DevicePluginConfig {
  std::string mig_strategy = "none";        ///< flags.migStrategy: none, single, mixed
  std::string device_id_strategy = "uuid";  ///< flags.plugin.deviceIDStrategy: uuid, index
  /// flags.plugin.sharedDevicesAllocationPolicy: distributed (default), packed.
  std::string shared_allocation_policy = "distributed";
  SharingStrategy sharing = SharingStrategy::None;  ///< Sharing.SharingStrategy()
  bool rename_by_default = false;
  /// Resolved: unset means false for time-slicing and true for MPS (NewConfig).
  bool fail_requests_greater_than_one = false;
  std::vector<ReplicatedResource> resources;
};

/// One mig-parted `mig-configs` entry: which GPUs (all, or indices), MIG on or off, and the MIG
/// devices each of them gets ("1g.10gb": 2).
struct MigConfigEntry {
  std::optional<std::vector<int>> devices;  ///< nullopt: "all"
  bool enabled = false;
  std::map<std::string, int> mig_devices;
};
using MigConfig = std::vector<MigConfigEntry>;

/// Everything a scenario sets for the GPU Operator's per-node choice.
struct DevicePluginSettings {
  std::string default_config;  ///< used when a node has no nvidia.com/device-plugin.config label
  std::map<std::string, DevicePluginConfig> configs;
  std::map<std::string, MigConfig> mig_configs;  ///< custom layouts, beside the built-in ones
};

}  // namespace gpusched::devices
