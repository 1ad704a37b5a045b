// The Topology Manager's device hints and policies (topology_hints.go, policy_*.go), on a
// two-socket GPU box: 4 GPUs on NUMA 0 and 4 on NUMA 1.

#include "devices/topology_manager.hpp"

#include <catch2/catch.hpp>

namespace gpusched::devices {
namespace {

const std::vector<int> kNuma = {0, 1};
constexpr NumaMask kN0 = 0b01;
constexpr NumaMask kN1 = 0b10;
constexpr NumaMask kBoth = 0b11;

/// 4 devices per NUMA node, `free0` / `free1` of them still free, and a request.
ResourceDemand demand(int free0, int free1, int request) {
  ResourceDemand out;
  out.all_numa = {0, 0, 0, 0, 1, 1, 1, 1};
  for (int i = 0; i < free0; ++i) out.available_numa.push_back(0);
  for (int i = 0; i < free1; ++i) out.available_numa.push_back(1);
  out.request = request;
  return out;
}

TEST_CASE("device hints: every NUMA set with enough free devices, the narrowest preferred",
          "[devices][topology-manager]") {
  // All free, 2 wanted: one socket is enough, so single-socket hints are preferred.
  CHECK(device_topology_hints(kNuma, demand(4, 4, 2)) ==
        std::vector<TopologyHint>{{kN0, true}, {kN1, true}, {kBoth, false}});
  // 6 wanted: only both sockets hold that many, and that is as narrow as it can ever be.
  CHECK(device_topology_hints(kNuma, demand(4, 4, 6)) == std::vector<TopologyHint>{{kBoth, true}});
  // Socket 0 has one free GPU left: it is no hint on its own.
  CHECK(device_topology_hints(kNuma, demand(1, 4, 2)) ==
        std::vector<TopologyHint>{{kN1, true}, {kBoth, false}});
  // One free on each: only both sockets together, and not preferred (one socket could hold 2
  // if it were empty).
  CHECK(device_topology_hints(kNuma, demand(1, 1, 2)) == std::vector<TopologyHint>{{kBoth, false}});
  // Not enough anywhere: no hint at all.
  CHECK(device_topology_hints(kNuma, demand(1, 0, 2)).empty());
}

TEST_CASE("policies merge the hints and decide admission", "[devices][topology-manager]") {
  const auto fits_one_socket = device_topology_hints(kNuma, demand(4, 4, 2));
  const auto spans_sockets = device_topology_hints(kNuma, demand(1, 1, 2));
  const auto needs_both = device_topology_hints(kNuma, demand(4, 4, 6));

  // none: no alignment, always admitted.
  const auto none = merge_hints("none", kNuma, {spans_sockets});
  CHECK(none.admit);
  CHECK_FALSE(none.hint.affinity.has_value());

  // best-effort: the narrowest preferred hint, the lowest NUMA node on a tie; always admitted.
  CHECK(merge_hints("best-effort", kNuma, {fits_one_socket}).hint == TopologyHint{kN0, true});
  const auto best_effort = merge_hints("best-effort", kNuma, {spans_sockets});
  CHECK(best_effort.admit);
  CHECK(best_effort.hint == TopologyHint{kBoth, false});

  // restricted: admitted only with a preferred hint.
  CHECK(merge_hints("restricted", kNuma, {fits_one_socket}).admit);
  CHECK(merge_hints("restricted", kNuma, {needs_both}).admit);
  CHECK_FALSE(merge_hints("restricted", kNuma, {spans_sockets}).admit);

  // single-numa-node: a request that needs both sockets is rejected even when it fits.
  const auto single = merge_hints("single-numa-node", kNuma, {fits_one_socket});
  CHECK(single.admit);
  CHECK(single.hint == TopologyHint{kN0, true});
  CHECK_FALSE(merge_hints("single-numa-node", kNuma, {needs_both}).admit);
  CHECK_FALSE(merge_hints("single-numa-node", kNuma, {spans_sockets}).admit);

  // A resource with no possible affinity makes the merge non-preferred.
  CHECK_FALSE(merge_hints("restricted", kNuma, {fits_one_socket, {}}).admit);
}

TEST_CASE("two resources merge to the NUMA nodes both can use", "[devices][topology-manager]") {
  // GPUs fit on either socket; another device resource only on socket 1.
  const auto gpus = device_topology_hints(kNuma, demand(4, 4, 1));
  ResourceDemand nics;
  nics.all_numa = {1, 1};
  nics.available_numa = {1, 1};
  nics.request = 1;
  const auto merged =
      merge_hints("single-numa-node", kNuma, {gpus, device_topology_hints(kNuma, nics)});
  CHECK(merged.admit);
  CHECK(merged.hint == TopologyHint{kN1, true});
}

}  // namespace
}  // namespace gpusched::devices
