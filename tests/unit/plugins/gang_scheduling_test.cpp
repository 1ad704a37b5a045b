// GangScheduling against upstream's pkg/scheduler/framework/plugins/gangscheduling/
// gangscheduling_test.go (1.35, and release-1.36's with PodGroup objects): PreEnqueue,
// Reserve/Unreserve, Permit and the queueing hints.
#include "plugins/gang_scheduling.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

/// The scheduler's side of the handle: what the plugin allowed and activated.
class FakeScheduler final : public SchedulerServices {
 public:
  void allow_waiting_pod(std::string_view uid, std::string_view plugin) override {
    allowed.push_back(std::string(uid) + "@" + std::string(plugin));
  }
  void activate(std::span<PodInfo* const> pods) override {
    for (const PodInfo* pod : pods) activated.push_back(pod->pod.metadata.name);
  }
  [[nodiscard]] TimeMs now() const override { return clock; }
  void cluster_event(const ClusterEvent&, const EventObjects&) override {}

  std::vector<std::string> allowed;
  std::vector<std::string> activated;
  TimeMs clock = 0;
};

SchedulingWorkload gang_workload(std::int32_t min_count) {
  SchedulingWorkload workload;
  workload.metadata.name = "gang-wl";
  workload.metadata.namespace_ = "default";
  workload.pod_groups.push_back({"pg1", min_count});
  workload.pod_groups.push_back({"basic", std::nullopt});
  return workload;
}

Pod gang_pod(const std::string& name, const std::string& group = "pg1",
             const std::string& replica = "") {
  Pod pod = test::make_pod(name, {test::container(test::res(100, 0))});
  pod.metadata.uid = name + "-uid";
  pod.spec.workload_ref = WorkloadReference{"gang-wl", group, replica};
  return pod;
}

struct Fixture {
  explicit Fixture(int minor = 35) : env(KubernetesVersion{minor}) {
    handle.scheduler = &scheduler;
    node = &env.cluster.add_node(test::make_node("n1", test::res(8000, 0)));
  }
  /// The plugin's status text.
  std::string message(const Status& status) const { return status.message(env.cluster.pool()); }

  test::Env env;
  FakeScheduler scheduler;
  Handle handle = env.handle();
  NodeInfo* node = nullptr;
};

TEST_CASE("GangScheduling PreEnqueue: upstream TestGangSchedulingPlugin's PreEnqueue rows",
          "[plugins][gang]") {
  Fixture f;
  plugins::GangScheduling plugin(f.handle);
  PodInfo& p1 = f.env.cluster.add_pod(gang_pod("p1"));

  SECTION("a pod without workloadRef succeeds") {
    const PodInfo& plain = f.env.cluster.add_pod(test::make_pod("plain"));
    CHECK(plugin.pre_enqueue(plain).ok());
  }
  SECTION("the workload is not yet created") {
    const Status status = plugin.pre_enqueue(p1);
    CHECK(status.code == Code::UnschedulableAndUnresolvable);
    CHECK(f.message(status) ==
          "waiting for pods's workload \"gang-wl\" to appear in scheduling queue");
  }
  SECTION("the pod group does not exist in the workload") {
    f.env.cluster.apply_workload(gang_workload(3));
    const PodInfo& wrong = f.env.cluster.add_pod(gang_pod("wrong", "nope"));
    const Status status = plugin.pre_enqueue(wrong);
    CHECK(status.code == Code::UnschedulableAndUnresolvable);
    CHECK(f.message(status) == "pod group \"nope\" doesn't exist for a workload \"gang-wl\"");
  }
  SECTION("a basic pod group succeeds at once") {
    f.env.cluster.apply_workload(gang_workload(3));
    const PodInfo& basic = f.env.cluster.add_pod(gang_pod("b", "basic"));
    CHECK(plugin.pre_enqueue(basic).ok());
  }
  SECTION("the quorum is not met, then met") {
    f.env.cluster.apply_workload(gang_workload(3));
    f.env.cluster.add_pod(gang_pod("p2"));
    // Another replica of the group and a terminated pod do not count.
    f.env.cluster.add_pod(gang_pod("other-replica", "pg1", "r2"));
    Pod done = gang_pod("done");
    done.status.phase = PodPhase::Succeeded;
    f.env.cluster.add_pod(std::move(done));
    const Status status = plugin.pre_enqueue(p1);
    CHECK(status.code == Code::UnschedulableAndUnresolvable);
    CHECK(f.message(status) ==
          "waiting for minCount pods from a gang to appear in scheduling queue");
    // A bound pod of the gang counts.
    f.env.add_bound(gang_pod("p3"), "n1");
    CHECK(plugin.pre_enqueue(p1).ok());
  }
}

