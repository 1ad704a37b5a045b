// NodeName against upstream's pkg/scheduler/framework/plugins/nodename/node_name_test.go.
#include "plugins/node_name.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

struct Row {
  std::string name;
  std::string pod_node_name;
  bool fits;
};

TEST_CASE("NodeName Filter: upstream TestNodeName", "[plugins]") {
  const std::vector<Row> rows = {
      {"no host specified", "", true},
      {"host matches", "foo", true},
      {"host doesn't match", "bar", false},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      const NodeInfo& node = env.cluster.add_node(test::make_node("foo"));
      Handle handle = env.handle();
      plugins::NodeName plugin(handle);
      Pod pod = test::make_pod("p");
      pod.spec.node_name = row.pod_node_name;
      const PodInfo info = env.compile(pod);
      CycleState state(1);
      Reasons reasons;
      const Code code = plugin.filter(state, info, node, reasons);
      if (row.fits) {
        CHECK(code == Code::Success);
        CHECK(reasons.empty());
      } else {
        CHECK(code == Code::UnschedulableAndUnresolvable);
        CHECK(env.text(reasons) ==
              std::vector<std::string>{"node(s) didn't match the requested node name"});
      }
    }
  }
}

TEST_CASE("NodeName registers Node/Add without a hint", "[plugins][queue]") {
  test::Env env;
  Handle handle = env.handle();
  plugins::NodeName plugin(handle);
  const auto events = plugin.events_to_register();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == EventResource::Node);
  CHECK(events[0].event.actions == action::kAdd);
  CHECK_FALSE(events[0].has_hint);
}

}  // namespace
}  // namespace gpusched
