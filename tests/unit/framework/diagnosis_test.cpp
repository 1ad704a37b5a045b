// FitError.Error() against upstream's pkg/scheduler/framework/types_test.go TestFitError_Error,
// plus the absent-node and byte-wise sorting rules of the same function.
#include "gpusched/framework/diagnosis.hpp"
#include "framework/string_pool.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched {
namespace {

struct Failed {
  std::vector<std::string> reasons;
  Code code = Code::Unschedulable;
};

struct Row {
  std::string name;
  std::size_t num_all_nodes;
  std::string pre_filter_msg;
  std::vector<Failed> failed;                      // one entry per node with an explicit status
  std::optional<std::vector<std::string>> absent;  // absent nodes' reasons
  std::string post_filter_msg;
  std::string want;
};

TEST_CASE("fit_error_message: upstream TestFitError_Error", "[scheduler]") {
  const std::string pre = "Node(s) failed PreFilter plugin FalsePreFilter";
  const std::string f1 = "Node(s) failed Filter plugin FalseFilter-1";
  const std::string f2 = "Node(s) failed Filter plugin FalseFilter-2";
  const std::string post = "Error running PostFilter plugin FailedPostFilter";
  // Upstream's AbsentNodesStatus is UnschedulableAndUnresolvable without reasons.
  const std::vector<std::string> no_reasons;
  const std::vector<Row> rows = {
      {"nodes failed Prefilter plugin",
       3,
       pre,
       {{{pre}}, {{pre}}, {{pre}}},
       no_reasons,
       "",
       "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter."},
      {"nodes failed Prefilter plugin and the preemption also failed",
       3,
       pre,
       {{{pre}}, {{pre}}, {{pre}}},
       no_reasons,
       post,
       "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running "
       "PostFilter plugin FailedPostFilter"},
      {"nodes failed one Filter plugin with an empty PostFilterMsg",
       3,
       "",
       {{{f1}}, {{f1}}, {{f1}}},
       no_reasons,
       "",
       "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1."},
      {"nodes failed one Filter plugin with a non-empty PostFilterMsg",
       3,
       "",
       {{{f1}}, {{f1}}, {{f1}}},
       no_reasons,
       post,
       "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running "
       "PostFilter plugin FailedPostFilter"},
      {"nodes failed two Filter plugins with an empty PostFilterMsg",
       3,
       "",
       {{{f1}}, {{f1}}, {{f2}}},
       no_reasons,
       "",
       "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed "
       "Filter plugin FalseFilter-1."},
      {"nodes failed two Filter plugins with a non-empty PostFilterMsg",
       3,
       "",
       {{{f1}}, {{f1}}, {{f2}}},
       no_reasons,
       post,
       "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed "
       "Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter"},
      {"failed to Permit on node",
       1,
       "",
       {{{"Node failed Permit plugin Permit-1"}}},
       no_reasons,
       "",
       "0/1 nodes are available: 1 Node failed Permit plugin Permit-1."},
      {"failed to Reserve on node",
       1,
       "",
       {{{"Node failed Reserve plugin Reserve-1"}}},
       no_reasons,
       "",
       "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1."},
      // Beyond upstream's table.
      {"absent nodes count NumAllNodes - explicit statuses",
       5,
       "",
       {{{"Insufficient cpu"}}, {{"Insufficient cpu"}}},
       std::vector<std::string>{"node(s) didn't satisfy plugin(s) [NodeAffinity]"},
       "",
       "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) "
       "[NodeAffinity]."},
      {"counts sort byte-wise: 10 before 2",
       12,
       "",
       {{{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"b"}},
        {{"a"}},
        {{"a"}}},
       no_reasons,
       "",
       "0/12 nodes are available: 10 b, 2 a."},
      {"every reason of a node counts",
       2,
       "",
       {{{"Insufficient cpu", "Insufficient memory"}}, {{"Insufficient memory"}}},
       no_reasons,
       "",
       "0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory."},
      {"the preemption postfix has no final period",
       3,
       "",
       {{{"node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"},
         Code::UnschedulableAndUnresolvable},
        {{"Insufficient nvidia.com/gpu"}},
        {{"Insufficient nvidia.com/gpu"}}},
       no_reasons,
       "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No "
       "preemption victims found for incoming pod.",
       "0/3 nodes are available: 1 node(s) had untolerated taint "
       "{node-role.kubernetes.io/control-plane: }, 2 Insufficient nvidia.com/gpu. preemption: 0/3 "
       "nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims "
       "found for incoming pod."},
      {"absent status when every node is explicit is not counted",
       2,
       "",
       {{{"x"}}, {{"x"}}},
       std::vector<std::string>{"ignored"},
       "",
       "0/2 nodes are available: 2 x."},
      {"a reason of the absent nodes and of explicit ones counts once, summed",
       4,
       "",
       {{{"x", "y"}}, {{"y"}}},
       std::vector<std::string>{"y"},
       "",
       "0/4 nodes are available: 1 x, 4 y."},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      StringPool pool;
      std::deque<NodeInfo> nodes;
      Diagnosis d;
      d.pre_filter_msg = row.pre_filter_msg;
      d.post_filter_msg = row.post_filter_msg;
      if (row.absent) {
        Status absent{Code::UnschedulableAndUnresolvable, {}, {}};
        for (const std::string& r : *row.absent) absent.reasons.push_back(pool.intern(r));
        d.absent = absent;
      }
      for (const Failed& f : row.failed) {
        Status status{f.code, "FalseFilter", {}};
        for (const std::string& r : f.reasons) status.reasons.push_back(pool.intern(r));
        d.add(nodes.emplace_back(), status);
      }
      CHECK(fit_error_message(row.num_all_nodes, d, pool) == row.want);
    }
  }
}

