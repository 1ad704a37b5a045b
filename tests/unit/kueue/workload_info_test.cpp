// Kueue v0.19.2's TestNewInfo (pkg/workload/workload_test.go), the cases gpusched models: the
// totals of a pending workload's pod sets, and an admitted workload's totals taken from its
// admission. Not transcribed: the reclaimable pods cases ("pending with reclaim; ...",
// "admitted with reclaim; ...", "admitted with reclaim and increased reclaim", "admitted with
// stale reclaim exceeding scaled-down podSet count"), "admitted with TAS and transformed
// resources" (Topology Aware Scheduling), and the cases of Kueue's Configuration
// resources.excludeResourcePrefixes and resources.transformations ("filterResources",
// "transform..."), which gpusched does not model.

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kueue/flavor_assigner.hpp"
#include "kueue/preemptor.hpp"
#include "kueue/workload_info.hpp"
#include "unit/kueue/kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's wrappers

struct WantPodSetResources {
  std::string name;
  Requests requests;
  std::int32_t count = 0;
  std::map<std::string, std::string> flavors;
};

void check_info(const Workload& wl, const std::string& want_cluster_queue,
                const std::vector<WantPodSetResources>& want) {
  const WorkloadInfo info = make_info(wl, "/wl");
  CHECK(info.cluster_queue == want_cluster_queue);
  REQUIRE(info.total_requests.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("pod set " << want[i].name);
    CHECK(info.total_requests[i].name == want[i].name);
    CHECK(info.total_requests[i].requests == want[i].requests);
    CHECK(info.total_requests[i].count == want[i].count);
    CHECK(info.total_requests[i].flavors == want[i].flavors);
  }
}

// ResourceUsage of a PodSetAssignment: quantities by resource.
ResourceList usage_of(const std::vector<std::pair<std::string, std::string>>& entries) {
  ResourceList out;
  for (const auto& [r, q] : entries) out[r] = qty(q);
  return out;
}

}  // namespace

TEST_CASE("TestNewInfo/pending", "[kueue][workload_info]") {
  Workload wl;
  wl.pod_sets = {PodSetBuilder("main", 1).request("cpu", "10m").request("memory", "512Ki")};
  check_info(wl, "", {{"main", {{"cpu", 10}, {"memory", 512 * 1024}}, 1, {}}});
}

TEST_CASE("TestNewInfo/negative request floored to zero in total requests",
          "[kueue][workload_info]") {
  Workload wl;
  wl.pod_sets = {PodSetBuilder("main", 2).request("cpu", "-10m").request("memory", "512Ki")};
  check_info(wl, "", {{"main", {{"cpu", 0}, {"memory", 2 * 512 * 1024}}, 2, {}}});
}

TEST_CASE("TestNewInfo/prevent int overflow in total requests", "[kueue][workload_info]") {
  Workload wl;
  wl.pod_sets = {PodSetBuilder("main", 2147483647).request("cpu", "4300000")};
  check_info(wl, "", {{"main", {{"cpu", 9223372036854775807}}, 2147483647, {}}});
}

TEST_CASE("TestNewInfo/admitted", "[kueue][workload_info]") {
  Workload wl;
  wl.pod_sets = {
      PodSetBuilder("driver", 1).request("cpu", "10m").request("memory", "512Ki"),
      PodSetBuilder("workers", 3)
          .request("cpu", "5m")
          .request("memory", "1Mi")
          .request("ex.com/gpu", "1"),
  };
  PodSetAssignment driver;
  driver.name = "driver";
  driver.flavors = {{"cpu", "on-demand"}};
  driver.resource_usage = usage_of({{"cpu", "10m"}, {"memory", "512Ki"}});
  driver.count = 1;
  PodSetAssignment workers;
  workers.name = "workers";
  workers.resource_usage = usage_of({{"cpu", "15m"}, {"memory", "3Mi"}, {"ex.com/gpu", "3"}});
  workers.count = 3;
  wl.admission = Admission{"foo", {driver, workers}};
  check_info(wl, "foo",
             {{"driver", {{"cpu", 10}, {"memory", 512 * 1024}}, 1, {{"cpu", "on-demand"}}},
              {"workers", {{"cpu", 15}, {"memory", 3 * 1024 * 1024}, {"ex.com/gpu", 3}}, 3, {}}});
}

TEST_CASE("TestNewInfo/partially admitted", "[kueue][workload_info]") {
  Workload wl;
  wl.pod_sets = {PodSetBuilder("main", 5).request("cpu", "10m").request("memory", "10Ki")};
  PodSetAssignment psa;
  psa.name = "main";
  psa.flavors = {{"cpu", "f1"}, {"memory", "f1"}};
  psa.resource_usage = usage_of({{"cpu", "30m"}, {"memory", "30Ki"}});
  psa.count = 3;
  wl.admission = Admission{"", {psa}};
  check_info(wl, "",
             {{"main",
               {{"cpu", 3 * 10}, {"memory", 3 * 10 * 1024}},
               3,
               {{"cpu", "f1"}, {"memory", "f1"}}}});
}

// Not an upstream case: a ClusterQueue covering `pods` charges an admitted workload's pod
// count, as Kueue does through the admission's resourceUsage (flavorassigner.go adds `pods` to
// the pod set's requests; totalRequestsFromAdmission reads them back).
TEST_CASE("Kueue: an admitted workload holds the pods quota its admission recorded",
          "[kueue][workload_info]") {
  const ClusterQueue cq = ClusterQueueBuilder("cq").resource_group(
      {FlavorQuotasBuilder("default").resource("cpu", "10").resource("pods", "5")});
  QuotaTree tree = build_tree({cq});
  Workload wl;
  wl.pod_sets = {PodSetBuilder("main", 3).request("cpu", "1")};
  const std::map<std::string, ResourceFlavor> flavors = {{"default", {}}};
  Preemptor oracle(tree, {}, KueueConfiguration{}, 0);
  AssignerContext ctx;
  ctx.cq = tree.cluster_queue("cq");
  ctx.flavors = &flavors;
  ctx.oracle = &oracle;
  const Assignment assignment = assign_flavors(make_info(wl, "/wl"), ctx);
  REQUIRE(assignment.representative_mode() == AssignmentMode::Fit);
  wl.admission = Admission{"cq", assignment.to_api()};
  const FlavorResourceAmounts usage = make_info(wl, "/wl").usage();
  CHECK(usage == fr_amounts({{{"default", "cpu"}, 3'000}, {{"default", "pods"}, 3}}));
  CHECK(usage == assignment.usage);
}

}  // namespace gpusched::kueue
