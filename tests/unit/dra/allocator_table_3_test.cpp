// Upstream's allocator test table, part 3: the cases of
// k8s.io/dynamic-resource-allocation v0.36.2
// structured/internal/allocatortesting/allocator_testing.go whose opening line lies between
// lines 4978 and 7088 of that file (71 cases), in the file's order, transcribed one to one.

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "unit/dra/allocator_testing.hpp"

using namespace dra_testing;

namespace {

// The local variables of TestAllocator (allocator_testing.go, lines 927-931) the cases of this
// part use.
const std::string boolAttribute = driverA + "/" + "boolAttribute";
const std::string stringAttribute = driverA + "/" + "stringAttribute";
const std::string versionAttribute = driverA + "/" + "driverVersion";
const std::string intAttribute = driverA + "/" + "numa";

// Cases of this part whose input gpusched's model types cannot express.
const std::vector<NotApplicable> kNotApplicable = {
    {"with-distinct-constraints-unknown-type-attribute",
     "a DeviceAttribute with no value set ({}): gpusched's DeviceAttribute always holds one"},
    {"list-attributes-match-constaint-list-of-string-values-with-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-list-of-string-values-with-partially-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-list-of-string-values-without-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-with-partially-"
     "common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-mixed-scalar-and-list-of-string-values-without-common-"
     "elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-list-of-int-values-with-common-elements",
     "list-typed attribute (IntValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-list-of-bool-values-with-common-elements",
     "list-typed attribute (BoolValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-list-of-version-values-with-common-elements",
     "list-typed attribute (VersionValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-match-constaint-with-empty-or-unknown-type",
     "a DeviceAttribute with no value set and an empty StringValues list: not modelled"},
    {"list-attributes-disabled-match-constraint-with-lists",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-list-of-string-values-all-distinct",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-list-of-string-values-with-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-mixed-scalar-and-list-all-distinct",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-mixed-scalar-and-list-with-common-elements",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-list-of-int-values-all-distinct",
     "list-typed attribute (IntValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-list-of-bool-values-all-distinct",
     "list-typed attribute (BoolValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constraint-list-of-version-values-all-distinct",
     "list-typed attribute (VersionValues, DRAListTypeAttributes): not modelled"},
    {"list-attributes-distinct-constaint-with-empty-or-unknown-type",
     "an empty VersionValues list and a DeviceAttribute with no value set: not modelled"},
    {"list-attributes-disabled-distinct-constraint-with-lists",
     "list-typed attribute (StringValues, DRAListTypeAttributes): not modelled"},
};

}  // namespace

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-"
    "remaining",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(two))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, two}}}},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, four}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-"
    "device",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(two))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, two}}}},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}),
              device(device2, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE("allocator table: consumable-capacity-with-multi-allocatable-device-backtrack",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-with-multi-allocatable-device-backtrack",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate =
              {
                  // 2 requests with two per each
                  claim(claim0)
                      .with_constraints(match_attribute({}, stringAttribute))
                      .with_requests(device_request(req0, classA, 1).with_capacity_request(two),
                                     device_request(req1, classA, 1).with_capacity_request(two)),
                  claim(claim1).with_requests(
                      device_request(req0, classA, 1).with_capacity_request(two)),
              },
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device2, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("stringAttributeValue1")}})
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}),
              device(device1, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("stringAttributeValue2")}})
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, four}}))},
          .node = node(node1, region1),
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}),
                      device_request_allocation_result(req1, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device2)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
              },
      });
}

TEST_CASE("allocator table: consumable-capacity-multi-allocatable-device-with-subrequest",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-subrequest",
      AllocatorTestCase{
          .features = {.consumable_capacity = true, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classA, 1).with_capacity_request(four),
              sub_request(subReq1, classA, 1).with_capacity_request(two),
              sub_request(subReq1, classA, 1)))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0SubReq1, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-with-no-available-consumable-"
    "capacity",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(two))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, two}}}},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-"
    "no-capacity",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              all_device_request(req0, classA).with_capacity_request(two))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations(),
              device(device2, std::nullopt).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          // only match device is allocated
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-"
    "insufficient-capacity",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-"
      "capacity",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              all_device_request(req0, classA).with_capacity_request(two))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          // only match device is allocated
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-"
    "sufficient",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one),
              all_device_request(req1, classA).with_capacity_request(one))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}),
              device_request_allocation_result(req1, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}),
              device_request_allocation_result(req1, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-"
    "sufficient",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              all_device_request(req0, classA).with_capacity_request(one))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, one}}}},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}),
              device_request_allocation_result(req0, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-"
    "insufficient",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one),
              all_device_request(req1, classA).with_capacity_request(one))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, one}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-"
    "insufficient",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              all_device_request(req0, classA).with_capacity_request(one))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, one}}}},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, one}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}}))},
      });
}