TEST_CASE("Diagnosis::add records the rejecting plugins", "[scheduler]") {
  StringPool pool;
  NodeInfo a, b, c;
  Diagnosis d;
  d.add(a, Status{Code::Unschedulable, "NodeResourcesFit", {pool.intern("Insufficient cpu")}});
  d.add(b, Status{Code::UnschedulableAndUnresolvable, "TaintToleration", {pool.intern("t")}});
  d.add(c, Status{Code::Pending, "DynamicResources", {pool.intern("p")}});
  CHECK(d.unschedulable_plugins ==
        std::set<std::string, std::less<>>{"NodeResourcesFit", "TaintToleration"});
  CHECK(d.pending_plugins == std::set<std::string, std::less<>>{"DynamicResources"});
  CHECK(d.failed_nodes.size() == 3);
  CHECK(reasons_histogram(3, d, pool) == "1 Insufficient cpu, 1 p, 1 t");
  REQUIRE(d.reasons(1).size() == 1);
  CHECK(d.reasons(1).front() == pool.intern("t"));
  d.clear();
  CHECK(d.failed_nodes.empty());
  CHECK(d.unschedulable_plugins.empty());
}

TEST_CASE("Diagnosis keeps nodes rejected alike as one run", "[scheduler]") {
  StringPool pool;
  std::vector<NodeInfo> nodes(6);
  const std::vector<const NodeInfo*> block = {&nodes[2], &nodes[3], &nodes[4]};
  const StrId gpu = pool.intern("Insufficient nvidia.com/gpu");
  const StrId selector = pool.intern("node(s) didn't match Pod's node affinity/selector");
  // Plugins name their statuses with one string object each.
  const std::string_view fit = "NodeResourcesFit";
  Diagnosis d;
  d.add(nodes[0], Status{Code::Unschedulable, fit, {gpu}});
  d.add(nodes[1], Status{Code::Unschedulable, fit, {gpu}});
  d.add_run(block, Status{Code::UnschedulableAndUnresolvable, "NodeAffinity", {selector}});
  d.add(nodes[5], Status{Code::Unschedulable, fit, {gpu}});
  REQUIRE(d.failed_runs.size() == 3);
  CHECK(d.failed_runs[0].num_nodes == 2);
  CHECK(d.failed_runs[1].num_nodes == 3);
  CHECK(d.failed_runs[2].num_nodes == 1);
  CHECK(d.failed_reasons.size() == 3);
  CHECK(reasons_histogram(6, d, pool) ==
        "3 Insufficient nvidia.com/gpu, 3 node(s) didn't match Pod's node affinity/selector");
  std::vector<std::pair<const NodeInfo*, Code>> seen;
  d.for_each_failed([&](const NodeInfo& node, const FailedStatus& status, auto why) {
    CHECK(why.size() == 1);
    seen.emplace_back(&node, status.code);
  });
  REQUIRE(seen.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(seen[i].first == &nodes[i]);
  CHECK(seen[3].second == Code::UnschedulableAndUnresolvable);
  CHECK(seen[5].second == Code::Unschedulable);
}

}  // namespace
}  // namespace gpusched
