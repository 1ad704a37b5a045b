// Upstream's allocator test table, part 2: the cases of
// k8s.io/dynamic-resource-allocation v0.36.2
// structured/internal/allocatortesting/allocator_testing.go whose opening line lies between
// lines 2563 and 4961 ("prioritized-list-subrequests-with-constraints-ref-sub-request" to
// "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy"), in the
// order upstream lists them, each transcribed field by field (fields in AllocatorTestCase's
// declaration order).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "unit/dra/allocator_testing.hpp"

using namespace dra_testing;

namespace {

/// Cases of this part that gpusched's model types cannot express. None: every case of lines
/// 2563-4961 uses inputs the model has.
const std::vector<NotApplicable> kNotApplicable = {};

// TestAllocator's local variables (allocator_testing.go lines 927-976) that this part uses.
const std::string versionAttribute = driverA + "/" + "driverVersion";
const std::string taintKey = "taint-key";
const std::string taintValue = "taint-value";
const std::string taintValue2 = "taint-value-2";
const DeviceTaint taintNone{taintKey, taintValue, DeviceTaintEffect::None};
const DeviceTaint taintNoSchedule{taintKey, taintValue, DeviceTaintEffect::NoSchedule};
const DeviceTaint taintNoExecute{taintKey, taintValue2, DeviceTaintEffect::NoExecute};
// Operator Exists: .exists = true; Operator Equal: .exists = false.
const DeviceToleration tolerationNoSchedule{.key = taintKey,
                                            .exists = true,
                                            .value = {},
                                            .effect = DeviceTaintEffect::NoSchedule,
                                            .toleration_seconds = std::nullopt};
const DeviceToleration tolerationNoExecute{.key = taintKey,
                                           .exists = false,
                                           .value = taintValue2,
                                           .effect = DeviceTaintEffect::NoExecute,
                                           .toleration_seconds = std::nullopt};
const DeviceToleration tolerationNoScheduleKey1{.key = "key1",
                                                .exists = true,
                                                .value = {},
                                                .effect = DeviceTaintEffect::NoSchedule,
                                                .toleration_seconds = std::nullopt};

/// resourceapi.AllocationResultsMaxSize.
constexpr int AllocationResultsMaxSize = static_cast<int>(kAllocationResultsMaxSize);

/// resource.NewQuantity(n, resource.BinarySI).
Quantity new_quantity(std::int64_t n) {
  return Quantity::from_units(n, QuantityFormat::BinarySI);
}

/// slices.Concat.
std::vector<DeviceRequestAllocationResult> concat(
    std::vector<DeviceRequestAllocationResult> a,
    const std::vector<DeviceRequestAllocationResult>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// A resourceapi.AllocationResult literal in expectResults: compared exactly (gomega.Equal),
/// device order included.
ExpectedResult exact(AllocationResult result) {
  return ExpectedResult{std::move(result), /*devices_in_any_order=*/false};
}

}  // namespace

TEST_CASE("allocator table: prioritized-list-subrequests-with-constraints-ref-sub-request",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-subrequests-with-constraints-ref-sub-request",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate =
              {claim(claim0)
                   .with_constraints(match_attribute({req0, req1SubReq0}, versionAttribute))
                   .with_requests(
                       device_request(req0, classA, 1)
                           .with_selectors(selector(
                               R"(device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0)")),
                       request_with_prioritized_list(
                           req1,
                           sub_request(
                               subReq0, classA, 1,
                               selector(
                                   R"(device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0)")),
                           sub_request(
                               subReq1, classA, 1,
                               selector(
                                   R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)"))))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, Quantities{{"memory", q("8Gi")}},
                                Attributes{{"driverVersion", version_attr("1.0.0")}})),
                     slice_with_devices(
                         slice2, node1, pool2, driverA,
                         device(device2, Quantities{{"memory", q("2Gi")}},
                                Attributes{{"driverVersion", version_attr("2.0.0")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req1SubReq1, driverA, pool2, device2, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-subrequests-with-allocation-mode-all",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-subrequests-with-allocation-mode-all",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {[] {
            WrapResourceClaim c = claim(claim0).with_requests(request_with_prioritized_list(
                req0, sub_request(subReq0, classA, 1), sub_request(subReq1, classA, 1)));
            c.c.spec.requests[0].first_available[0].allocation_mode = AllocationMode::All;
            c.c.spec.requests[0].first_available[0].count = 0;
            return c;
          }()},
          .allocated_devices = {make_device_id(driverA, pool1, device1)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt),
                                        device(device2, std::nullopt))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-allocation-mode-all-multiple-requests",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-allocation-mode-all-multiple-requests",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1),
              request_with_prioritized_list(
                  req1, sub_request(subReq0, classA, 0).with_allocation_mode(AllocationMode::All),
                  sub_request(subReq1, classA, 1)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt),
                                        device(device2, std::nullopt))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req1SubReq1, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-disabled", "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-disabled",
      AllocatorTestCase{
          .features = {.prioritized_list = false},
          .claims_to_allocate = {[] {
            WrapResourceClaim c = claim(claim0).with_requests(
                request_with_prioritized_list(req0, sub_request(subReq0, classA, 1)));
            return c;
          }()},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_one_device(slice1, node1, pool1, driverA)},
          .node = node(node1, region1),
          .expect_results = {},
          .expect_error =
              "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature "
              "is disabled",
      });
}

TEST_CASE("allocator table: prioritized-list-multi-request", "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-multi-request",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req1, classA, 1)
                  .with_selectors(selector(
                      R"(device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0)")),
              request_with_prioritized_list(
                  req0,
                  sub_request(
                      subReq0, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0)")),
                  sub_request(
                      subReq1, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0)"))))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, Quantities{{"memory", q("8Gi")}}, Attributes{})),
                     slice_with_devices(
                         slice2, node1, pool2, driverA,
                         device(device2, Quantities{{"memory", q("4Gi")}}, Attributes{}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req1, driverA, pool1, device1, false),
              device_allocation_result(req0SubReq1, driverA, pool2, device2, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-with-backtracking", "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-with-backtracking",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              request_with_prioritized_list(
                  req0,
                  sub_request(
                      subReq0, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0)")),
                  sub_request(
                      subReq1, classA, 1,
                      selector(
                          R"(device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0)"))),
              device_request(req1, classA, 1)
                  .with_selectors(selector(
                      R"(device.capacity["driver-a"].memory.compareTo(quantity("8Gi")) >= 0)")))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, Quantities{{"memory", q("8Gi")}}, Attributes{})),
                     slice_with_devices(
                         slice2, node1, pool2, driverA,
                         device(device2, Quantities{{"memory", q("4Gi")}}, Attributes{}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool2, device2, false),
              device_allocation_result(req1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-too-many-in-first-subrequest",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-too-many-in-first-subrequest",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classB, 500), sub_request(subReq1, classA, 1)))},
          .classes = {device_class(classA, driverA), device_class(classB, driverB)},
          .slices = {slice_with_one_device(slice1, node1, pool1, driverA)},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-single-device", "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-single-device",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-prioritized-list", "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-prioritized-list",
      AllocatorTestCase{
          .features = {.partitionable_devices = true, .prioritized_list = true},
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
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("6Gi")}})),
                         device(device3, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req1SubReq1, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-multiple-devices", "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-multiple-devices",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1),
                                                     request(req1, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("6Gi")}})),
                         device(device3, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req1, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-multiple-capacity-pools",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-multiple-capacity-pools",
      AllocatorTestCase{
          .features = {.partitionable_devices = true, .prioritized_list = true},
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
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, resource_pool(pool1, 2), driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1,
                                                      Quantities{{"memory", q("4Gi")}}),
                           device_counter_consumption(counterSet2, Quantities{{"cpus", q("4")}})),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1,
                                                      Quantities{{"memory", q("6Gi")}}),
                           device_counter_consumption(counterSet2, Quantities{{"cpus", q("6")}})),
                   device(device3, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1,
                                                      Quantities{{"memory", q("4Gi")}}),
                           device_counter_consumption(counterSet2, Quantities{{"cpus", q("4")}}))),
               slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                       counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}),
                                       counter_set(counterSet2, Quantities{{"cpus", q("8")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req1SubReq1, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-multiple-counters", "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-multiple-counters",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1),
                                                     request(req1, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, resource_pool(pool1, 2), driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(
                               counterSet1, Quantities{{"memory", q("4Gi")}, {"cpus", q("6")}}),
                           device_counter_consumption(
                               counterSet2, Quantities{{"cpus", q("4")}, {"memory", q("2Gi")}})),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(
                               counterSet1, Quantities{{"memory", q("6Gi")}, {"cpus", q("4")}}),
                           device_counter_consumption(
                               counterSet2, Quantities{{"cpus", q("6")}, {"memory", q("6Gi")}})),
                   device(device3, fromCounters)
                       .with_device_counter_consumption(
                           device_counter_consumption(
                               counterSet1, Quantities{{"memory", q("4Gi")}, {"cpus", q("4")}}),
                           device_counter_consumption(
                               counterSet2, Quantities{{"cpus", q("4")}, {"memory", q("4Gi")}}))),
               slice_with_counter_sets(
                   slice2, node1, resource_pool(pool1, 2), driverA,
                   counter_set(counterSet1, Quantities{{"cpus", q("8")}, {"memory", q("18Gi")}}),
                   counter_set(counterSet2, Quantities{{"cpus", q("12")}, {"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device2, false),
              device_allocation_result(req1, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-multiple-pools", "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-multiple-pools",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1),
                                                     request(req1, classA, 1))},
          .allocated_devices = {make_device_id(driverA, pool1, device2),
                                make_device_id(driverA, pool1, device3),
                                make_device_id(driverA, pool2, device1)},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, resource_pool(pool1, 2), driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("6")}, {"memory", q("4Gi")}})),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("4")}, {"memory", q("6Gi")}})),
                   device(device3, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("4")}, {"memory", q("4Gi")}}))),
               slice_with_counter_sets(
                   slice2, node1, resource_pool(pool1, 2), driverA,
                   counter_set(counterSet1, Quantities{{"cpus", q("8")}, {"memory", q("18Gi")}})),
               slice_with_devices(
                   slice3, node1, resource_pool(pool2, 2), driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("6")}, {"memory", q("4Gi")}})),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("1")}, {"memory", q("7Gi")}})),
                   device(device3, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"cpus", q("1")}, {"memory", q("7Gi")}}))),
               slice_with_counter_sets(
                   slice4, node1, resource_pool(pool2, 2), driverA,
                   counter_set(counterSet1, Quantities{{"cpus", q("8")}, {"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool2, device2, false),
              device_allocation_result(req1, driverA, pool2, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-unused-counters-in-counter-set",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-unused-counters-in-counter-set",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("5Gi")}})),
                         device(device2, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device3, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1,
                                     Quantities{{"memory", q("8Gi")}, {"unused", q("1Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device2, false),
              device_allocation_result(req0, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-no-capacity-available",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-no-capacity-available",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .allocated_devices = {make_device_id(driverA, pool1, device2)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("16Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, pool1, driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: partitionable-devices-overallocated-capacity-pool",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-overallocated-capacity-pool",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .allocated_devices = {make_device_id(driverA, pool1, device2)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("20Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, pool1, driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: partitionable-devices-disabled-device-consumes-counters",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-disabled-device-consumes-counters",
      AllocatorTestCase{
          .features = {.partitionable_devices = false},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, pool1, driverA,
                         device(device1, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice2, node1, pool1, driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: partitionable-devices-disabled-other-device-do-not-consume-counters",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-disabled-other-device-do-not-consume-counters",
      AllocatorTestCase{
          .features = {.partitionable_devices = false},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, std::nullopt)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}})),
                         device(device2, std::nullopt)),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device2, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-disabled-per-device-node-selection",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-disabled-per-device-node-selection",
      AllocatorTestCase{
          .features = {.partitionable_devices = false},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, nodeSelectionPerDevice, pool1, driverA,
                                        device(device2, std::nullopt).with_node_selection(node1))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: partitionable-devices-per-device-node-selection-nodename",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-per-device-node-selection-nodename",
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
                      R"(device.capacity["driver-a"].memory.compareTo(quantity("4Gi")) >= 0)"))))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_node_selection(node1),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("6Gi")}}))
                             .with_node_selection(node2)),
                     slice_with_counter_sets(
                         slice2, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: partitionable-devices-per-device-node-selection-node-selector",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-per-device-node-selection-node-selector",
      AllocatorTestCase{
          .features = {.partitionable_devices = true, .prioritized_list = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_node_selection(node_label_selector(regionKey, {region1}))),
                     slice_with_counter_sets(
                         slice2, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              NodeSelector{{NodeSelectorTerm{.match_expressions = {SelectorRequirement{
                                                 regionKey, SelectorOperator::In, {region1}}},
                                             .match_fields = {}}}},
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE(
    "allocator table: "
    "partitionable-devices-per-device-node-selection-node-selector-multiple-devices",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-per-device-node-selection-node-selector-multiple-devices",
      AllocatorTestCase{
          .features = {.partitionable_devices = true, .prioritized_list = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 3),
                                                     request(req1, classB, 3))},
          .classes = {device_class(classA, driverA), device_class(classB, driverB)},
          .slices = {slice_with_devices(
                         slice1, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_node_selection(node_label_selector(regionKey, {region1})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_node_selection(node1),
                         device(device3, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_node_selection(nodeSelectionAll)),
                     slice_with_counter_sets(
                         slice2, nodeSelectionPerDevice, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("18Gi")}})),
                     slice_with_devices(
                         slice3, node1, resource_pool(pool2, 2), driverB,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet2, Quantities{{"memory", q("4Gi")}})),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet2, Quantities{{"memory", q("4Gi")}})),
                         device(device3, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet2, Quantities{{"memory", q("4Gi")}}))),
                     slice_with_counter_sets(
                         slice4, node1, resource_pool(pool2, 2), driverB,
                         counter_set(counterSet2, Quantities{{"memory", q("12Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              NodeSelector{{NodeSelectorTerm{.match_expressions = {},
                                             .match_fields = {SelectorRequirement{
                                                 fieldNameKey, SelectorOperator::In, {node1}}}}}},
              device_allocation_result(req0, driverA, pool1, device1, false),
              device_allocation_result(req0, driverA, pool1, device2, false),
              device_allocation_result(req0, driverA, pool1, device3, false),
              device_allocation_result(req1, driverB, pool2, device1, false),
              device_allocation_result(req1, driverB, pool2, device2, false),
              device_allocation_result(req1, driverB, pool2, device3, false))},
      });
}