TEST_CASE("allocator table: consumable-capacity-dedicated-device-with-consumable-capacity-request",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-dedicated-device-with-consumable-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, false)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, Quantities{{capacity0, one}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-dedicated-device-with-multiple-consumable-capacity-"
    "request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate =
              {
                  claim(claim0).with_requests(
                      device_request(req0, classA, 1).with_capacity_request(one)),
                  claim(claim1).with_requests(
                      device_request(req0, classA, 1).with_capacity_request(one)),
              },
          .classes = {class_with_allow_multiple_allocations(classA, driverA, false)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: allow-multiple-allocations-exclude-multi-allocatable-device-by-class-"
    "selector",
    "[dra][allocator][table]") {
  run_allocator_test(
      "allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, false)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: allow-multiple-allocations-not-allocate-multi-allocatable-device-which-"
    "already-dedicated",
    "[dra][allocator][table]") {
  run_allocator_test(
      "allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .allocated_devices = {make_device_id(driverA, pool1, device1)},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-"
    "multi-allocatable",
    "[dra][allocator][table]") {
  run_allocator_test(
      "allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-"
      "allocatable",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, one}}}},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: allow-multiple-allocations-with-partitionable-device",
          "[dra][allocator][table]") {
  run_allocator_test(
      "allow-multiple-allocations-with-partitionable-device",
      AllocatorTestCase{
          .features = {.consumable_capacity = true,
                       .partitionable_devices = true,
                       .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1),
              request_with_prioritized_list(
                  req1,
                  sub_request(
                      subReq0, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0)")),
                  sub_request(
                      subReq1, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0)"))))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("4Gi")}}))
                          .with_allow_multiple_allocations(),
                      device(device2, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("6Gi")}}))
                          .with_allow_multiple_allocations(),
                      device(device3, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("4Gi")}}))
                          .with_allow_multiple_allocations()),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                          counter_set(counterSet1, {{"memory", q("8Gi")}})),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{"memory", q("4Gi")}}),
              device_request_allocation_result(req1SubReq1, driverA, pool1, device3)
                  .with_consumed_capacity(fixedShareID, Quantities{{"memory", q("4Gi")}}))},
      });
}

TEST_CASE("allocator table: allow-multiple-allocations-with-shared-device-counter-cross-cycle",
          "[dra][allocator][table]") {
  run_allocator_test(
      "allow-multiple-allocations-with-shared-device-counter-cross-cycle",
      AllocatorTestCase{
          .features = {.consumable_capacity = true, .partitionable_devices = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1)
                  .with_capacity_request(one)
                  .with_selectors(selector(R"(device.attributes["driver-a"].mode == "b")")))},
          .allocated_shared_device_ids = {SharedDeviceId{make_device_id(driverA, pool1, device1),
                                                         fixedShareID}},
          .allocated_capacity_devices = {{make_device_id(driverA, pool1, device1),
                                          {{capacity0, one}}}},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, fromCounters, Attributes{{"mode", string_attr("a")}})
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{capacity0, one}}))
                          .with_allow_multiple_allocations(),
                      device(device2, fromCounters, Attributes{{"mode", string_attr("b")}})
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{capacity0, one}}))
                          .with_allow_multiple_allocations()),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                          counter_set(counterSet1, {{capacity0, one}})),
              },
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: consumable-capacity-with-partitionable-device-multiple-capacity-pools",
          "[dra][allocator][table]") {
  // This test case combines integration of PrioritizedList, PartitionableDevices, and
  // ConsumableCapacity features.
  run_allocator_test(
      "consumable-capacity-with-partitionable-device-multiple-capacity-pools",
      AllocatorTestCase{
          .features = {.consumable_capacity = true,
                       .partitionable_devices = true,
                       .prioritized_list = true},
          // There are two basic requests (req0 and req2), requesting 1 and 2 units of capacity0,
          // respectively. In addition, there is one request (req1) with a prioritized list.
          // The prioritized request prefers devices with capacity0 >= 4 over those with
          // capacity0 >= 2.
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one),
              device_request(req2, classA, 1).with_capacity_request(two),
              request_with_prioritized_list(
                  req1,
                  sub_request(
                      subReq0, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"]["capacity-0"].compareTo(quantity("4")) >= 0)"))
                      .with_capacity_request(one),
                  sub_request(
                      subReq1, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"]["capacity-0"].compareTo(quantity("2")) >= 0)"))
                      .with_capacity_request(one)))},
          .classes = {device_class(classA, driverA)},
          // There three device option consuming counters from the PartitionableDevices's
          // CounterSet. All devices can be allocated multiple times with
          // `allowMultipleAllocations=true`.
          // CounterSet (4, 8)
          //   device1, device2, and device3 consume (2,4), (4,4), and (2,4) for (capacity0,
          //   capacity1) respectively.
          //   i.e., only two options are valid those are [device1, device3] or [device2].
          // Capacity.RequestPolicy of ConsumableCapacity forces the capacity1 consuming with range
          // policy (min,step,max)=(2,2,4).
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{capacity0, two}}),
                              device_counter_consumption(counterSet2, {{capacity1, four}}))
                          .with_allow_multiple_allocations()
                          .with_capacity_request_policy_range(Quantities{{capacity1, four}}),
                      device(device2, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{capacity0, four}}),
                              device_counter_consumption(counterSet2, {{capacity1, four}}))
                          .with_allow_multiple_allocations()
                          .with_capacity_request_policy_range(Quantities{{capacity1, four}}),
                      device(device3, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{capacity0, two}}),
                              device_counter_consumption(counterSet2, {{capacity1, four}}))
                          .with_allow_multiple_allocations()
                          .with_capacity_request_policy_range(Quantities{{capacity1, four}})),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                          counter_set(counterSet1, {{capacity0, four}}),
                                          counter_set(counterSet2, {{capacity1, q("8")}})),
              },
          .node = node(node1, region1),
          // Expected results:
          //   - [req0] The scheduler should be able to allocate device1 to req0.
          //     1 unit of capacity0 is consumed according to the requested capacity, and 2 units
          //     of capacity1 are consumed according to the RequestPolicy.
          //   - [req2] device1 does not have enough capacity0 remaining for req2, which requests 2
          //     units (only 1 unit remains).
          //     The scheduler must also skip device2 due to the CounterSet constraint.
          //     Therefore, device3 is allocated to req2, providing 2 units of capacity0 and 2
          //     units of capacity1.
          //   - [req1] The first prioritized subrequest of req1 cannot find a device because
          //     device2 cannot be selected.
          //     The second prioritized subrequest is then chosen and consumes the remaining 1 unit
          //     of capacity0 on device1.
          //     Consequently, device1 is allocated to subreq1 of req1 with 1 unit of capacity0 and
          //     2 units of capacity1.
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID,
                                          Quantities{{capacity0, one}, {capacity1, two}}),
              device_request_allocation_result(req2, driverA, pool1, device3)
                  .with_consumed_capacity(fixedShareID,
                                          Quantities{{capacity0, two}, {capacity1, two}}),
              device_request_allocation_result(req1SubReq1, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID,
                                          Quantities{{capacity0, one}, {capacity1, two}}))},
      });
}

