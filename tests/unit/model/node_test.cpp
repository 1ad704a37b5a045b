#include "gpusched/model/node.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct TaintRow {
  std::string name;
  std::vector<Taint> spec;
  std::vector<NodeCondition> conditions;
  std::vector<Taint> expected;
};

TEST_CASE("Node::effective_taints adds the condition taints", "[model][node]") {
  const Taint gpu{"nvidia.com/gpu", "present", TaintEffect::NoSchedule};
  const Taint not_ready{"node.kubernetes.io/not-ready", "", TaintEffect::NoSchedule};
  const Taint unreachable{"node.kubernetes.io/unreachable", "", TaintEffect::NoSchedule};
  const Taint memory{"node.kubernetes.io/memory-pressure", "", TaintEffect::NoSchedule};
  const Taint disk{"node.kubernetes.io/disk-pressure", "", TaintEffect::NoSchedule};
  const Taint pid{"node.kubernetes.io/pid-pressure", "", TaintEffect::NoSchedule};
  const Taint network{"node.kubernetes.io/network-unavailable", "", TaintEffect::NoSchedule};
  const std::vector<TaintRow> rows = {
      {"no conditions", {gpu}, {}, {gpu}},
      {"ready", {gpu}, {{"Ready", "True", "", ""}}, {gpu}},
      {"not ready appended last", {gpu}, {{"Ready", "False", "", ""}}, {gpu, not_ready}},
      {"unknown is unreachable", {}, {{"Ready", "Unknown", "", ""}}, {unreachable}},
      {"pressure conditions",
       {},
       {{"MemoryPressure", "True", "", ""},
        {"DiskPressure", "True", "", ""},
        {"PIDPressure", "True", "", ""},
        {"NetworkUnavailable", "True", "", ""}},
       {memory, disk, pid, network}},
      {"no pressure", {}, {{"MemoryPressure", "False", "", ""}}, {}},
      {"already tainted is not repeated", {not_ready}, {{"Ready", "False", "", ""}}, {not_ready}},
      {"a NoExecute taint with the same key does not count",
       {{"node.kubernetes.io/not-ready", "", TaintEffect::NoExecute}},
       {{"Ready", "False", "", ""}},
       {{"node.kubernetes.io/not-ready", "", TaintEffect::NoExecute}, not_ready}},
  };
  for (const TaintRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Node node;
      node.taints = row.spec;
      node.conditions = row.conditions;
      CHECK(node.effective_taints() == row.expected);
    }
  }
}

TEST_CASE("to_string(TaintEffect)", "[model][node]") {
  CHECK(to_string(TaintEffect::NoSchedule) == "NoSchedule");
  CHECK(to_string(TaintEffect::PreferNoSchedule) == "PreferNoSchedule");
  CHECK(to_string(TaintEffect::NoExecute) == "NoExecute");
}

}  // namespace
}  // namespace gpusched
