#include "gpusched/model/pod_requests.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

namespace gpusched {
namespace {

using Text = std::map<std::string, std::string>;

ResourceList list(const Text& text) {
  ResourceList out;
  for (const auto& [name, value] : text) {
    std::string error;
    const auto q = Quantity::parse(value, &error);
    REQUIRE(q.has_value());
    out.emplace(name, *q);
  }
  return out;
}

Text text(const ResourceList& list) {
  Text out;
  for (const auto& [name, q] : list) out.emplace(name, q.to_string());
  return out;
}

Container requesting(const Text& requests, const std::string& restart_policy = "") {
  Container c;
  c.requests = list(requests);
  c.restart_policy = restart_policy;
  return c;
}

Container limiting(const Text& limits, const std::string& restart_policy = "") {
  Container c;
  c.limits = list(limits);
  c.restart_policy = restart_policy;
  return c;
}

struct RequestRow {
  std::string name;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  Text overhead;
  Text expected;
};

TEST_CASE("pod_requests mirrors resourcehelper.PodRequests", "[model][pod_requests]") {
  const std::string always = "Always";
  // Rows from component-helpers resource/helpers_test.go TestPodResourceRequests and
  // TestPodRequestsAndLimits, plus GPU rows.
  const std::vector<RequestRow> rows = {
      {"nil options, larger init container",
       {requesting({{"cpu", "4"}})},
       {requesting({{"cpu", "1"}})},
       {},
       {{"cpu", "4"}}},
      {"nil options, larger containers",
       {requesting({{"cpu", "2"}})},
       {requesting({{"cpu", "2"}}), requesting({{"cpu", "3"}})},
       {},
       {{"cpu", "5"}}},
      {"pod overhead included",
       {requesting({{"cpu", "2"}})},
       {requesting({{"cpu", "2"}}), requesting({{"cpu", "3"}})},
       {{"cpu", "1"}, {"memory", "1Gi"}},
       {{"cpu", "6"}, {"memory", "1Gi"}}},
      {"just overhead",
       {},
       {requesting({})},
       {{"cpu", "5"}, {"memory", "5"}},
       {{"cpu", "5"}, {"memory", "5"}}},
      {"req and overhead",
       {},
       {requesting({{"cpu", "1"}, {"memory", "10"}})},
       {{"cpu", "5"}, {"memory", "5"}},
       {{"cpu", "6"}, {"memory", "15"}}},
      {"two containers with massive init: the largest init wins",
       {requesting({{"cpu", "1"}, {"memory", "5"}}),
        requesting({{"cpu", "40"}, {"memory", "120"}})},
       {requesting({{"cpu", "1"}, {"memory", "5"}}), requesting({{"cpu", "4"}, {"memory", "12"}})},
       {},
       {{"cpu", "40"}, {"memory", "120"}}},
      {"restartable init container",
       {requesting({{"cpu", "1"}}, always)},
       {requesting({{"cpu", "1"}})},
       {},
       {{"cpu", "2"}}},
      {"multiple restartable init containers",  // max(5, 3+2+1 + 1) = 7
       {requesting({{"cpu", "5"}}), requesting({{"cpu", "1"}}, always),
        requesting({{"cpu", "2"}}, always), requesting({{"cpu", "3"}}, always)},
       {requesting({{"cpu", "1"}})},
       {},
       {{"cpu", "7"}}},
      {"multiple restartable and regular init containers",  // init-2: 5 + (1+2) = 8
       {requesting({{"cpu", "5"}}), requesting({{"cpu", "1"}}, always),
        requesting({{"cpu", "2"}}, always), requesting({{"cpu", "5"}}),
        requesting({{"cpu", "3"}}, always)},
       {requesting({{"cpu", "1"}})},
       {},
       {{"cpu", "8"}}},
      {"restartable-init, init and regular",  // init-1: 200 + 10
       {requesting({{"cpu", "10"}}, always), requesting({{"cpu", "200"}})},
       {requesting({{"cpu", "100"}})},
       {},
       {{"cpu", "210"}}},
      {"per resource maximum",
       {requesting({{"cpu", "4"}, {"memory", "1Gi"}})},
       {requesting({{"cpu", "1"}, {"memory", "4Gi"}})},
       {},
       {{"cpu", "4"}, {"memory", "4Gi"}}},
      {"gpus summed across containers",
       {},
       {requesting({{"nvidia.com/gpu", "2"}}), requesting({{"nvidia.com/gpu", "1"}})},
       {},
       {{"nvidia.com/gpu", "3"}}},
      {"init container gpu counts while it runs",
       {requesting({{"nvidia.com/gpu", "4"}})},
       {requesting({{"nvidia.com/gpu", "1"}, {"cpu", "500m"}})},
       {},
       {{"cpu", "500m"}, {"nvidia.com/gpu", "4"}}},
      {"no containers", {}, {}, {}, {}},
  };
  for (const RequestRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      PodSpec spec;
      spec.init_containers = row.init_containers;
      spec.containers = row.containers;
      spec.overhead = list(row.overhead);
      CHECK(text(pod_requests(spec)) == row.expected);
    }
  }
}

TEST_CASE("PodRequestsMemo computes a request again unless the pod asks what the last one did",
          "[model][pod_requests]") {
  // Copies of one spec share its containers (a template's pods), and a pod written alike asks
  // the same; other requests, pod-level resources, overhead, init containers or formats are
  // computed again (a request prints in its format).
  PodSpec a;
  a.containers = std::vector<Container>{requesting({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})};
  PodSpec a_copy = a;
  PodSpec alike;
  alike.containers = std::vector<Container>{requesting({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})};
  alike.containers.mut()[0].name = "other-name";
  PodSpec own_containers;
  own_containers.containers = std::vector<Container>{requesting({{"cpu", "2"}})};
  PodSpec pod_level = a;
  pod_level.resources.emplace().requests = list({{"cpu", "3"}});
  PodSpec overhead = a;
  overhead.overhead = list({{"cpu", "250m"}});
  PodSpec init = a;
  init.init_containers = std::vector<Container>{requesting({{"cpu", "5"}})};
  PodSpec sidecar = a;
  sidecar.init_containers = std::vector<Container>{requesting({{"cpu", "5"}}, "Always")};
  PodSpec binary;
  binary.containers = std::vector<Container>{requesting({{"memory", "1Gi"}})};
  PodSpec decimal;
  decimal.containers = std::vector<Container>{requesting({{"memory", "1073741824"}})};

  CHECK(same_requests(a, a_copy));
  CHECK(same_requests(a, alike));
  CHECK_FALSE(same_requests(a, own_containers));
  CHECK_FALSE(same_requests(a, pod_level));
  CHECK_FALSE(same_requests(a, overhead));
  CHECK_FALSE(same_requests(a, init));
  CHECK_FALSE(same_requests(init, sidecar));
  CHECK_FALSE(same_requests(binary, decimal));

  PodRequestsMemo memo;
  for (const PodSpec* spec :
       {&a, &a_copy, &own_containers, &a, &pod_level, &pod_level, &overhead, &a_copy, &init,
        &sidecar, &init, &alike, &a, &binary, &decimal, &binary}) {
    CHECK(text(memo.of(*spec)) == text(pod_requests(*spec)));
    CHECK(memo.of(*spec).begin()->second.format() == pod_requests(*spec).begin()->second.format());
  }
}

TEST_CASE("pod_limits mirrors resourcehelper.PodLimits", "[model][pod_requests]") {
  const std::string always = "Always";
  // TestPodResourceLimits and TestPodRequestsAndLimits.
  const std::vector<RequestRow> rows = {
      {"larger init container",
       {limiting({{"cpu", "4"}})},
       {limiting({{"cpu", "1"}})},
       {},
       {{"cpu", "4"}}},
      {"pod overhead only on limited resources",
       {limiting({{"cpu", "2"}})},
       {limiting({{"cpu", "2"}}), limiting({{"cpu", "3"}})},
       {{"cpu", "1"}, {"memory", "1Gi"}},
       {{"cpu", "6"}}},
      {"no limited containers", {}, {limiting({})}, {}, {}},
      {"one limited and one unlimited container",
       {},
       {limiting({{"cpu", "2"}, {"memory", "2Gi"}}), limiting({})},
       {},
       {{"cpu", "2"}, {"memory", "2Gi"}}},
      {"restartable init container",
       {limiting({{"cpu", "1"}}, always)},
       {limiting({{"cpu", "1"}})},
       {},
       {{"cpu", "2"}}},
      {"multiple restartable and regular init containers",
       {limiting({{"cpu", "5"}}), limiting({{"cpu", "1"}}, always),
        limiting({{"cpu", "2"}}, always), limiting({{"cpu", "5"}}),
        limiting({{"cpu", "3"}}, always)},
       {limiting({{"cpu", "1"}})},
       {},
       {{"cpu", "8"}}},
      {"restartable-init, init and regular",
       {limiting({{"cpu", "10"}}, always), limiting({{"cpu", "200"}})},
       {limiting({{"cpu", "100"}})},
       {},
       {{"cpu", "210"}}},
      {"all req lim and overhead (limits)",
       {},
       {limiting({{"cpu", "2"}, {"memory", "12"}})},
       {{"cpu", "5"}, {"memory", "5"}},
       {{"cpu", "7"}, {"memory", "17"}}},
  };
  for (const RequestRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      PodSpec spec;
      spec.init_containers = row.init_containers;
      spec.containers = row.containers;
      spec.overhead = list(row.overhead);
      CHECK(text(pod_limits(spec)) == row.expected);
    }
  }
}