TEST_CASE("allocator table: with-distinct-constraints", "[dra][allocator][table]") {
  run_allocator_test(
      "with-distinct-constraints",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0)
                                     .with_constraints(
                                         distinct_attribute({req0, req1}, boolAttribute),
                                         distinct_attribute({req0, req1, req2}, versionAttribute),
                                         distinct_attribute({req0, req1, req2, req3}, intAttribute))
                                     .with_requests(device_request(req0, classA, 1),
                                                    device_request(req1, classA, 1),
                                                    device_request(req2, classA, 1),
                                                    device_request(req3, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt,
                                               Attributes{
                                                   {"driverVersion", version_attr("1.0.0")},
                                                   {"numa", int_attr(0)},
                                                   {"boolAttribute", bool_attr(true)},
                                               })
                                            .with_allow_multiple_allocations(),
                                        device(device2, std::nullopt,
                                               Attributes{
                                                   {"driverVersion", version_attr("1.0.1")},
                                                   {"numa", int_attr(1)},
                                                   {"boolAttribute", bool_attr(false)},
                                               })
                                            .with_allow_multiple_allocations(),
                                        device(device3, std::nullopt,
                                               Attributes{
                                                   {"driverVersion", version_attr("1.0.2")},
                                                   {"numa", int_attr(2)},
                                                   {"boolAttribute", bool_attr(true)},
                                               })
                                            .with_allow_multiple_allocations(),
                                        device(device4, std::nullopt,
                                               Attributes{
                                                   {"driverVersion", version_attr("1.0.0")},
                                                   {"numa", int_attr(3)},
                                                   {"boolAttribute", bool_attr(true)},
                                               })
                                            .with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, {}),
              device_request_allocation_result(req1, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, {}),
              device_request_allocation_result(req2, driverA, pool1, device3)
                  .with_consumed_capacity(fixedShareID, {}),
              device_request_allocation_result(req3, driverA, pool1, device4)
                  .with_consumed_capacity(fixedShareID, {}))},
      });
}