TEST_CASE("allocator table: tainted-two-devices", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-two-devices",
      AllocatorTestCase{
          .features = {.device_taints = true},
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt).with_taints(taintNoSchedule),
                                        device(device2, std::nullopt).with_taints(taintNoExecute))},
          .node = node(node1, region1),
      });
}

TEST_CASE("allocator table: tainted-one-device-two-taints", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-one-device-two-taints",
      AllocatorTestCase{
          .features = {.device_taints = true},
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule, taintNoExecute))},
          .node = node(node1, region1),
      });
}

TEST_CASE("allocator table: tainted-two-devices-tolerated", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-two-devices-tolerated",
      AllocatorTestCase{
          .features = {.device_taints = true},
          .claims_to_allocate =
              {claim_with_request(claim0, req0, classA).with_tolerations(tolerationNoExecute)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt).with_taints(taintNoSchedule),
                                        device(device2, std::nullopt).with_taints(taintNoExecute))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              // Only second device's taints are tolerated.
              device_allocation_result(req0, driverA, pool1, device2, false, tolerationNoExecute))},
      });
}

TEST_CASE("allocator table: tainted-two-devices-prioritized-list-tolerated",
          "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-two-devices-prioritized-list-tolerated",
      AllocatorTestCase{
          .features = {.device_taints = true, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              request_with_prioritized_list(req0, sub_request(subReq0, classA, 1),
                                            sub_request(subReq1, classA, 1, tolerationNoExecute)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt).with_taints(taintNoSchedule),
                                        device(device2, std::nullopt).with_taints(taintNoExecute))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              // Only second device's taints are tolerated.
              device_allocation_result(req0SubReq1, driverA, pool1, device2, false,
                                       tolerationNoExecute))},
      });
}