TEST_CASE("GangScheduling Permit waits for minCount assumed or assigned pods, then allows them",
          "[plugins][gang]") {
  Fixture f;
  plugins::GangScheduling plugin(f.handle);
  f.env.cluster.apply_workload(gang_workload(3));
  PodInfo& p1 = f.env.cluster.add_pod(gang_pod("p1"));
  PodInfo& p2 = f.env.cluster.add_pod(gang_pod("p2"));
  PodInfo& p3 = f.env.cluster.add_pod(gang_pod("p3"));
  CycleState state(1);
  TimeMs timeout = 0;

  f.scheduler.clock = 10'000;
  REQUIRE(plugin.reserve(state, p1, *f.node) == Code::Success);
  Status status = plugin.permit(state, p1, *f.node, timeout);
  CHECK(status.code == Code::Wait);
  CHECK(f.message(status) == "waiting for minCount pods from a gang to be waiting on permit");
  // The group's deadline: the first Permit plus 5 minutes.
  CHECK(timeout == plugins::kGangSchedulingTimeout);
  CHECK(plugin.deadline(p1) == 10'000 + plugins::kGangSchedulingTimeout);
  // The group's unscheduled pods are activated.
  CHECK(f.scheduler.activated == std::vector<std::string>{"p2", "p3"});

  // A later pod waits the remaining time only.
  f.scheduler.clock = 70'000;
  REQUIRE(plugin.reserve(state, p2, *f.node) == Code::Success);
  CHECK(plugin.permit(state, p2, *f.node, timeout).code == Code::Wait);
  CHECK(timeout == plugins::kGangSchedulingTimeout - 60'000);
  const plugins::PodGroupCounts counts = plugin.counts(p1);
  CHECK(counts.all.size() == 3);
  CHECK(counts.assumed == 2);
  CHECK(counts.unscheduled.size() == 1);

  SECTION("the quorum met allows every assumed pod") {
    REQUIRE(plugin.reserve(state, p3, *f.node) == Code::Success);
    CHECK(plugin.permit(state, p3, *f.node, timeout).ok());
    CHECK(f.scheduler.allowed == std::vector<std::string>{"p1-uid@GangScheduling",
                                                          "p2-uid@GangScheduling",
                                                          "p3-uid@GangScheduling"});
  }
  SECTION("Unreserve forgets the pod: it no longer counts towards the quorum") {
    plugin.unreserve(state, p2, *f.node);
    REQUIRE(plugin.reserve(state, p3, *f.node) == Code::Success);
    CHECK(plugin.permit(state, p3, *f.node, timeout).code == Code::Wait);
    CHECK(f.scheduler.allowed.empty());
  }
  SECTION("a deadline passed starts a new one") {
    f.scheduler.clock = 10'000 + plugins::kGangSchedulingTimeout;
    CHECK(plugin.permit(state, p2, *f.node, timeout).code == Code::Wait);
    CHECK(timeout == plugins::kGangSchedulingTimeout);
  }
}

TEST_CASE("GangScheduling Permit lets a pod without gang policy pass, and errs without Workload",
          "[plugins][gang]") {
  Fixture f;
  plugins::GangScheduling plugin(f.handle);
  CycleState state(1);
  TimeMs timeout = 0;
  const PodInfo& plain = f.env.cluster.add_pod(test::make_pod("plain"));
  CHECK(plugin.permit(state, plain, *f.node, timeout).ok());
  const PodInfo& p1 = f.env.cluster.add_pod(gang_pod("p1"));
  const Status missing = plugin.permit(state, p1, *f.node, timeout);
  CHECK(missing.code == Code::Error);
  CHECK(
      f.message(missing) ==
      "failed to get workload default/gang-wl: workloads.scheduling.k8s.io \"gang-wl\" not found");
  f.env.cluster.apply_workload(gang_workload(2));
  const PodInfo& basic = f.env.cluster.add_pod(gang_pod("b", "basic"));
  CHECK(plugin.permit(state, basic, *f.node, timeout).ok());
}

TEST_CASE("GangScheduling's queueing hints: a pod of the same group, the pod's Workload",
          "[plugins][gang]") {
  Fixture f;
  plugins::GangScheduling plugin(f.handle);
  const PodInfo& p1 = f.env.cluster.add_pod(gang_pod("p1"));
  const PodInfo& same = f.env.cluster.add_pod(gang_pod("p2"));
  const PodInfo& other = f.env.cluster.add_pod(gang_pod("p3", "pg1", "r2"));
  const ClusterEvent pod_add{EventResource::Pod, action::kAdd, "UnscheduledPodAdd"};
  CHECK(plugin.queueing_hint(pod_add, p1, EventObjects{nullptr, nullptr, &same}) ==
        QueueingHint::Queue);
  CHECK(plugin.queueing_hint(pod_add, p1, EventObjects{nullptr, nullptr, &other}) ==
        QueueingHint::QueueSkip);
  const ClusterEvent workload_add{EventResource::Workload, action::kAdd, "WorkloadAdd"};
  const SchedulingWorkload mine = gang_workload(2);
  SchedulingWorkload elsewhere = gang_workload(2);
  elsewhere.metadata.namespace_ = "team-b";
  CHECK(plugin.queueing_hint(workload_add, p1, EventObjects{nullptr, nullptr, nullptr, &mine}) ==
        QueueingHint::Queue);
  CHECK(
      plugin.queueing_hint(workload_add, p1, EventObjects{nullptr, nullptr, nullptr, &elsewhere}) ==
      QueueingHint::QueueSkip);
}

// --- Kubernetes 1.36: PodGroup objects, pods' spec.schedulingGroup -----------------------

PodGroup pod_group(const std::string& name, std::optional<std::int32_t> min_count,
                   const std::string& ns = "ns1") {
  PodGroup group;
  group.metadata.name = name;
  group.metadata.namespace_ = ns;
  group.gang_min_count = min_count;
  return group;
}

Pod group_pod(const std::string& name, const std::string& group, const std::string& ns = "ns1") {
  Pod pod = test::make_pod(name, {test::container(test::res(100, 0))});
  pod.metadata.namespace_ = ns;
  pod.metadata.uid = name;
  pod.spec.scheduling_group = group;
  return pod;
}

TEST_CASE("GangScheduling 1.36 PreEnqueue: release-1.36 TestGangSchedulingFlow's rows",
          "[plugins][gang]") {
  Fixture f(36);
  plugins::GangScheduling plugin(f.handle);
  PodInfo& p1 = f.env.cluster.add_pod(group_pod("p1", "pg1"));
  f.env.cluster.add_pod(group_pod("p2", "pg1"));
  f.env.cluster.add_pod(group_pod("p4", "pg2"));
  f.env.cluster.add_pod(group_pod("p5", "pg2"));

  SECTION("a pod without schedulingGroup succeeds; a workloadRef is not 1.36's") {
    CHECK(plugin.pre_enqueue(f.env.cluster.add_pod(test::make_pod("non-gang"))).ok());
  }
  SECTION("gang pod fails PreEnqueue when pod group is not yet created") {
    const Status status = plugin.pre_enqueue(p1);
    CHECK(status.code == Code::UnschedulableAndUnresolvable);
    CHECK(f.message(status) ==
          "waiting for pods's pod group \"pg1\" to appear in scheduling queue");
  }
  SECTION("basic policy pod succeeds immediately") {
    f.env.cluster.apply_pod_group(pod_group("pg3", std::nullopt));
    CHECK(plugin.pre_enqueue(f.env.cluster.add_pod(group_pod("basic-pod", "pg3"))).ok());
  }
  SECTION("gang pod fails PreEnqueue when quorum is not met, passes once it is") {
    f.env.cluster.apply_pod_group(pod_group("pg1", 3));
    f.env.cluster.apply_pod_group(pod_group("pg2", 4));
    const Status status = plugin.pre_enqueue(p1);
    CHECK(status.code == Code::UnschedulableAndUnresolvable);
    CHECK(f.message(status) ==
          "waiting for minCount pods from a gang to appear in scheduling queue");
    // A pod of the same name in another namespace is not of the group.
    f.env.cluster.add_pod(group_pod("q3", "pg1", "ns2"));
    CHECK_FALSE(plugin.pre_enqueue(p1).ok());
    f.env.cluster.add_pod(group_pod("p3", "pg1"));
    CHECK(plugin.pre_enqueue(p1).ok());
    CHECK(plugin.min_count(p1) == 3);
  }
}

TEST_CASE("GangScheduling 1.36 Permit: 'to be scheduled', 5 minutes for each pod, then Allow",
          "[plugins][gang]") {
  Fixture f(36);
  plugins::GangScheduling plugin(f.handle);
  f.env.cluster.apply_pod_group(pod_group("pg1", 3));
  PodInfo& p1 = f.env.cluster.add_pod(group_pod("p1", "pg1"));
  PodInfo& p2 = f.env.cluster.add_pod(group_pod("p2", "pg1"));
  PodInfo& p3 = f.env.cluster.add_pod(group_pod("p3", "pg1"));
  CycleState state(1);
  TimeMs timeout = 0;

  f.scheduler.clock = 10'000;
  REQUIRE(plugin.reserve(state, p1, *f.node) == Code::Success);
  Status status = plugin.permit(state, p1, *f.node, timeout);
  CHECK(status.code == Code::Wait);
  CHECK(f.message(status) == "waiting for minCount pods from a gang to be scheduled");
  CHECK(timeout == plugins::kGangSchedulingTimeout);
  CHECK(f.scheduler.activated == std::vector<std::string>{"p2", "p3"});
  // permitTimeoutDuration: a later pod waits its own 5 minutes; there is no group deadline.
  f.scheduler.clock = 70'000;
  REQUIRE(plugin.reserve(state, p2, *f.node) == Code::Success);
  CHECK(plugin.permit(state, p2, *f.node, timeout).code == Code::Wait);
  CHECK(timeout == plugins::kGangSchedulingTimeout);
  CHECK_FALSE(plugin.deadline(p1).has_value());
  REQUIRE(plugin.reserve(state, p3, *f.node) == Code::Success);
  CHECK(plugin.permit(state, p3, *f.node, timeout).ok());
  CHECK(f.scheduler.allowed ==
        std::vector<std::string>{"p1@GangScheduling", "p2@GangScheduling", "p3@GangScheduling"});
}

TEST_CASE("GangScheduling 1.36 Permit errs without the PodGroup, passes a basic one",
          "[plugins][gang]") {
  Fixture f(36);
  plugins::GangScheduling plugin(f.handle);
  CycleState state(1);
  TimeMs timeout = 0;
  const PodInfo& p1 = f.env.cluster.add_pod(group_pod("p1", "pg1"));
  const Status missing = plugin.permit(state, p1, *f.node, timeout);
  CHECK(missing.code == Code::Error);
  CHECK(f.message(missing) ==
        "failed to get podGroup ns1/pg1: podgroups.scheduling.k8s.io \"pg1\" not found");
  f.env.cluster.apply_pod_group(pod_group("pg1", std::nullopt));
  CHECK(plugin.permit(state, p1, *f.node, timeout).ok());
}

TEST_CASE("GangScheduling 1.36 queueing hints: Test_isSchedulableAfterPodAdded / PodGroupAdded",
          "[plugins][gang]") {
  Fixture f(36);
  plugins::GangScheduling plugin(f.handle);
  const std::vector<ClusterEventWithHint> events = plugin.events_to_register();
  REQUIRE(events.size() == 2);
  CHECK(events[1].event.resource == EventResource::PodGroup);
  const PodInfo& p = f.env.cluster.add_pod(group_pod("p", "pg"));
  const PodInfo& same = f.env.cluster.add_pod(group_pod("q", "pg"));
  const PodInfo& other_ns = f.env.cluster.add_pod(group_pod("r", "pg", "foo"));
  const PodInfo& other_group = f.env.cluster.add_pod(group_pod("s", "pg2"));
  const ClusterEvent pod_add{EventResource::Pod, action::kAdd, "UnscheduledPodAdd"};
  CHECK(plugin.queueing_hint(pod_add, p, EventObjects{.pod = &same}) == QueueingHint::Queue);
  CHECK(plugin.queueing_hint(pod_add, p, EventObjects{.pod = &other_ns}) ==
        QueueingHint::QueueSkip);
  CHECK(plugin.queueing_hint(pod_add, p, EventObjects{.pod = &other_group}) ==
        QueueingHint::QueueSkip);
  const ClusterEvent group_add{EventResource::PodGroup, action::kAdd, "PodGroupAdd"};
  const PodGroup mine = pod_group("pg", 1);
  const PodGroup elsewhere = pod_group("pg", 1, "ns2");
  const PodGroup another = pod_group("pg2", 1);
  CHECK(plugin.queueing_hint(group_add, p, EventObjects{.pod_group = &mine}) ==
        QueueingHint::Queue);
  CHECK(plugin.queueing_hint(group_add, p, EventObjects{.pod_group = &elsewhere}) ==
        QueueingHint::QueueSkip);
  CHECK(plugin.queueing_hint(group_add, p, EventObjects{.pod_group = &another}) ==
        QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