TEST_CASE("allocator table: with-distinct-constraints-attribute-not-set",
          "[dra][allocator][table]") {
  run_allocator_test(
      "with-distinct-constraints-attribute-not-set",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0)
                                     .with_constraints(distinct_attribute({req0}, boolAttribute))
                                     .with_requests(device_request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: with-distinct-constraints-with-subrequests",
          "[dra][allocator][table]") {
  run_allocator_test(
      "with-distinct-constraints-with-subrequests",
      AllocatorTestCase{
          .features = {.consumable_capacity = true, .prioritized_list = true},
          // There are three requests, all preferring the boolAttribute.
          // However, the DeviceConstraint applies only to the first two requests.
          .claims_to_allocate =
              {claim(claim0)
                   .with_constraints(distinct_attribute({req0, req1}, boolAttribute))
                   .with_requests(
                       request_with_prioritized_list(
                           req0,
                           sub_request(subReq0, classA, 1,
                                       selector(R"(device.attributes["driver-a"].boolAttribute)")),
                           sub_request(subReq1, classA, 1)),
                       request_with_prioritized_list(
                           req1,
                           sub_request(subReq0, classA, 1,
                                       selector(R"(device.attributes["driver-a"].boolAttribute)")),
                           sub_request(subReq1, classA, 1)),
                       request_with_prioritized_list(
                           req2,
                           sub_request(subReq0, classA, 1,
                                       selector(R"(device.attributes["driver-a"].boolAttribute)")),
                           sub_request(subReq1, classA, 1)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"boolAttribute", bool_attr(true)}})
                  .with_allow_multiple_allocations(),
              device(device2, std::nullopt, Attributes{{"boolAttribute", bool_attr(false)}})
                  .with_allow_multiple_allocations())},
          .node = node(node1, region1),
          // Because the constraint applies only to req0 and req1,
          // subreq0 cannot satisfy req1, so device2 (subreq1) is allocated instead.
          // However, req2 has no such constraint and can use device1 (subreq0).
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0SubReq0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, {}),
              device_request_allocation_result(req1SubReq1, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, {}),
              device_request_allocation_result(req2SubReq0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, {}))},
      });
}

TEST_CASE(
    "allocator table: distinct-constraint-one-multi-allocatable-device-with-distinct-constraint",
    "[dra][allocator][table]") {
  run_allocator_test(
      "distinct-constraint-one-multi-allocatable-device-with-distinct-constraint",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate =
              {claim(claim0)
                   .with_constraints(distinct_attribute({}, stringAttribute))
                   .with_requests(device_request(req0, classA, 1).with_capacity_request(one),
                                  device_request(req1, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("stringAttributeValue")}})
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, two}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint",
    "[dra][allocator][table]") {
  run_allocator_test(
      "distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate =
              {claim(claim0)
                   .with_constraints(distinct_attribute({}, stringAttribute))
                   .with_requests(device_request(req0, classA, 1).with_capacity_request(two),
                                  device_request(req1, classA, 1).with_capacity_request(two))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, std::nullopt,
                             Attributes{{"stringAttribute", string_attr("stringAttributeValue1")}})
                          .with_allow_multiple_allocations()
                          .with_capacity_request_policy_range(Quantities{{capacity0, four}})),
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device2, std::nullopt,
                             Attributes{{"stringAttribute", string_attr("stringAttributeValue2")}})
                          .with_allow_multiple_allocations()
                          .with_capacity_request_policy_range(Quantities{{capacity0, four}})),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}),
              device_request_allocation_result(req1, driverA, pool1, device2)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

// Test cases for DRAListTypeAttributes features (matchAttributes/distinctAttributes). Only those
// whose attributes are all scalar are transcribed; the others are in kNotApplicable.