TEST_CASE("allocator table: tainted-no-effect", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-no-effect",
      AllocatorTestCase{
          .features = {.device_taints = true},
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt).with_taints(taintNone))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: tainted-one-device-two-taints-both-tolerated",
          "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-one-device-two-taints-both-tolerated",
      AllocatorTestCase{
          .features = {.device_taints = true},
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)
                                     .with_tolerations(tolerationNoSchedule, tolerationNoExecute)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule, taintNoExecute))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false, tolerationNoSchedule,
                                       tolerationNoExecute))},
      });
}

TEST_CASE("allocator table: tainted-disabled", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-disabled",
      AllocatorTestCase{
          .features = {.device_taints = false},
          .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule, taintNoExecute))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: tainted-prioritized-list", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-prioritized-list",
      AllocatorTestCase{
          .features = {.device_taints = true, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classB, 1), sub_request(subReq1, classA, 1)))},
          .classes = {device_class(classA, driverA), device_class(classB, driverB)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule))},
          .node = node(node1, region1),
      });
}

TEST_CASE("allocator table: tainted-prioritized-list-disabled", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-prioritized-list-disabled",
      AllocatorTestCase{
          .features = {.device_taints = false, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classB, 1), sub_request(subReq1, classA, 1)))},
          .classes = {device_class(classA, driverA), device_class(classB, driverB)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: tainted-admin-access", "[dra][allocator][table]") {
  run_allocator_test("tainted-admin-access",
                     AllocatorTestCase{
                         .features = {.admin_access = true, .device_taints = true},
                         .claims_to_allocate =
                             [] {
                               WrapResourceClaim c = claim_with_request(claim0, req0, classA);
                               c.c.spec.requests[0].exactly->admin_access = true;
                               return std::vector<WrapResourceClaim>{c};
                             }(),
                         .allocated_devices = {make_device_id(driverA, pool1, device1),
                                               make_device_id(driverA, pool1, device2)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {slice_with_devices(
                             slice1, node1, pool1, driverA,
                             device(device1, std::nullopt).with_taints(taintNoSchedule))},
                         .node = node(node1, region1),
                     });
}

TEST_CASE("allocator table: tainted-admin-access-disabled", "[dra][allocator][table]") {
  run_allocator_test("tainted-admin-access-disabled",
                     AllocatorTestCase{
                         .features = {.admin_access = true, .device_taints = false},
                         .claims_to_allocate =
                             [] {
                               WrapResourceClaim c = claim_with_request(claim0, req0, classA);
                               c.c.spec.requests[0].exactly->admin_access = true;
                               return std::vector<WrapResourceClaim>{c};
                             }(),
                         .allocated_devices = {make_device_id(driverA, pool1, device1),
                                               make_device_id(driverA, pool1, device2)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {slice_with_devices(
                             slice1, node1, pool1, driverA,
                             device(device1, std::nullopt).with_taints(taintNoSchedule))},
                         .node = node(node1, region1),
                         .expect_results = {allocation_result(
                             local_node_selector(node1),
                             device_allocation_result(req0, driverA, pool1, device1, true))},
                     });
}

TEST_CASE("allocator table: tainted-all-devices-single", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-all-devices-single",
      AllocatorTestCase{
          .features = {.device_taints = true},
          // Go: resourceapi.DeviceRequest{Name: req0, Exactly: &resourceapi.ExactDeviceRequest{
          // AllocationMode: DeviceAllocationModeAll, DeviceClassName: classA}}, the request
          // allDeviceRequest(req0, classA) builds.
          .claims_to_allocate = {claim_with_requests(claim0, {}, all_device_request(req0, classA))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule))},
          .node = node(node1, region1),
      });
}

