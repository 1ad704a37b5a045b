// ScopedNodeEdit: a dry-run edits the live node, and the node comes back as it was, with the
// version it had; no later state is named by a version an edited one had.
#include "gpusched/framework/node_info.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "gpusched/framework/pod_info.hpp"

namespace gpusched {
namespace {

PodInfo pod_with(std::int64_t milli_cpu, std::vector<HostPort> ports = {}) {
  PodInfo p;
  p.requests = {ResAmount{res::kCpu, milli_cpu}};
  p.nonzero_cpu = milli_cpu;
  p.host_ports = std::move(ports);
  return p;
}

struct Row {
  std::string name;
  std::function<void(ScopedNodeEdit&, PodInfo& a, PodInfo& b, PodInfo& other)> edit;
};

TEST_CASE("ScopedNodeEdit restores pods, ports and requests", "[framework]") {
  const std::vector<Row> rows = {
      {"additions only", [](ScopedNodeEdit& e, PodInfo&, PodInfo&, PodInfo& o) { e.add_pod(o); }},
      {"removals, then additions",
       [](ScopedNodeEdit& e, PodInfo& a, PodInfo& b, PodInfo& o) {
         e.remove_pod(b);
         e.remove_pod(a);
         e.add_pod(a);
         e.add_pod(o);
         e.remove_pod(a);
       }},
      {"an addition, then a removal of a pod the node had",
       [](ScopedNodeEdit& e, PodInfo& a, PodInfo&, PodInfo& o) {
         e.add_pod(o);
         e.remove_pod(a);
       }},
      {"a nested scope adding to a node with removals",
       [](ScopedNodeEdit& e, PodInfo&, PodInfo& b, PodInfo& o) {
         e.remove_pod(b);
         {
           ScopedNodeEdit inner(e.node());
           inner.add_pod(o);
           CHECK(e.node().pods.size() == 3);
         }
         // The inner scope undid its own edit only.
         CHECK(e.node().pods.size() == 2);
         CHECK(e.node().requested[res::kCpu] == 400);
       }},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      PodInfo a = pod_with(100, {HostPort{1, 2, 8080}});
      PodInfo b = pod_with(200);
      PodInfo c = pod_with(300, {HostPort{1, 2, 9090}});
      PodInfo other = pod_with(1000, {HostPort{1, 2, 7070}});
      NodeInfo node;
      for (PodInfo* p : {&a, &b, &c}) node.add_pod(*p);
      const std::vector<PodInfo*> pods = node.pods;
      const std::vector<HostPort> ports = node.used_ports;
      const std::uint64_t version = node.version;
      NodeEditStorage storage;
      std::uint64_t edited_version = 0;
      {
        ScopedNodeEdit edit(node, storage);
        row.edit(edit, a, b, other);
        edited_version = node.version;
        CHECK(edited_version > version);
      }
      CHECK(node.pods == pods);
      CHECK(node.used_ports == ports);
      CHECK(node.requested[res::kCpu] == 600);
      CHECK(node.nonzero_cpu == 600);
      // Results kept for the node as it was still hold...
      CHECK(node.version == version);
      // ...and none kept for an edited state holds for a later one.
      node.add_pod(other);
      CHECK(node.version > edited_version);
    }
  }
}

}  // namespace
}  // namespace gpusched
