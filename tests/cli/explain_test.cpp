// `gpusched explain`: the report for people, the JSON of scenario-format.md §4 with its keys in
// the contract's order, the pod found by its controller's name or a glob, and exit 2 for an
// unknown pod or a malformed --at.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/run_cli.hpp"

namespace gpusched {
namespace {

using test::run_cli;

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";
const std::string kTwoPods = kScenarios + "two-pods-one-gpu.json";
const std::string kPending = "default/gpu-demo-d9c9cb49d-cwq86";

std::vector<std::string> keys(const nlohmann::ordered_json& object) {
  std::vector<std::string> out;
  for (const auto& item : object.items()) out.push_back(item.key());
  return out;
}

// The first `n` keys: the contract's, before any addition.
std::vector<std::string> first_keys(const nlohmann::ordered_json& object, std::size_t n) {
  std::vector<std::string> all = keys(object);
  all.resize(std::min(n, all.size()));
  return all;
}

TEST_CASE("cli explain: the story of a Pending pod", "[explain][cli]") {
  const auto r = run_cli({"explain", kTwoPods, "--pod", kPending});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.starts_with("Pod " + kPending +
                          ": Pending (last scheduling attempt at 0s)\n"
                          "Layer: scheduling\n"));
  CHECK(r.out.find("Message: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: "
                   "0/1 nodes are available: 1 No preemption victims found for incoming pod.\n") !=
        std::string::npos);
  CHECK(r.out.find("  1 node: NodeResourcesFit: Insufficient nvidia.com/gpu (free 0, need 1)\n"
                   "      gpu-node\n") != std::string::npos);
  CHECK(r.out.find("  gpu-node: NodeResourcesFit Unschedulable: Insufficient nvidia.com/gpu "
                   "(free 0, need 1); passed NodeUnschedulable, NodeName, TaintToleration; "
                   "nothing to check for NodeAffinity, NodePorts, PodTopologySpread, "
                   "InterPodAffinity\n") != std::string::npos);
  CHECK(r.out.find("  [works] add one more node like gpu-node (gpu-node-copy): scheduled at 0s "
                   "on gpu-node-copy\n") != std::string::npos);
  // A name alone is in the default namespace, as kubectl reads it.
  const auto short_name = run_cli({"explain", kTwoPods, "--pod", "gpu-demo-d9c9cb49d-cwq86"});
  CHECK(short_name.out == r.out);
}

TEST_CASE("cli explain -o json: the contract's keys, in order", "[explain][cli]") {
  const auto r = run_cli({"explain", kTwoPods, "--pod", kPending, "-o", "json"});
  REQUIRE(r.code == 0);
  const auto json = nlohmann::ordered_json::parse(r.out);
  const std::vector<std::string> contract{"pod",       "time",  "phase",  "message",    "layer",
                                          "diagnosis", "nodes", "groups", "preemption", "remedies"};
  CHECK(first_keys(json, contract.size()) == contract);
  CHECK(json["pod"] == kPending);
  CHECK(json["time"] == "0s");
  CHECK(json["phase"] == "Pending");
  CHECK(json["layer"] == "scheduling");
  const auto& node = json["nodes"][0];
  CHECK(first_keys(node, 4) == std::vector<std::string>{"name", "filters", "scores", "total"});
  CHECK(node["name"] == "gpu-node");
  const auto& fit = node["filters"][5];
  CHECK(keys(fit) == std::vector<std::string>{"plugin", "code", "reasons", "detail"});
  CHECK(fit["plugin"] == "NodeResourcesFit");
  CHECK(fit["code"] == "Unschedulable");
  CHECK(fit["reasons"] == nlohmann::ordered_json{"Insufficient nvidia.com/gpu"});
  const auto& group = json["groups"][0];
  CHECK(first_keys(group, 4) == std::vector<std::string>{"count", "plugin", "reasons", "nodes"});
  CHECK(group["count"] == 1);
  const auto& preemption = json["preemption"][0];
  CHECK(first_keys(preemption, 3) == std::vector<std::string>{"node", "victims", "pdbViolations"});
  bool verified_node = false;
  for (const auto& remedy : json["remedies"]) {
    CHECK(keys(remedy) ==
          std::vector<std::string>{"change", "verified", "scheduledAt", "node", "whyNot"});
    if (remedy["node"] == "gpu-node-copy") {
      verified_node = remedy["verified"] == true && remedy["scheduledAt"] == "0s";
    }
  }
  CHECK(verified_node);
}

TEST_CASE("cli explain: layer values are the contract's", "[explain][cli]") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{kTwoPods, "--pod", kPending}, "scheduling"},
      {{kScenarios + "capacity-above-allocatable.json", "--pod", "too-big"}, "capacity-supply"},
      {{kScenarios + "not-ready-node.json", "--pod", "trainer", "--at", "30s"}, "provisioning"},
      {{kScenarios + "not-ready-node.json", "--pod", "trainer"}, "none"},
      {{kScenarios + "gpu/single-numa-node-rejection.json", "--pod", "six"}, "workload"},
  };
  for (const auto& [args, layer] : cases) {
    std::vector<std::string> all{"explain"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"-o", "json", "--no-remedies"});
    const auto r = run_cli(all);
    INFO(args[0]);
    REQUIRE(r.code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["layer"] == layer);
    CHECK(json["remedies"].empty());
  }
}