TEST_CASE("allocator table: tainted-all-devices-single-disabled", "[dra][allocator][table]") {
  run_allocator_test(
      "tainted-all-devices-single-disabled",
      AllocatorTestCase{
          .features = {.device_taints = false},
          // Go: resourceapi.DeviceRequest{Name: req0, Exactly: &resourceapi.ExactDeviceRequest{
          // AllocationMode: DeviceAllocationModeAll, DeviceClassName: classA}}, the request
          // allDeviceRequest(req0, classA) builds.
          .claims_to_allocate = {claim_with_requests(claim0, {}, all_device_request(req0, classA))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_taints(taintNoSchedule))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-allocation-mode-all", "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-allocation-mode-all",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classA, 0).with_allocation_mode(AllocationMode::All),
              sub_request(subReq1, classA, 1)))},
          .allocated_devices = {make_device_id(driverA, pool1, device2)},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt),
                                        device(device2, std::nullopt))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-allocation-mode-all-with-selectors",
          "[dra][allocator][table]") {
  // When using allocationMode:All, at least one device must be allocated, otherwise
  // DRA will attempt the next subRequest.
  run_allocator_test(
      "prioritized-list-allocation-mode-all-with-selectors",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0,
              sub_request(subReq0, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v6")"))
                  .with_allocation_mode(AllocationMode::All),
              sub_request(subReq1, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v5")"))
                  .with_allocation_mode(AllocationMode::All)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt, Attributes{{"generation", string_attr("v5")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-allocation-mode-all-with-selectors-multiple-pools",
          "[dra][allocator][table]") {
  // All devices selected by the DeviceClass will be allocated, even if they
  // are spread across different resource pools.
  run_allocator_test(
      "prioritized-list-allocation-mode-all-with-selectors-multiple-pools",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0,
              sub_request(subReq0, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v6")"))
                  .with_allocation_mode(AllocationMode::All),
              sub_request(subReq1, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v5")"))
                  .with_allocation_mode(AllocationMode::All)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt,
                                               Attributes{{"generation", string_attr("v5")}})),
                     slice_with_devices(slice2, node1, pool2, driverA,
                                        device(device1, std::nullopt,
                                               Attributes{{"generation", string_attr("v5")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false),
              device_allocation_result(req0SubReq1, driverA, pool2, device1, false))},
      });
}

