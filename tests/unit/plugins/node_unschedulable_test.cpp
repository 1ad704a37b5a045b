// NodeUnschedulable against upstream's
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go.
#include "plugins/node_unschedulable.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

struct Row {
  std::string name;
  std::vector<Toleration> tolerations;
  bool unschedulable;
  bool fits;
};

const std::string kTaint = "node.kubernetes.io/unschedulable";

TEST_CASE("NodeUnschedulable Filter: upstream TestNodeUnschedulable", "[plugins]") {
  const std::vector<Row> rows = {
      {"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
       {},
       true,
       false},
      {"Schedule pod to normal node", {}, false, true},
      {"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
       {Toleration{kTaint, TolerationOperator::Equal, "", TaintEffect::NoSchedule, {}}},
       true,
       true},
      // Beyond upstream's table (v1helper.TolerationsTolerateTaint semantics).
      {"an Exists toleration without key tolerates the cordon",
       {Toleration{"", TolerationOperator::Exists, "", std::nullopt, {}}},
       true,
       true},
      {"an Exists toleration for the key tolerates the cordon",
       {Toleration{kTaint, TolerationOperator::Exists, "", std::nullopt, {}}},
       true,
       true},
      {"a NoExecute toleration does not tolerate the NoSchedule cordon taint",
       {Toleration{kTaint, TolerationOperator::Exists, "", TaintEffect::NoExecute, {}}},
       true,
       false},
      {"a toleration with a value does not tolerate the empty-valued cordon taint",
       {Toleration{kTaint, TolerationOperator::Equal, "true", TaintEffect::NoSchedule, {}}},
       true,
       false},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      Node node = test::make_node("n");
      node.unschedulable = row.unschedulable;
      const NodeInfo& info = env.cluster.add_node(node);
      Handle handle = env.handle();
      plugins::NodeUnschedulable plugin(handle);
      Pod pod = test::make_pod("p");
      pod.spec.tolerations = row.tolerations;
      const PodInfo pod_info = env.compile(pod);
      CycleState state(1);
      Reasons reasons;
      const Code code = plugin.filter(state, pod_info, info, reasons);
      if (row.fits) {
        CHECK(code == Code::Success);
        CHECK(reasons.empty());
      } else {
        CHECK(code == Code::UnschedulableAndUnresolvable);
        CHECK(env.text(reasons) == std::vector<std::string>{"node(s) were unschedulable"});
      }
    }
  }
}

TEST_CASE("NodeUnschedulable queueing hints", "[plugins][queue]") {
  test::Env env;
  Handle handle = env.handle();
  plugins::NodeUnschedulable plugin(handle);
  PodInfo& pod = env.cluster.add_pod(test::make_pod("p"));
  const ClusterEvent event{EventResource::Node, action::kUpdateNodeTaint, "NodeUpdate"};
  Node cordoned = test::make_node("n");
  cordoned.unschedulable = true;
  NodeInfo& node = env.cluster.add_node(cordoned);
  CHECK(plugin.queueing_hint({EventResource::Node, action::kAdd, "NodeAdd"}, pod,
                             {nullptr, &node, nullptr}) == QueueingHint::QueueSkip);
  env.cluster.update_node(node, test::make_node("n"));
  CHECK(plugin.queueing_hint(event, pod, {&cordoned, &node, nullptr}) == QueueingHint::Queue);
  const Node uncordoned = test::make_node("n");
  CHECK(plugin.queueing_hint(event, pod, {&uncordoned, &node, nullptr}) == QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