TEST_CASE("allocator table: list-attributes-match-constaint-scalar-string-values",
          "[dra][allocator][table]") {
  run_allocator_test(
      "list-attributes-match-constaint-scalar-string-values",
      AllocatorTestCase{
          .features = {.list_type_attributes = true},
          .claims_to_allocate = {claim_with_requests(claim0, {match_attribute({}, stringAttribute)},
                                                     request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"stringAttribute", string_attr("value1")}}),
              device(device2, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("value1")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req0, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: list-attributes-distinct-constraint-scalar-string-values-all-distinct",
          "[dra][allocator][table]") {
  run_allocator_test(
      "list-attributes-distinct-constraint-scalar-string-values-all-distinct",
      AllocatorTestCase{
          .features = {.consumable_capacity = true, .list_type_attributes = true},
          .claims_to_allocate = {claim_with_requests(
              claim0, {distinct_attribute({}, stringAttribute)}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"stringAttribute", string_attr("value1")}}),
              device(device2, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("value2")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req0, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: list-attributes-distinct-constraint-scalar-string-values-not-distinct",
          "[dra][allocator][table]") {
  run_allocator_test(
      "list-attributes-distinct-constraint-scalar-string-values-not-distinct",
      AllocatorTestCase{
          .features = {.consumable_capacity = true, .list_type_attributes = true},
          .claims_to_allocate = {claim_with_requests(
              claim0, {distinct_attribute({}, stringAttribute)}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"stringAttribute", string_attr("value1")}}),
              device(device2, std::nullopt,
                     Attributes{{"stringAttribute", string_attr("value1")}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: allocation-mode-all-with-multi-host-resource-pool",
          "[dra][allocator][table]") {
  run_allocator_test("allocation-mode-all-with-multi-host-resource-pool",
                     AllocatorTestCase{
                         .claims_to_allocate = {claim_with_requests(
                             claim0, {},
                             [] {
                               DeviceRequest r;
                               r.name = req0;
                               r.exactly = ExactDeviceRequest{};
                               r.exactly->allocation_mode = AllocationMode::All;
                               r.exactly->device_class_name = classA;
                               r.exactly->count = 0;  // unset in the Go literal
                               return r;
                             }())},
                         .classes = {device_class(classA, driverA)},
                         .slices =
                             {
                                 slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                                    device(device1, std::nullopt)),
                                 slice_with_devices(slice2, node2, resource_pool(pool1, 2), driverA,
                                                    device(device2, std::nullopt)),
                             },
                         .node = node(node1, region1),
                         .expect_results = {allocation_result(
                             local_node_selector(node1),
                             device_allocation_result(req0, driverA, pool1, device1, false))},
                     });
}

TEST_CASE("allocator table: multi-host-resource-pool-with-stale-slice-for-current-node",
          "[dra][allocator][table]") {
  run_allocator_test("multi-host-resource-pool-with-stale-slice-for-current-node",
                     AllocatorTestCase{
                         .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {
                             [] {
                               ResourceSlice s = slice_with_devices(slice1, node1, pool1, driverA,
                                                                    device(device1, std::nullopt));
                               s.pool.generation = 1;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             [] {
                               ResourceSlice s = slice_with_devices(slice2, node2, pool1, driverA,
                                                                    device(device2, std::nullopt));
                               s.pool.generation = 2;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                         },
                         .node = node(node1, region1),
                     });
}

// update-from-node-1-to-node-2 and vice-versa is dangerous,
// DRA drivers should not do this: there is no guarantee that
// the scheduler sees the change and then might allocate a
// device for a node where it is no longer available.
//
// We do not have to support such a change exactly as expected
// by these test cases if it makes the implementation too
// expensive because of additional checks.
//
// The support for allocation from incomplete pools is also under
// debate. It's currently done because without scoring it makes
// no difference how many slices are available, as long as one
// device can be found.

TEST_CASE("allocator table: multi-host-resource-pool-complete-update-from-node-1-to-node-2",
          "[dra][allocator][table]") {
  run_allocator_test(
      "multi-host-resource-pool-complete-update-from-node-1-to-node-2",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {
              // Node 1, generation 1.
              [] {
                ResourceSlice s = slice_with_devices(slice1, node1, pool1, driverA,
                                                     device(device1, std::nullopt));
                s.pool.generation = 1;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
              [] {
                ResourceSlice s = slice_with_devices(slice1, node1, pool1, driverA,
                                                     device(device2, std::nullopt));
                s.pool.generation = 1;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
              // Node 2, generation 2.
              [] {
                ResourceSlice s = slice_with_devices(slice2, node2, pool1, driverA,
                                                     device(device1, std::nullopt));
                s.pool.generation = 2;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
              [] {
                ResourceSlice s = slice_with_devices(slice2, node2, pool1, driverA,
                                                     device(device2, std::nullopt));
                s.pool.generation = 2;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
          },
          .node = node(node1, region1),
          // We'd like this to *not* be allocated, but the current implementation ignores
          // the updated slices. Allocating from the old pool is also what would happen
          // if the scheduler hadn't received the update yet, so DRA drivers shouldn't
          // depend on better handling of this situation.
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: multi-host-resource-pool-complete-update-from-node-2-to-node-1",
          "[dra][allocator][table]") {
  run_allocator_test("multi-host-resource-pool-complete-update-from-node-2-to-node-1",
                     AllocatorTestCase{
                         .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {
                             // Node 2, generation 1.
                             [] {
                               ResourceSlice s = slice_with_devices(slice1, node2, pool1, driverA,
                                                                    device(device1, std::nullopt));
                               s.pool.generation = 1;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             [] {
                               ResourceSlice s = slice_with_devices(slice1, node2, pool1, driverA,
                                                                    device(device2, std::nullopt));
                               s.pool.generation = 1;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             // Node 1, generation 2.
                             [] {
                               ResourceSlice s = slice_with_devices(slice2, node1, pool1, driverA,
                                                                    device(device1, std::nullopt));
                               s.pool.generation = 2;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             [] {
                               ResourceSlice s = slice_with_devices(slice2, node1, pool1, driverA,
                                                                    device(device2, std::nullopt));
                               s.pool.generation = 2;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                         },
                         .node = node(node1, region1),
                         .expect_results = {allocation_result(
                             local_node_selector(node1),
                             device_allocation_result(req0, driverA, pool1, device1, false))},
                     });
}

TEST_CASE("allocator table: multi-host-resource-pool-incomplete-update-from-node-1-to-node-2",
          "[dra][allocator][table]") {
  run_allocator_test(
      "multi-host-resource-pool-incomplete-update-from-node-1-to-node-2",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {
              // Node 1, generation 1.
              [] {
                ResourceSlice s = slice_with_devices(slice1, node1, pool1, driverA,
                                                     device(device1, std::nullopt));
                s.pool.generation = 1;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
              [] {
                ResourceSlice s = slice_with_devices(slice1, node1, pool1, driverA,
                                                     device(device2, std::nullopt));
                s.pool.generation = 1;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
              // Node 2, generation 2.
              [] {
                ResourceSlice s = slice_with_devices(slice2, node2, pool1, driverA,
                                                     device(device1, std::nullopt));
                s.pool.generation = 2;
                s.pool.resource_slice_count = 2;
                return s;
              }(),
          },
          .node = node(node1, region1),
          // We'd like this to *not* be allocated, but the current implementation ignores
          // the updated slices. Allocating from the old pool is also what would happen
          // if the scheduler hadn't received the update yet, so DRA drivers shouldn't
          // depend on better handling of this situation.
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: multi-host-resource-pool-incomplete-update-from-node-2-to-node-1",
          "[dra][allocator][table]") {
  run_allocator_test("multi-host-resource-pool-incomplete-update-from-node-2-to-node-1",
                     AllocatorTestCase{
                         .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {
                             // Node 2, generation 1.
                             [] {
                               ResourceSlice s = slice_with_devices(slice1, node2, pool1, driverA,
                                                                    device(device1, std::nullopt));
                               s.pool.generation = 1;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             [] {
                               ResourceSlice s = slice_with_devices(slice1, node2, pool1, driverA,
                                                                    device(device2, std::nullopt));
                               s.pool.generation = 1;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                             // Node 1, generation 2.
                             [] {
                               ResourceSlice s = slice_with_devices(slice2, node1, pool1, driverA,
                                                                    device(device1, std::nullopt));
                               s.pool.generation = 2;
                               s.pool.resource_slice_count = 2;
                               return s;
                             }(),
                         },
                         .node = node(node1, region1),
                         // This does not get allocated since slice2 is incomplete.
                     });
}

TEST_CASE(
    "allocator table: partitionable-devices-same-counter-set-name-in-different-resource-slices",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-same-counter-set-name-in-different-resource-slices",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 4), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 4), driverA,
                                          counter_set(counterSet1, {})),
                  slice_with_devices(slice3, node1, resource_pool(pool1, 4), driverA,
                                     device(device2, std::nullopt)),
                  slice_with_counter_sets(slice4, node1, resource_pool(pool1, 4), driverA,
                                          counter_set(counterSet1, {})),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE(
    "allocator table: partitionable-devices-device-counter-consumption-references-unknown-counter-"
    "set",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-device-counter-consumption-references-unknown-counter-set",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)
                                         .with_device_counter_consumption(
                                             device_counter_consumption(counterSet2, {}))),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                          counter_set(counterSet1, {})),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE(
    "allocator table: partitionable-devices-device-counter-consumption-references-unknown-counter-"
    "in-counter-set",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, std::nullopt)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("8Gi")}}))),
                  slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                          counter_set(counterSet1, {{"other-memory", q("8Gi")}})),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE(
    "allocator table: partitionable-devices-device-counter-consumption-references-counter-set-in-"
    "other-pool",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, pool1, driverA,
                      device(device1, std::nullopt)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("8Gi")}}))),
                  slice_with_counter_sets(slice2, node1, pool2, driverA,
                                          counter_set(counterSet1, {{"memory", q("8Gi")}})),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE(
    "allocator table: partitionable-devices-devices-on-different-nodes-consume-same-counter-set",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-devices-on-different-nodes-consume-same-counter-set",
      AllocatorTestCase{
          .features = {.partitionable_devices = true, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0,
              sub_request(
                  subReq0, classA, 1,
                  selector(
                      R"(device.capacity["driver-a"].memory.compareTo(quantity("6Gi")) >= 0)")),
              sub_request(
                  subReq1, classA, 1,
                  selector(
                      R"(device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0)"))))},
          .allocated_devices = {make_device_id(driverA, pool1, device3)},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_counter_sets(slice1, node1, resource_pool(pool1, 3), driverA,
                                          counter_set(counterSet1, {{"memory", q("8Gi")}})),
                  slice_with_devices(
                      slice2, node1, resource_pool(pool1, 3), driverA,
                      device(device1, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("6Gi")}})),
                      device(device2, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("2Gi")}}))),
                  slice_with_devices(
                      slice3, node2, resource_pool(pool1, 3), driverA,
                      device(device3, std::nullopt)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("6Gi")}}))),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-validation-error-on-non-targeting-slice",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-validation-error-on-non-targeting-slice",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_counter_sets(slice1, node1, resource_pool(pool1, 3), driverA,
                                          counter_set(counterSet1, {{"memory", q("8Gi")}})),
                  slice_with_devices(
                      slice2, node1, resource_pool(pool1, 3), driverA,
                      device(device1, fromCounters)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet1, {{"memory", q("6Gi")}}))),
                  slice_with_devices(
                      slice3, node2, resource_pool(pool1, 3), driverA,
                      device(device3, std::nullopt)
                          .with_device_counter_consumption(
                              device_counter_consumption(counterSet2, {{"memory", q("6Gi")}}))),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE("allocator table: different-resourceslices-in-pool-can-target-different-nodes",
          "[dra][allocator][table]") {
  run_allocator_test(
      "different-resourceslices-in-pool-can-target-different-nodes",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node2, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice2, node1, resource_pool(pool1, 2), driverA,
                                     device(device2, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: invalid-pool-is-ok-if-devices-can-be-allocated-from-other",
          "[dra][allocator][table]") {
  run_allocator_test(
      "invalid-pool-is-ok-if-devices-can-be-allocated-from-other",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice2, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice3, node1, resource_pool(pool2, 1), driverA,
                                     device(device2, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool2, device2, false))},
      });
}

