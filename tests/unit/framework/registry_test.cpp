// The plugin registry and out-of-tree plugins: registered by name, enabled in a profile (in code
// or in the scenario file) like an in-tree plugin, and run by the scheduler as one.
#include "gpusched/framework/registry.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpusched/error.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "plugins/registry.hpp"

namespace gpusched {
namespace {

/// A Filter plugin that admits only the node named "b".
class OnlyB final : public FilterPlugin {
 public:
  explicit OnlyB(Handle& handle) : reason_(handle.cluster.intern("node(s) were not b")) {}
  [[nodiscard]] std::string_view name() const noexcept override { return "OnlyB"; }
  [[nodiscard]] Code filter(const CycleState&, const PodInfo&, const NodeInfo& node,
                            Reasons& reasons) const override {
    if (node.node.metadata.name == "b") return Code::Success;
    reasons.push_back(reason_);
    return Code::UnschedulableAndUnresolvable;
  }

 private:
  StrId reason_;
};

PluginFactory only_b() {
  return [](Handle& handle, const Profile&) { return std::make_unique<OnlyB>(handle); };
}

// Two nodes; "a" has more room, so the default profile prefers it.
std::string scenario_text(const std::string& profile_plugins, const std::string& b_cpu = "4") {
  return R"({"name": "oot", "scheduler": {"profiles": [{"plugins": {)" + profile_plugins +
         R"(}}]}, "cluster": [
    {"kind": "Node", "metadata": {"name": "a"}, "status": {"capacity": {"cpu": "64", "memory": "64Gi"}}},
    {"kind": "Node", "metadata": {"name": "b"}, "status": {"capacity": {"cpu": ")" +
         b_cpu + R"(", "memory": "64Gi"}}},
    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}}]})";
}

const PodRecord& pod_p(const SimulationResult& result) {
  for (const PodRecord& record : result.pods) {
    if (record.pod.metadata.name == "p") return record;
  }
  FAIL("no pod p");
  throw std::logic_error("unreachable");
}