TEST_CASE(
    "allocator table: "
    "prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes",
    "[dra][allocator][table]") {
  // All devices selected by the DeviceClass will be allocated, even if they
  // are spread across different resource pools, as long as they are available
  // on the node.
  run_allocator_test(
      "prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0,
              sub_request(subReq0, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v6")"))
                  .with_allocation_mode(AllocationMode::All),
              sub_request(subReq1, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v5")"))
                  .with_allocation_mode(AllocationMode::All)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt,
                                               Attributes{{"generation", string_attr("v5")}})),
                     slice_with_devices(slice2, node2, pool2, driverA,
                                        device(device1, std::nullopt,
                                               Attributes{{"generation", string_attr("v5")}}),
                                        device(device2, std::nullopt,
                                               Attributes{{"generation", string_attr("v6")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset",
          "[dra][allocator][table]") {
  // Only devices selected by the deviceclass will be considered
  run_allocator_test(
      "prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0,
              sub_request(subReq0, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v6")"))
                  .with_allocation_mode(AllocationMode::All),
              sub_request(subReq1, classA, 0,
                          selector(R"(device.attributes["driver-a"].generation == "v5")"))
                  .with_allocation_mode(AllocationMode::All)))},
          .classes = {[] {
            DeviceClass c;
            c.metadata.name = classA;
            c.selectors = {selector(
                R"(device.driver == "driver-a" && device.attributes["driver-a"].selected)")};
            return c;
          }()},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt,
                     Attributes{{"generation", string_attr("v6")}, {"selected", bool_attr(false)}}),
              device(device2, std::nullopt,
                     Attributes{{"generation", string_attr("v5")}, {"selected", bool_attr(false)}}),
              device(
                  device3, std::nullopt,
                  Attributes{{"generation", string_attr("v5")}, {"selected", bool_attr(true)}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, device3, false))},
      });
}

TEST_CASE("allocator table: max-number-devices", "[dra][allocator][table]") {
  run_allocator_test(
      "max-number-devices",
      AllocatorTestCase{
          .claims_to_allocate = {claim_with_requests(
              claim0, {}, request(req0, classA, AllocationResultsMaxSize))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_multiple_devices(slice1, node1, pool1, driverA,
                                                 AllocationResultsMaxSize)},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1), multiple_device_allocation_results(
                                              req0, driverA, pool1, AllocationResultsMaxSize, 0))},
      });
}

TEST_CASE("allocator table: partitionable-devices-with-attribute-selector",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-attribute-selector",
      AllocatorTestCase{
          .features = {.partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(
              claim0, {}, request(req0, classA, 2),
              request(req1, classA, 1, selector(R"(device.attributes["driver-a"].special)")))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, resource_pool(pool1, 2), driverA,
                   device(device1, std::nullopt, Attributes{{"special", bool_attr(true)}})
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1, Quantities{{"cpu1", q("1")}}),
                           device_counter_consumption(counterSet2, Quantities{{"mem", q("10Gi")}})),
                   device(device2, std::nullopt, Attributes{{"special", bool_attr(false)}})
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1, Quantities{{"cpu2", q("1")}}),
                           device_counter_consumption(counterSet2, Quantities{{"mem", q("10Gi")}})),
                   device(device3, std::nullopt, Attributes{{"special", bool_attr(false)}})
                       .with_device_counter_consumption(
                           device_counter_consumption(counterSet1, Quantities{{"cpu3", q("1")}}),
                           device_counter_consumption(counterSet2,
                                                      Quantities{{"mem", q("10Gi")}}))),
               slice_with_counter_sets(
                   slice2, node1, resource_pool(pool1, 2), driverA,
                   counter_set(counterSet1,
                               Quantities{{"cpu1", q("1")}, {"cpu2", q("1")}, {"cpu3", q("1")}}),
                   counter_set(counterSet2, Quantities{{"mem", q("30Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0, driverA, pool1, device2, false),
              device_allocation_result(req0, driverA, pool1, device3, false),
              device_allocation_result(req1, driverA, pool1, device1, false))},
      });
}

