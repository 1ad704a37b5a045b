#pragma once
// Consumable capacity (KEP-5075; structured/internal/incubating/consumable_capacity.go,
// v0.36.2): what one allocation of a device that allows several consumes of each capacity, after
// the capacity's request policy rounds the request up, and whether it still fits.

#include <optional>

#include "dra/allocator.hpp"

namespace gpusched::dra {

/// CmpRequestOverCapacity: whether `requests` fits on a device with `capacity` next to what is
/// allocated (`consumed`) and what this search is allocating (`allocating`, may be null).
/// nullopt is the error upstream returns when a request names a capacity the device lacks
/// ("some requested capacity has not been defined"): the caller skips the device.
[[nodiscard]] std::optional<bool> request_fits_capacity(
    const ConsumedCapacity& consumed, const std::optional<CapacityRequests>& requests,
    const CapacityMap& capacity, const ConsumedCapacity* allocating);

/// GetConsumedCapacityFromRequest: the amount of each capacity one allocation consumes.
[[nodiscard]] ConsumedCapacity consumed_capacity_from_request(
    const std::optional<CapacityRequests>& requests, const CapacityMap& capacity);

}  // namespace gpusched::dra