/// The InputError `run` throws.
template <typename Run>
InputError input_error_of(Run run) {
  try {
    run();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("Registry: names, lookups and upstream's duplicate message", "[registry]") {
  Registry registry;
  CHECK(registry.empty());
  registry.add("OnlyB", only_b());
  registry.add("Another", only_b());
  CHECK(registry.names() == std::vector<std::string>{"Another", "OnlyB"});
  CHECK(registry.find("OnlyB") != nullptr);
  CHECK(registry.find("Missing") == nullptr);
  // A bad argument of the library call: an InputError placed at the call.
  const InputError twice = input_error_of([&] { registry.add("OnlyB", only_b()); });
  CHECK(twice.file() == "Registry::add");
  CHECK(twice.reason() == "a plugin named OnlyB already exists");
  CHECK(input_error_of([&] { registry.add("", only_b()); }).reason() == "a plugin needs a name");
  CHECK(input_error_of([&] { registry.add("Null", PluginFactory{}); }).reason() ==
        "plugin \"Null\" has no factory");

  Registry in_tree = plugins::in_tree_registry();
  for (std::string_view name : {"PrioritySort", "NodeResourcesFit", "DefaultPreemption",
                                "NodeResourcesBalancedAllocation", "DefaultBinder"})
    CHECK(in_tree.find(name) != nullptr);
  Registry clash;
  clash.add("NodeResourcesFit", only_b());
  CHECK(input_error_of([&] { in_tree.merge(clash); }).reason() ==
        "a plugin named NodeResourcesFit already exists");
}

TEST_CASE("Out-of-tree plugin: enabled in the scenario file, it changes the placement",
          "[registry]") {
  SimulationOptions options;
  options.plugins.add("OnlyB", only_b());
  const io::LoadOptions load{options.plugins.names()};

  // Without it, the pod goes to the emptier node.
  const Scenario plain = io::parse_scenario(scenario_text(""), "oot.json", load);
  CHECK(pod_p(simulate(plain, options)).pod.spec.node_name == "a");

  const Scenario with = io::parse_scenario(
      scenario_text(R"("filter": {"enabled": [{"name": "OnlyB"}]})"), "oot.json", load);
  CHECK(pod_p(simulate(with, options)).pod.spec.node_name == "b");

  // When no node passes, its reason is counted in the FailedScheduling message as any plugin's,
  // and its UnschedulableAndUnresolvable keeps preemption off that node.
  const Scenario full = io::parse_scenario(
      scenario_text(R"("multiPoint": {"enabled": [{"name": "OnlyB"}]})", "1"), "oot.json", load);
  const SimulationResult result = simulate(full, options);
  CHECK(pod_p(result).pod.spec.node_name.empty());
  CHECK(pod_p(result).pod.status.conditions.at(0).message ==
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were not b. no new claims to "
        "deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for "
        "scheduling.");
}

TEST_CASE("Out-of-tree plugin: a name the loader was not told of is a typo", "[registry]") {
  const std::string text = scenario_text(R"("score": {"enabled": [{"name": "OnlyB"}]})");
  CHECK_THROWS_AS(io::parse_scenario(text, "oot.json"), InputError);
  try {
    (void)io::parse_scenario(text, "oot.json");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("unknown plugin") != std::string::npos);
  }
}

TEST_CASE("Out-of-tree plugin: profile and registry must agree", "[registry]") {
  const io::LoadOptions load{{"OnlyB"}};
  const Scenario scenario = io::parse_scenario(
      scenario_text(R"("filter": {"enabled": [{"name": "OnlyB"}]})"), "oot.json", load);
  // Enabled but not registered: placed at the profile in the scenario.
  const InputError unknown = input_error_of([&] { (void)simulate(scenario); });
  CHECK(unknown.file() == "oot.json");
  CHECK(unknown.pointer() == "/scheduler/profiles/0");
  CHECK(unknown.reason() == "unknown plugin \"OnlyB\"");
  // Registered under a name its plugin does not carry.
  SimulationOptions misnamed;
  misnamed.plugins.add("OnlyB", [](Handle& handle, const Profile&) {
    class Other final : public FilterPlugin {
     public:
      [[nodiscard]] std::string_view name() const noexcept override { return "Other"; }
      [[nodiscard]] Code filter(const CycleState&, const PodInfo&, const NodeInfo&,
                                Reasons&) const override {
        return Code::Success;
      }
    };
    (void)handle;
    return std::make_unique<Other>();
  });
  const InputError other = input_error_of([&] { (void)simulate(scenario, misnamed); });
  CHECK(other.pointer() == "/scheduler/profiles/0");
  CHECK(other.reason() == "the factory of plugin \"OnlyB\" made no plugin of that name");
  // An out-of-tree name may not repeat an in-tree one.
  SimulationOptions clash;
  clash.plugins.add("NodeResourcesFit", only_b());
  const InputError repeated = input_error_of([&] { (void)simulate(scenario, clash); });
  CHECK(repeated.file() == "Registry::add");
  CHECK(repeated.reason() == "a plugin named NodeResourcesFit already exists");
}

TEST_CASE("A profile the scheduler cannot run: InputError at its place in the scenario",
          "[registry]") {
  // Made in code: the loader would refuse such profiles itself.
  Scenario scenario = io::parse_scenario(scenario_text(""), "code.json");
  Profile second;
  second.scheduler_name = "second";
  second.plugins.multi_point.disabled.push_back(PluginRef{"DefaultBinder", 0});
  scenario.scheduler.profiles.push_back(second);
  const InputError no_bind = input_error_of([&] { (void)simulate(scenario); });
  CHECK(no_bind.file() == "code.json");
  CHECK(no_bind.pointer() == "/scheduler/profiles/1");
  CHECK(no_bind.reason() == "profile \"second\" has no Bind plugin");
  CHECK(std::string(no_bind.what()) ==
        "code.json: /scheduler/profiles/1: profile \"second\" has no Bind plugin");
  CHECK_THROWS_AS(Simulator(scenario), InputError);

  scenario.scheduler.profiles.back().plugins.multi_point.disabled = {PluginRef{"PrioritySort", 0}};
  CHECK(input_error_of([&] { (void)simulate(scenario); }).reason() ==
        "profile \"second\" has no QueueSort plugin");
}

}  // namespace gpusched
