// NodePorts against upstream's pkg/scheduler/framework/plugins/nodeports/node_ports_test.go
// (TestNodePorts): newPod(host, "PROTOCOL/IP/PORT"...).
#include "plugins/node_ports.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

// "UDP/127.0.0.1/8080" -> a container port with that host port.
Pod port_pod(const std::string& name, const std::vector<std::string>& specs) {
  Container c;
  c.name = "c";
  for (const std::string& spec : specs) {
    const auto a = spec.find('/');
    const auto b = spec.find('/', a + 1);
    ContainerPort p;
    p.protocol = spec.substr(0, a);
    p.host_ip = spec.substr(a + 1, b - a - 1);
    p.host_port = std::stoi(spec.substr(b + 1));
    p.container_port = p.host_port;
    c.ports.push_back(p);
  }
  return test::make_pod(name, {c});
}

struct Row {
  std::string name;
  std::vector<std::string> pod;
  std::vector<std::string> existing;
  bool fits;
};

TEST_CASE("NodePorts Filter: upstream TestNodePorts", "[plugins]") {
  const std::vector<Row> rows = {
      {"nothing running", {}, {}, true},
      {"other port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/9090"}, true},
      {"same udp port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}, false},
      {"same tcp port", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, false},
      {"different host ip", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.2/8080"}, true},
      {"different protocol", {"UDP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, true},
      {"second udp port conflict",
       {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"},
       {"UDP/127.0.0.1/8080"},
       false},
      {"first tcp port conflict",
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"},
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"},
       false},
      {"first tcp port conflict due to 0.0.0.0 hostIP",
       {"TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"second tcp port conflict to 0.0.0.0 hostIP",
       {"TCP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001"},
       false},
      {"second different protocol", {"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}, true},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP",
       {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      // Beyond upstream's table: an empty host IP is the wildcard, an empty protocol is TCP.
      {"empty host IP is 0.0.0.0 and conflicts with any IP",
       {"TCP//8001"},
       {"TCP/10.0.0.1/8001"},
       false},
      {"empty protocol is TCP", {"/127.0.0.1/8001"}, {"TCP/127.0.0.1/8001"}, false},
      {"SCTP does not conflict with TCP", {"SCTP/0.0.0.0/8001"}, {"TCP/0.0.0.0/8001"}, true},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      const NodeInfo& node = env.cluster.add_node(test::make_node("m1"));
      if (!row.existing.empty()) env.add_bound(port_pod("existing", row.existing), "m1");
      Handle handle = env.handle();
      plugins::NodePorts plugin(handle);
      const PodInfo pod = env.compile(port_pod("p", row.pod));
      CycleState state(1);
      PreFilterResult result;
      const Code pre = plugin.pre_filter(state, pod, result).code;
      CHECK_FALSE(result.node_names.has_value());
      if (row.pod.empty()) {
        // "Skip if a pod has no ports."
        CHECK(pre == Code::Skip);
        CHECK(state.filter_skipped(0));
        continue;
      }
      REQUIRE(pre == Code::Success);
      Reasons reasons;
      const Code code = plugin.filter(state, pod, node, reasons);
      if (row.fits) {
        CHECK(code == Code::Success);
        CHECK(reasons.empty());
      } else {
        CHECK(code == Code::Unschedulable);
        CHECK(
            env.text(reasons) ==
            std::vector<std::string>{"node(s) didn't have free ports for the requested pod ports"});
      }
    }
  }
}

TEST_CASE("NodePorts queueing hint on pod deletion", "[plugins][queue]") {
  test::Env env;
  env.cluster.add_node(test::make_node("m1"));
  Handle handle = env.handle();
  plugins::NodePorts plugin(handle);
  const PodInfo pod = env.compile(port_pod("p", {"TCP/0.0.0.0/8080"}));
  const ClusterEvent event{EventResource::Pod, action::kDelete, "AssignedPodDelete"};
  PodInfo& holder = env.add_bound(port_pod("holder", {"TCP/127.0.0.1/8080"}), "m1");
  PodInfo& other_port = env.add_bound(port_pod("other", {"TCP/127.0.0.1/9090"}), "m1");
  PodInfo& unbound = env.cluster.add_pod(port_pod("unbound", {"TCP/127.0.0.1/8080"}));
  CHECK(plugin.queueing_hint(event, pod, {nullptr, nullptr, &holder}) == QueueingHint::Queue);
  CHECK(plugin.queueing_hint(event, pod, {nullptr, nullptr, &other_port}) ==
        QueueingHint::QueueSkip);
  CHECK(plugin.queueing_hint(event, pod, {nullptr, nullptr, &unbound}) == QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
