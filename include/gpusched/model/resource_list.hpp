#pragma once
/// Resource names and lists (core/v1 ResourceList).

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/quantity.hpp"

namespace gpusched {

/// name -> quantity, ordered by name so that every report is deterministic.
using ResourceList = std::map<std::string, Quantity, std::less<>>;

namespace resource {
inline constexpr std::string_view kCpu = "cpu";
inline constexpr std::string_view kMemory = "memory";
inline constexpr std::string_view kEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kPods = "pods";
/// The kubelet's --max-pods default: the "pods" a node advertises unless configured.
inline constexpr std::int64_t kDefaultMaxPods = 110;
inline constexpr std::string_view kGpu = "nvidia.com/gpu";

/// cpu, memory, ephemeral-storage, pods, hugepages-*: resources the API server treats as
/// native (v1helper.IsNativeResource: no domain, or the kubernetes.io domain).
[[nodiscard]] bool is_native(std::string_view name) noexcept;
/// hugepages-<size> (v1helper.IsHugePageResourceName).
[[nodiscard]] bool is_hugepages(std::string_view name) noexcept;
/// Extended resources: fully qualified, outside kubernetes.io, not requests.*
/// (IsExtendedResourceName).
[[nodiscard]] bool is_extended(std::string_view name) noexcept;
/// Scalar resources as the scheduler sees them: extended, hugepages, attachable volumes.
[[nodiscard]] bool is_scalar(std::string_view name) noexcept;
/// Values that must be whole numbers (IsIntegerResourceName: extended and hugepages... counts).
[[nodiscard]] bool is_integer_resource(std::string_view name) noexcept;
/// Resources that may be overcommitted: native ones except hugepages (IsOvercommitAllowed).
[[nodiscard]] bool is_overcommit_allowed(std::string_view name) noexcept;
/// The format canonical output uses for a sum of this resource when none is known:
/// BinarySI for memory-like resources, DecimalSI otherwise.
[[nodiscard]] QuantityFormat default_format(std::string_view name) noexcept;
/// validation.IsQualifiedName: `[prefix/]name` with a DNS-1123 subdomain prefix; returns the
/// API server's messages ("name part must be non-empty", ...), empty when valid.
[[nodiscard]] std::vector<std::string> qualified_name_errors(std::string_view value);
}  // namespace resource

/// Adds `q` to `list[name]` (Quantity.Add semantics, saturating).
void add_to(ResourceList& list, std::string_view name, const Quantity& q);

}  // namespace gpusched