TEST_CASE("allocator table: prioritized-list-max-allocation-limit-request",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-max-allocation-limit-request",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              request_with_prioritized_list(
                  req0, sub_request(subReq0, classA, AllocationResultsMaxSize),
                  sub_request(subReq1, classA, AllocationResultsMaxSize / 2)),
              request_with_prioritized_list(
                  req1, sub_request(subReq0, classA, AllocationResultsMaxSize),
                  sub_request(subReq1, classA, AllocationResultsMaxSize / 2)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_multiple_devices(slice1, node1, pool1, driverA,
                                                 AllocationResultsMaxSize * 2)},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              concat(multiple_device_allocation_results(req0SubReq1, driverA, pool1,
                                                        AllocationResultsMaxSize / 2, 0),
                     multiple_device_allocation_results(req1SubReq1, driverA, pool1,
                                                        AllocationResultsMaxSize / 2,
                                                        AllocationResultsMaxSize / 2)))},
          .expect_num_allocate_one_invocations = 75,
      });
}

TEST_CASE("allocator table: prioritized-list-max-allocation-allocation-mode-all",
          "[dra][allocator][table]") {
  run_allocator_test(
      "prioritized-list-max-allocation-allocation-mode-all",
      AllocatorTestCase{
          .features = {.prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              request_with_prioritized_list(
                  req0, sub_request(subReq0, classA, 0).with_allocation_mode(AllocationMode::All),
                  sub_request(subReq1, classA, 2)),
              device_request(req1, classB, 2))},
          .classes = {device_class(classA, driverA), device_class(classB, driverB)},
          .slices = {slice_with_multiple_devices(slice1, node1, pool1, driverA,
                                                 AllocationResultsMaxSize - 1),
                     slice_with_multiple_devices(slice2, node1, pool2, driverB, 2)},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_allocation_result(req0SubReq1, driverA, pool1, "device-0", false),
              device_allocation_result(req0SubReq1, driverA, pool1, "device-1", false),
              device_allocation_result(req1, driverB, pool2, "device-0", false),
              device_allocation_result(req1, driverB, pool2, "device-1", false))},
          .expect_num_allocate_one_invocations = 42,
      });
}