TEST_CASE("cli explain: an unknown pod or a bad --at is exit 2", "[explain][cli]") {
  const auto unknown = run_cli({"explain", kTwoPods, "--pod", "default/nope"});
  CHECK(unknown.code == 2);
  CHECK(unknown.out.empty());
  CHECK(unknown.err.find("pod default/nope") != std::string::npos);
  CHECK(unknown.err.find("no such pod at 0s") != std::string::npos);
  const auto bad_at = run_cli({"explain", kTwoPods, "--pod", kPending, "--at", "soon"});
  CHECK(bad_at.code == 2);
  CHECK(bad_at.err.find("--at") != std::string::npos);
  const auto no_pod = run_cli({"explain", kTwoPods});
  CHECK(no_pod.code == 2);
}

TEST_CASE("cli explain: a controller name or a glob finds the pod left waiting", "[explain][cli]") {
  const auto exact = run_cli({"explain", kTwoPods, "--pod", kPending, "--output", "json"});
  REQUIRE(exact.code == 0);
  // gpu-demo's two replicas: one runs, the other waits, and that one is meant.
  for (const char* name : {"gpu-demo", "default/gpu-demo", "default/gpu-demo-*"}) {
    INFO(name);
    const auto by_name = run_cli({"explain", kTwoPods, "--pod", name, "--output", "json"});
    CHECK(by_name.code == 0);
    CHECK(by_name.out == exact.out);
  }
  // Two replicas waiting: the error lists them.
  const auto two = run_cli({"explain", kScenarios + "gpu-pool-mix.json", "--pod", "infer"});
  CHECK(two.code == 2);
  CHECK(two.err ==
        "gpusched: error: pod default/infer: 2 pods not bound match at 1m: "
        "default/infer-65d8bfd757-7pm7q (Pending), default/infer-65d8bfd757-vpzjb (Pending); "
        "name one\n");
  // None waiting: every match is listed.
  const auto done = run_cli({"explain", kScenarios + "job-two-waves.json", "--pod", "train"});
  CHECK(done.code == 2);
  CHECK_THAT(done.err, Catch::StartsWith("gpusched: error: pod default/train: 4 pods match at "));
  CHECK_THAT(done.err, Catch::EndsWith(" (Succeeded); name one\n"));
  // Nothing matches: the namespace's pods, the waiting ones first.
  const auto none = run_cli({"explain", kTwoPods, "--pod", "default/nope"});
  CHECK(none.code == 2);
  CHECK(none.err ==
        "gpusched: error: pod default/nope: no such pod at 0s; pods of namespace "
        "default: default/gpu-demo-d9c9cb49d-cwq86 (Pending), "
        "default/gpu-demo-d9c9cb49d-2qbr7 (Running)\n");
  const auto empty = run_cli({"explain", kTwoPods, "--pod", "ml/train"});
  CHECK(empty.err ==
        "gpusched: error: pod ml/train: no such pod at 0s (namespace ml has no pods)\n");
}

}  // namespace
}  // namespace gpusched