TEST_CASE("allocator table: invalid-pool-is-error-if-no-other-device-can-be-allocated",
          "[dra][allocator][table]") {
  run_allocator_test(
      "invalid-pool-is-error-if-no-other-device-can-be-allocated",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .allocated_devices = {make_device_id(driverA, pool2, device2)},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice2, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice3, node1, resource_pool(pool2, 1), driverA,
                                     device(device2, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_error = "invalid resource pools were encountered",
      });
}

TEST_CASE("allocator table: no-allocation-from-incomplete-pools", "[dra][allocator][table]") {
  run_allocator_test(
      "no-allocation-from-incomplete-pools",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                        device(device1, std::nullopt))},
          .node = node(node1, region1),
      });
}

TEST_CASE("allocator table: check-combinations-within-single-request-single-pool-single-slice",
          "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-within-single-request-single-pool-single-slice",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 5))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA, device(device1, std::nullopt),
              device(device2, std::nullopt), device(device3, std::nullopt),
              device(device4, std::nullopt))},
          .node = node(node1, region1),
          .expect_results = {},
          // Stable: 65 (not ours).
          .expect_num_allocate_one_invocations = 16,
      });
}

TEST_CASE("allocator table: check-combinations-within-single-request-single-pool-multiple-slices",
          "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-within-single-request-single-pool-multiple-slices",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 5))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt), device(device2, std::nullopt)),
                  slice_with_devices(slice2, node1, resource_pool(pool1, 2), driverA,
                                     device(device3, std::nullopt), device(device4, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_results = {},
          // Stable: 65 (not ours).
          .expect_num_allocate_one_invocations = 16,
      });
}