TEST_CASE("allocator table: device-binding-conditions", "[dra][allocator][table]") {
  run_allocator_test(
      "device-binding-conditions",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices = {device_request_allocation_result_with_binding_conditions(
                  req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"})},
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: binding-conditions-multiple-devices", "[dra][allocator][table]") {
  run_allocator_test(
      "binding-conditions-multiple-devices",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2),
                                                     request(req1, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}),
              device(device2, std::nullopt)
                  .with_binding_conditions({"IsPrepare2"}, {"BindingFailed2"}),
              device(device3, std::nullopt)
                  .with_binding_conditions({"IsPrepare3"}, {"BindingFailed3"}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"}),
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device2, {"IsPrepare2"}, {"BindingFailed2"}),
                      device_request_allocation_result_with_binding_conditions(
                          req1, driverA, pool1, device3, {"IsPrepare3"}, {"BindingFailed3"}),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: binding-conditions-with-and-without", "[dra][allocator][table]") {
  run_allocator_test(
      "binding-conditions-with-and-without",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1),
                                                     request(req1, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA, device(device1, std::nullopt),
              device(device2, std::nullopt)
                  .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_allocation_result(req0, driverA, pool1, device1, false),
                      device_request_allocation_result_with_binding_conditions(
                          req1, driverA, pool1, device2, {"IsPrepare"}, {"BindingFailed"}),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: binding-conditions-without-feature-gate", "[dra][allocator][table]") {
  run_allocator_test(
      "binding-conditions-without-feature-gate",
      AllocatorTestCase{
          .features = {.device_binding_and_status = false},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: node-restriction", "[dra][allocator][table]") {
  run_allocator_test("node-restriction",
                     AllocatorTestCase{
                         .features = {.device_binding_and_status = true},
                         .claims_to_allocate = {claim_with_request(claim0, req0, classA)},
                         .classes = {device_class(classA, driverA)},
                         .slices = {slice_with_devices(
                             slice1, node_label_selector(planetKey, {planetValueEarth}), pool1,
                             driverA, device(device1, std::nullopt).with_binds_to_node(true))},
                         .node = node(node1, region1),
                         .expect_results = {allocation_result(
                             local_node_selector(node1),
                             device_allocation_result(req0, driverA, pool1, device1, false))},
                     });
}

TEST_CASE("allocator table: partitionable-devices-with-binding-conditions",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true, .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_binding_conditions({"IsPrepare"}, {"BindingFailed"})),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices = {device_request_allocation_result_with_binding_conditions(
                  req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"})},
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: partitionable-devices-with-binding-conditions-multiple",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions-multiple",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true, .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_binding_conditions({"IsPrepare2"}, {"BindingFailed2"})),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"}),
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device2, {"IsPrepare2"}, {"BindingFailed2"}),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE(
    "allocator table: partitionable-devices-with-binding-conditions-some-devices-no-conditions",
    "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions-some-devices-no-conditions",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true, .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 3))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
                         slice1, node1, resource_pool(pool1, 2), driverA,
                         device(device1, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("2Gi")}}))
                             .with_binding_conditions({"IsPrepare"}, {"BindingFailed"}),
                         device(device2, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("2Gi")}})),
                         device(device3, fromCounters)
                             .with_device_counter_consumption(device_counter_consumption(
                                 counterSet1, Quantities{{"memory", q("4Gi")}}))
                             .with_binding_conditions({"IsReady"}, {"BindingTimeout"})),
                     slice_with_counter_sets(
                         slice2, node1, resource_pool(pool1, 2), driverA,
                         counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"}),
                      device_request_allocation_result_with_binding_conditions(req0, driverA, pool1,
                                                                               device2, {}, {}),
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device3, {"IsReady"}, {"BindingTimeout"}),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: partitionable-devices-with-binding-conditions-multi-slices",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions-multi-slices",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true, .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(slice4, node1, resource_pool(pool1, 4), driverA,
                                  device(device1, fromCounters)
                                      .with_device_counter_consumption(device_counter_consumption(
                                          counterSet1, Quantities{{"memory", q("4Gi")}}))
                                      .with_binding_conditions({"IsPrepare"}, {"BindingFailed"})),
               slice_with_counter_sets(slice3, node1, resource_pool(pool1, 4), driverA,
                                       counter_set(counterSet1, Quantities{{"memory", q("8Gi")}})),
               slice_with_devices(slice2, node1, resource_pool(pool1, 4), driverA,
                                  device(device2, fromCounters)
                                      .with_device_counter_consumption(device_counter_consumption(
                                          counterSet2, Quantities{{"memory", q("4Gi")}}))),
               slice_with_counter_sets(slice1, node1, resource_pool(pool1, 4), driverA,
                                       counter_set(counterSet2, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_request_allocation_result_with_binding_conditions(req0, driverA, pool1,
                                                                               device2, {}, {}),
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"}),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: partitionable-devices-with-binding-conditions-and-taints",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions-and-taints",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true,
                       .device_taints = true,
                       .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2))},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, pool1, driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"memory", q("4Gi")}}))
                       .with_binding_conditions({"IsPrepare"}, {"BindingFailed"})
                       .with_taints(DeviceTaint{"key1", "value1", DeviceTaintEffect::NoSchedule}),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"memory", q("4Gi")}}))),
               slice_with_counter_sets(slice2, node1, pool1, driverA,
                                       counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE("allocator table: partitionable-devices-with-binding-conditions-and-taints-tolerated",
          "[dra][allocator][table]") {
  run_allocator_test(
      "partitionable-devices-with-binding-conditions-and-taints-tolerated",
      AllocatorTestCase{
          .features = {.device_binding_and_status = true,
                       .device_taints = true,
                       .partitionable_devices = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 2))
                                     .with_tolerations(tolerationNoScheduleKey1)},
          .classes = {device_class(classA, driverA)},
          .slices =
              {slice_with_devices(
                   slice1, node1, resource_pool(pool1, 2), driverA,
                   device(device1, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"memory", q("4Gi")}}))
                       .with_binding_conditions({"IsPrepare"}, {"BindingFailed"})
                       .with_taints(DeviceTaint{"key1", "value1", DeviceTaintEffect::NoSchedule}),
                   device(device2, fromCounters)
                       .with_device_counter_consumption(device_counter_consumption(
                           counterSet1, Quantities{{"memory", q("4Gi")}}))),
               slice_with_counter_sets(slice2, node1, resource_pool(pool1, 2), driverA,
                                       counter_set(counterSet1, Quantities{{"memory", q("8Gi")}}))},
          .node = node(node1, region1),
          .expect_results = {exact(AllocationResult{
              .devices =
                  {
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device1, {"IsPrepare"}, {"BindingFailed"},
                          tolerationNoScheduleKey1),
                      device_request_allocation_result_with_binding_conditions(
                          req0, driverA, pool1, device2, {}, {}, tolerationNoScheduleKey1),
                  },
              .config = {},
              .node_selector = local_node_selector(node1)})},
      });
}

TEST_CASE("allocator table: consumable-capacity-disabled-feature", "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-disabled-feature",
      AllocatorTestCase{
          // DeviceBindingAndStatus: add to forcefully use experimenting allocator
          .features = {.device_binding_and_status = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_one_device(slice1, node1, pool1, driverA)},
          .node = node(node1, region1),
          .expect_results = {},
          .expect_error = "claim claim-0, request req-0: has capacity requests, but the "
                          "DRAConsumableCapacity feature is disabled",
      });
}