TEST_CASE("sums keep the format of the first operand", "[model][pod_requests]") {
  PodSpec spec;
  spec.containers = {requesting({{"memory", "512Mi"}}), requesting({{"memory", "512Mi"}})};
  CHECK(text(pod_requests(spec)) == Text{{"memory", "1Gi"}});
  spec.containers = {requesting({{"memory", "1G"}}), requesting({{"memory", "1Gi"}})};
  CHECK(text(pod_requests(spec)) == Text{{"memory", "2073741824"}});
}

TEST_CASE("default_requests_from_limits applies SetDefaults_Pod", "[model][pod_requests]") {
  PodSpec spec;
  Container main;
  main.limits = list({{"cpu", "2"}, {"nvidia.com/gpu", "1"}});
  main.requests = list({{"cpu", "500m"}});
  Container init;
  init.limits = list({{"memory", "1Gi"}});
  Container bare;
  spec.containers = {main, bare};
  spec.init_containers = {init};

  default_requests_from_limits(spec);

  // An existing request is kept; a missing one is copied from the limit.
  CHECK(text(spec.containers[0].requests) == Text{{"cpu", "500m"}, {"nvidia.com/gpu", "1"}});
  CHECK(spec.containers[1].requests.empty());
  CHECK(text(spec.init_containers[0].requests) == Text{{"memory", "1Gi"}});
  CHECK(text(spec.containers[0].limits) == Text{{"cpu", "2"}, {"nvidia.com/gpu", "1"}});
}

}  // namespace
}  // namespace gpusched