TEST_CASE(
    "allocator table: check-combinations-within-single-request-multiple-pools-multiple-slices",
    "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-within-single-request-multiple-pools-multiple-slices",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 5))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, resource_pool(pool1, 2), driverA,
                                     device(device1, std::nullopt)),
                  slice_with_devices(slice2, node1, resource_pool(pool1, 2), driverA,
                                     device(device2, std::nullopt)),
                  slice_with_devices(slice3, node1, pool2, driverA, device(device3, std::nullopt),
                                     device(device4, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_results = {},
          // Stable: 65 (not ours).
          .expect_num_allocate_one_invocations = 16,
      });
}

TEST_CASE("allocator table: check-combinations-within-single-request-many-pools",
          "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-within-single-request-many-pools",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 5))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {
                  slice_with_devices(slice1, node1, pool1, driverA, device(device1, std::nullopt)),
                  slice_with_devices(slice2, node1, pool2, driverA, device(device2, std::nullopt)),
                  slice_with_devices(slice3, node1, pool3, driverA, device(device3, std::nullopt)),
                  slice_with_devices(slice4, node1, pool4, driverA, device(device4, std::nullopt)),
              },
          .node = node(node1, region1),
          .expect_results = {},
          // Stable: 65 (not ours).
          .expect_num_allocate_one_invocations = 16,
      });
}