TEST_CASE("allocator table: consumable-capacity-disabled-feature-with-prioritized-list",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-disabled-feature-with-prioritized-list",
      AllocatorTestCase{
          // DeviceBindingAndStatus: add to forcefully use experimenting allocator
          .features = {.device_binding_and_status = true, .prioritized_list = true},
          .claims_to_allocate = {claim(claim0).with_requests(request_with_prioritized_list(
              req0, sub_request(subReq0, classA, 1).with_capacity_request(one),
              sub_request(subReq1, classA, 1).with_capacity_request(one)))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_one_device(slice1, node1, pool1, driverA)},
          .node = node(node1, region1),
          .expect_results = {},
          .expect_error = "claim claim-0, subrequest subReq-0: has capacity requests, but the "
                          "DRAConsumableCapacity feature is disabled",
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-with-missing-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-missing-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {device_class(classA, driverA)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity1, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-"
    "request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-"
      "request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              all_device_request(req0, classA).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity1, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1)),
                                 claim(claim1).with_requests(device_request(req0, classA, 1))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          // both share the same device; no capacity is consumed since none is defined.
          .expect_results =
              {
                  allocation_result(local_node_selector(node1),
                                    device_request_allocation_result(req0, driverA, pool1, device1)
                                        .with_consumed_capacity(fixedShareID, {})),
                  allocation_result(local_node_selector(node1),
                                    device_request_allocation_result(req0, driverA, pool1, device1)
                                        .with_consumed_capacity(fixedShareID, {})),
              },
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1)),
                                 claim(claim1).with_requests(device_request(req0, classA, 1))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, one}}).with_allow_multiple_allocations(),
              device(device2, Quantities{{capacity0, one}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          // both should get full capacity for different devices
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}})),
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device2)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}})),
              },
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(device_request(req0, classA, 1)),
                                 claim(claim1).with_requests(device_request(req0, classA, 1))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results = {},  // should not satisfy both
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(one)),
                                 claim(claim1).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, Quantities{{capacity0, two}}).with_allow_multiple_allocations())},
          .node = node(node1, region1),
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}})),
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, one}})),
              },
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1)),
                                 claim_with_requests(claim1, {}, request(req0, classA, 1))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, four}}))},
          .node = node(node1, region1),
          // both requests applied the default request (two)
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
              },
      });
}

TEST_CASE("allocator table: consumable-capacity-multi-allocatable-device-with-zero-request-policy",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-zero-request-policy",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim_with_requests(claim0, {}, request(req0, classA, 1)),
                                 claim_with_requests(claim1, {}, request(req0, classA, 1))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt)
                                            .with_allow_multiple_allocations()
                                            .with_capacity_request_policy_valid_values(
                                                zero, Quantities{{capacity0, one}}, {}))},
          .node = node(node1, region1),
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, zero}})),
                  allocation_result(
                      local_node_selector(node1),
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, zero}})),
              },
      });
}

TEST_CASE(
    "allocator table: consumable-capacity-multi-allocatable-device-violates-zero-request-policy",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-violates-zero-request-policy",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt)
                                            .with_allow_multiple_allocations()
                                            .with_capacity_request_policy_valid_values(
                                                zero, Quantities{{capacity0, one}}, {}))},
          .node = node(node1, region1),
          .expect_results = {},
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(one)),
                                 claim(claim1).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(one))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, four}}))},
          .node = node(node1, region1),
          // both requests allocated to the same device
          .expect_results =
              {
                  allocation_result(
                      local_node_selector(node1),
                      // capacity must be rounded up to default minimum (two)
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
                  allocation_result(
                      local_node_selector(node1),
                      // capacity must be rounded up to default minimum (two)
                      device_request_allocation_result(req0, driverA, pool1, device1)
                          .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}})),
              },
      });
}

TEST_CASE("allocator table: consumable-capacity-multi-allocatable-device-with-range-policy-step",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-range-policy-step",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(new_quantity(3)))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, four}}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              // capacity must be rounded up with Step (3 to 2+2 = 4)
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, four}}))},
      });
}

TEST_CASE("allocator table: consumable-capacity-multi-allocatable-device-with-valid-values-policy",
          "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-valid-values-policy",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(new_quantity(2)))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(slice1, node1, pool1, driverA,
                                        device(device1, std::nullopt)
                                            .with_allow_multiple_allocations()
                                            .with_capacity_request_policy_valid_values(
                                                one, Quantities{{capacity0, four}}, {two}))},
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, two}}))},
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(new_quantity(2)))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_valid_values(
                      one, Quantities{{capacity0, three}},
                      {three}))},  // capacity value must be explicitly added
          .node = node(node1, region1),
          .expect_results = {allocation_result(
              local_node_selector(node1),
              device_request_allocation_result(req0, driverA, pool1, device1)
                  .with_consumed_capacity(fixedShareID, Quantities{{capacity0, three}}))},
      });
}

TEST_CASE(
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(one)),
                                 claim(claim1).with_requests(
                                     device_request(req0, classA, 1).with_capacity_request(two))},
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
    "allocator table: "
    "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy",
    "[dra][allocator][table]") {
  run_allocator_test(
      "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy",
      AllocatorTestCase{
          .features = {.consumable_capacity = true},
          .claims_to_allocate = {claim(claim0).with_requests(
              device_request(req0, classA, 1).with_capacity_request(new_quantity(6)))},
          .classes = {class_with_allow_multiple_allocations(classA, driverA, true)},
          .slices = {slice_with_devices(
              slice1, node1, pool1, driverA,
              device(device1, std::nullopt)
                  .with_allow_multiple_allocations()
                  .with_capacity_request_policy_range(Quantities{{capacity0, new_quantity(10)}}))},
          .node = node(node1, region1),
          // default max requestPolicy is 4, should not allocate even though 6 < 10
          .expect_results = {},
      });
}

TEST_CASE("allocator table: part 2 covers every upstream case in its range",
          "[dra][allocator][table]") {
  // The TEST_CASEs of this file for upstream cases, counted with
  //   grep -c '^TEST_CASE' allocator_table_2_test.cpp
  // minus 1 (this test case); a TEST_CASE whose name clang-format wrapped onto the next line
  // still starts with `TEST_CASE(` at the beginning of a line.
  constexpr std::size_t transcribed = 72;
  CHECK(transcribed + kNotApplicable.size() == 72);
}
