#pragma once
// MIG (Multi-Instance GPU) as NVIDIA mig-parted and the device plugin see it: profile names
// (mig-parted pkg/types/mig_profile.go), the profiles each product offers and the built-in
// configs (mig-parted deployments/systemd/config-default.yaml), the layout a node's
// nvidia.com/mig.config label gives each of its GPUs, and the resource a MIG device is
// advertised under (k8s-device-plugin internal/rm/rm.go).

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/device_plugin_config.hpp"

namespace gpusched::devices {

/// A MIG profile: a GPU instance of `gpu_slices` compute slices (G) and `memory_gb`, holding a
/// compute instance of `compute_slices` (C; C < G only when written "<c>c.<g>g.<gb>gb"), with
/// the media engines when `media_extensions` ("+me").
struct MigProfile {
  int compute_slices = 0;
  int gpu_slices = 0;
  int memory_gb = 0;
  bool media_extensions = false;
  friend bool operator==(const MigProfile&, const MigProfile&) = default;

  /// mig-parted's MigProfile.String(): "1g.10gb", "1c.2g.20gb", "1g.10gb+me".
  [[nodiscard]] std::string name() const;
};

/// mig-parted's ParseMigProfile: "<g>g.<gb>gb" or "<c>c.<g>g.<gb>gb", optionally "+me". The
/// format only; whether a product has the profile is resolve_mig_layout's business. nullopt with
/// `error` in mig-parted's words.
[[nodiscard]] std::optional<MigProfile> parse_mig_profile(std::string_view text,
                                                          std::string* error);

/// The resource a MIG device of `profile` is advertised under with migStrategy mixed:
/// "nvidia.com/" + strings.ReplaceAll("mig-"+profile, "+", "."), e.g. "1g.10gb+me" ->
/// "nvidia.com/mig-1g.10gb.me" (AddDefaultResourcesToConfig).
[[nodiscard]] std::string mig_resource_name(std::string_view profile);

/// Whether migStrategy mixed registers a resource for the profile: only when compute slices
/// equal GPU slices (`info.C != info.G` is skipped), so "1c.2g.20gb" never is one.
[[nodiscard]] bool registers_mig_resource(const MigProfile& profile) noexcept;

/// A GPU-instance profile of a product, as config-default.yaml's all-<profile> lays it out.
struct MigProfileSpec {
  std::string_view name;  ///< "1g.10gb", "1g.10gb+me"
  int gpu_slices = 0;     ///< compute slices it takes, of 7
  int memory_slices = 0;  ///< memory slices it takes, of 8
  int max_count = 0;      ///< most per GPU: the count in all-<profile>
};

/// One profile and how many of it.
struct MigCount {
  std::string_view profile;
  int count = 0;
};

/// The MIG geometry a family of products shares.
struct MigProduct {
  std::string_view name;  ///< "A100-40GB", "A100-80GB/H100-80GB", "H200-141GB"
  std::span<const MigProfileSpec> profiles;
  std::span<const MigCount> balanced;  ///< all-balanced, in config-default.yaml's order
};

/// The MIG geometry of a GPU known by its GFD labels: `product` (nvidia.com/gpu.product, e.g.
/// "NVIDIA-A100-SXM4-80GB") and `memory_mib` (nvidia.com/gpu.memory, 0 when unknown).
/// mig-parted picks entries by PCI device ID, which GFD does not publish, so gpusched matches
/// the name instead: its tokens (split at '-', '_' and ' ', any case) must hold A100 or A800,
/// H100 or H800, or H200 (so GH200, H20 and A30 do not match); the memory in GiB comes from
/// `memory_mib` (rounded) or else from a "<n>GB" token. A100/A800 take the 40GB table up to
/// 48 GiB and the 80GB table from 72 to 88 GiB (no memory known: no table); H100/H800 take the
/// 80GB table when the memory is unknown or 72 to 88 GiB, unless a token is NVL (H100 NVL has
/// 94 GB); H200 takes the 141GB table when the memory is unknown or at least 130 GiB. nullptr:
/// gpusched knows no MIG profiles for the GPU.
[[nodiscard]] const MigProduct* find_mig_product(std::string_view product, std::int64_t memory_mib);

/// One GPU once a MIG config is applied.
struct GpuMigLayout {
  bool enabled = false;
  /// Its MIG devices in mig-parted's MigConfig.Flatten order: more GPU slices first, then more
  /// compute slices, then "+me" first; gpusched breaks the remaining ties (which Flatten leaves
  /// to an unstable sort) by more memory first.
  std::vector<MigProfile> devices;
};

/// Applies the MIG config `name` to the `gpu_count` GPUs of a node whose GFD product is
/// `product` (with memory `memory_mib`, as find_mig_product). `custom` (the scenario's
/// migConfigs) wins over the built-in configs: all-disabled, all-enabled, all-balanced and
/// all-<profile> ("+" written ".", e.g. all-1g.10gb.me) with the profile's maximum count. Entries
/// apply in order (a later one wins for a GPU both name, as mig-parted walks them), and indices
/// the node lacks are skipped, as mig-parted's MatchesDevices does. nullopt with `error` for an
/// unknown name ("selected mig-config not present: x", mig-parted's text) or a GPU the layout
/// does not fit: a profile the product lacks, more of a profile than fit, more than 7 compute
/// or 8 memory slices (gpusched's sum check standing in for NVML's placement rules), each
/// naming the GPU and profile.
[[nodiscard]] std::optional<std::vector<GpuMigLayout>> resolve_mig_layout(
    std::string_view name, const std::map<std::string, MigConfig>& custom, std::string_view product,
    std::int64_t memory_mib, int gpu_count, std::string* error);

}  // namespace gpusched::devices