TEST_CASE("allocator table: check-combinations-with-backtracking", "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-with-backtracking",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(
              claim0, {},
              // req-1 needs two generic devices.
              request(req1, classA, 2),
              // req-2 needs a specific device.
              request(req2, classA, 1, selector(R"(device.attributes["driver-a"].type == "X")")))},
          .classes = {device_class(classA, driverA)},
          // The order of devices is chosen such that the allocator
          // will initially pick {device1, device2} for req1. This will fail
          // because req-2 needs device1. The allocator has to
          // backtrack. The correct solution is {device2, device3} for req-1
          // and {device1} for req-2. The optimized allocator avoids
          // testing {device2, device1} for req-1 and thus finds the solution
          // faster.
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"type", string_attr("X")}}),
              device(device2, std::nullopt, Attributes{{"type", string_attr("Y")}}),
              device(device3, std::nullopt, Attributes{{"type", string_attr("Y")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req1, driverA, pool1, device2, false),
              device_allocation_result(req1, driverA, pool1, device3, false),
              device_allocation_result(req2, driverA, pool1, device1, false))},
          // Stable: 14 (not ours).
          .expect_num_allocate_one_invocations = 12,
      });
}

TEST_CASE("allocator table: check-combinations-with-backtracking-across-slices-and-pools",
          "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-with-backtracking-across-slices-and-pools",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true},
          .claims_to_allocate = {claim_with_requests(
              claim0, {},
              // req-1 needs two generic devices.
              request(req1, classA, 2),
              // req-2 needs a specific device.
              request(req2, classA, 1, selector(R"(device.attributes["driver-a"].type == "X")")))},
          .classes = {device_class(classA, driverA)},
          // The order of devices is chosen such that the allocator
          // will initially pick {device1, device2} for req1. This will fail
          // because req-2 needs device1. The allocator has to
          // backtrack. The correct solution is {device2, device3} for req-1
          // and {device1} for req-2. The optimized allocator avoids
          // testing {device2, device1} for req-1 and thus finds the solution
          // faster.
          .slices =
              {
                  slice_with_devices(
                      slice1, node1, resource_pool(pool1, 2), driverA,
                      device(device1, std::nullopt, Attributes{{"type", string_attr("X")}})),
                  slice_with_devices(
                      slice2, node1, resource_pool(pool1, 2), driverA,
                      device(device2, std::nullopt, Attributes{{"type", string_attr("Y")}})),
                  // Use a binding condition here to make sure pool2 is searched after pool1 when
                  // trying to allocate devices. This makes sure we see the same results every
                  // time.
                  slice_with_devices(
                      slice3, node1, pool2, driverA,
                      device(device3, std::nullopt, Attributes{{"type", string_attr("Y")}})
                          .with_binding_conditions({"IsPrepare"}, {})),
              },
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req1, driverA, pool1, device2, false),
              device_request_allocation_result_with_binding_conditions(req1, driverA, pool2,
                                                                       device3, {"IsPrepare"}, {}),
              device_allocation_result(req2, driverA, pool1, device1, false))},
          // Stable: 14 (not ours).
          .expect_num_allocate_one_invocations = 12,
      });
}

TEST_CASE("allocator table: check-combinations-with-prioritized-list", "[dra][allocator][table]") {
  run_allocator_test(
      "check-combinations-with-prioritized-list",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              // The first alternative can't be satisfied since there aren't enough devices
              // of type Y, but the allocator will try all devices before finding out.
              request_with_prioritized_list(
                  req1,
                  sub_request(subReq0, classA, 3,
                              selector(R"(device.attributes["driver-a"].type == "Y")")),
                  sub_request(subReq1, classA, 2)),
              // The first subrequest asks for too many devices, so the second
              // have to be chosen.
              request_with_prioritized_list(
                  req2, sub_request(subReq0, classA, 2),
                  sub_request(subReq1, classA, 1,
                              selector(R"(device.attributes["driver-a"].type == "X")"))))},
          .classes = {device_class(classA, driverA)},
          // The order of devices is chosen such that the allocator
          // will initially pick {device1, device2} for req1. This will fail
          // because req-2 needs device1. The allocator has to
          // backtrack. The correct solution is {device2, device3} for req-1
          // and {device1} for req-2. The optimized allocator avoids
          // testing {device2, device1} for req-1 and thus finds the solution
          // faster.
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"type", string_attr("X")}}),
              device(device2, std::nullopt, Attributes{{"type", string_attr("Y")}}),
              device(device3, std::nullopt, Attributes{{"type", string_attr("Y")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req1SubReq1, driverA, pool1, device2, false),
              device_allocation_result(req1SubReq1, driverA, pool1, device3, false),
              device_allocation_result(req2SubReq1, driverA, pool1, device1, false))},
          // Stable: 32 (not ours).
          .expect_num_allocate_one_invocations = 26,
      });
}

// The number of TEST_CASEs above for upstream cases, counted with
//   grep -c '^TEST_CASE' tests/unit/dra/allocator_table_3_test.cpp
// minus one (this coverage check).
constexpr std::size_t transcribed = 50;

TEST_CASE("allocator table: part 3 covers every upstream case in its range",
          "[dra][allocator][table]") {
  CHECK(transcribed + kNotApplicable.size() == 71);
}
