// The scheduling queue against upstream's pkg/scheduler/backend/queue (1.33: QueueingHints and
// SchedulerPopFromBackoffQ on): PrioritySort order, backoff 1s doubling to 10s with whole-second
// flushes, hint-driven requeueing, and the 5-minute leftover flush on 30 s ticks.
#include "scheduler/scheduling_queue.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "plugins/registry.hpp"
#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

struct QueueEnv {
  QueueEnv()
      : handle(env.handle()),
        framework(Profile{}, handle, plugins::in_tree_registry()),
        queue(1000, 10000) {}

  PodInfo& pod(const std::string& name, std::int32_t priority = 0) {
    Pod p = test::make_pod(name, {test::container({{"cpu", test::milli(100)}})});
    p.spec.priority = priority;
    return env.cluster.add_pod(p);
  }

  /// Pops the next pod and puts it back as a failure rejected by `plugins` (none: an error).
  QueuedPod& fail_next(TimeMs now, std::set<std::string, std::less<>> plugins) {
    QueuedPod* qp = queue.pop();
    REQUIRE(qp != nullptr);
    qp->unschedulable_plugins = std::move(plugins);
    queue.add_unschedulable(*qp, now);
    return *qp;
  }

  test::Env env;
  Handle handle;
  Framework framework;
  SchedulingQueue queue;
};

TEST_CASE("SchedulingQueue: PrioritySort pops by priority, then queue timestamp", "[queue]") {
  QueueEnv q;
  struct Entry {
    std::string name;
    std::int32_t priority;
    TimeMs added;
  };
  const std::vector<Entry> entries = {
      {"low", 0, 0},          {"mid-late", 5, 2000}, {"high", 10, 5000},
      {"mid-early", 5, 1000}, {"negative", -3, 0},   {"low-late", 0, 3000},
  };
  for (const Entry& e : entries) q.queue.add(q.pod(e.name, e.priority), q.framework, e.added);
  std::vector<std::string> order;
  while (QueuedPod* qp = q.queue.pop()) {
    order.push_back(qp->pod->pod.metadata.name);
    q.queue.remove(*qp->pod);
  }
  CHECK(order ==
        std::vector<std::string>{"high", "mid-early", "mid-late", "low", "low-late", "negative"});
}

TEST_CASE("SchedulingQueue: backoff doubles from 1s to the 10s cap", "[queue]") {
  // calculateBackoffDuration: 1, 2, 4, 8, 10, 10 s for attempts 1..6. The expiry is truncated to
  // the 1 s ordering window and the error backoff queue is flushed at the first whole second
  // after it (isPodBackingoff is true while expiry >= now truncated).
  QueueEnv q;
  PodInfo& pod = q.pod("p");
  TimeMs now = 0;
  q.queue.add(pod, q.framework, now);
  const std::vector<TimeMs> want = {1000, 2000, 4000, 8000, 10000, 10000};
  for (std::size_t attempt = 0; attempt < want.size(); ++attempt) {
    INFO("attempt " << attempt + 1);
    QueuedPod& qp = q.fail_next(now, {});  // no rejecting plugin: error backoff queue
    CHECK(qp.attempts == static_cast<int>(attempt + 1));
    CHECK(qp.where == QueuedPod::Where::ErrorBackoff);
    CHECK_FALSE(q.queue.has_ready());  // never popped before its backoff ends
    const auto timer = q.queue.next_timer(now);
    REQUIRE(timer.has_value());
    CHECK(*timer - now == want[attempt] + 1000);
    // At the expiry itself the pod is still backing off.
    q.queue.on_timer(now + want[attempt]);
    CHECK(qp.where == QueuedPod::Where::ErrorBackoff);
    CHECK_FALSE(q.queue.has_ready());
    now = *timer;
    q.queue.on_timer(now);
    CHECK(qp.where == QueuedPod::Where::Active);
    CHECK(q.queue.has_ready());
  }
}

TEST_CASE("SchedulingQueue: backoff expiry is truncated to whole seconds", "[queue]") {
  // Timestamp 10.3 s + 1 s = 11.3 s -> expiry 11.0 s -> released by the flush at 12.0 s.
  QueueEnv q;
  PodInfo& pod = q.pod("p");
  q.queue.add(pod, q.framework, 10300);
  QueuedPod& qp = q.fail_next(10300, {});
  const auto timer = q.queue.next_timer(10300);
  REQUIRE(timer.has_value());
  CHECK(*timer == 12000);
  q.queue.on_timer(11999);
  CHECK(qp.where == QueuedPod::Where::ErrorBackoff);
  q.queue.on_timer(12000);
  CHECK(qp.where == QueuedPod::Where::Active);
}

TEST_CASE("SchedulingQueue: unschedulable pods move only on events whose hint says Queue",
          "[queue]") {
  QueueEnv q;
  q.env.cluster.add_node(test::make_node("n", {{"cpu", test::milli(1000)}}));
  PodInfo& assigned = q.env.add_bound(test::make_pod("assigned"), "n");
  PodInfo& unassigned = q.env.cluster.add_pod(test::make_pod("unassigned"));
  PodInfo& pod = q.pod("p");
  q.queue.add(pod, q.framework, 0);
  QueuedPod& qp = q.fail_next(0, {"NodeResourcesFit"});
  REQUIRE(qp.where == QueuedPod::Where::Unschedulable);
  CHECK_FALSE(q.queue.has_ready());

  const ClusterEvent pod_delete{EventResource::Pod, action::kDelete, "AssignedPodDelete"};
  SECTION("an unassigned pod deleted: QueueSkip, the pod stays") {
    q.queue.move_for_event(pod_delete, {nullptr, nullptr, &unassigned}, 500);
    CHECK(qp.where == QueuedPod::Where::Unschedulable);
    CHECK_FALSE(q.queue.has_ready());
  }
  SECTION("a node label change: no NodeResourcesFit registration matches, the pod stays") {
    NodeInfo* node = q.env.cluster.find_node("n");
    const Node old_node = node->node;
    q.queue.move_for_event({EventResource::Node, action::kUpdateNodeLabel, "NodeLabelChange"},
                           {&old_node, node, nullptr}, 500);
    CHECK(qp.where == QueuedPod::Where::Unschedulable);
  }
  SECTION("an assigned pod deleted while backing off: Queue, to the backoff queue") {
    q.queue.move_for_event(pod_delete, {nullptr, nullptr, &assigned}, 500);
    CHECK(qp.where == QueuedPod::Where::Backoff);
    // SchedulerPopFromBackoffQ: with the active queue empty, Pop takes it before expiry.
    CHECK(q.queue.has_ready());
    CHECK(q.queue.pop() == &qp);
  }
  SECTION("an assigned pod deleted after the backoff: Queue, to the active queue") {
    q.queue.move_for_event(pod_delete, {nullptr, nullptr, &assigned}, 2000);
    CHECK(qp.where == QueuedPod::Where::Active);
  }
  SECTION("a wildcard event queues after backoff without asking the hints") {
    q.queue.move_for_event({EventResource::WildCard, action::kAll, "UnschedulableTimeout"}, {},
                           2000);
    CHECK(qp.where == QueuedPod::Where::Active);
  }
}

TEST_CASE("SchedulingQueue: only the rejecting plugins' hints are asked", "[queue]") {
  QueueEnv q;
  q.env.cluster.add_node(test::make_node("n", {{"cpu", test::milli(1000)}}));
  PodInfo& assigned = q.env.add_bound(test::make_pod("assigned"), "n");
  PodInfo& pod = q.pod("p");
  q.queue.add(pod, q.framework, 0);
  // Rejected by TaintToleration only: a pod deletion does not concern it.
  QueuedPod& qp = q.fail_next(0, {"TaintToleration"});
  q.queue.move_for_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                         {nullptr, nullptr, &assigned}, 5000);
  CHECK(qp.where == QueuedPod::Where::Unschedulable);
  // A new node without taints does.
  NodeInfo& fresh = q.env.cluster.add_node(test::make_node("fresh"));
  q.queue.move_for_event({EventResource::Node, action::kAdd, "NodeAdd"}, {nullptr, &fresh, nullptr},
                         5000);
  CHECK(qp.where == QueuedPod::Where::Active);
}

TEST_CASE("SchedulingQueue: leftover unschedulable pods are flushed after more than 5 minutes",
          "[queue]") {
  struct Row {
    std::string name;
    TimeMs failed_at;
    TimeMs flush_at;  // the first 30 s tick with now - timestamp > 5 min
  };
  const std::vector<Row> rows = {
      {"failed at 0: not at 5:00 (not strictly more), at 5:30", 0, 330000},
      {"failed at 1.234 s: at 5:30", 1234, 330000},
      {"failed at 29.999 s: at 5:30", 29999, 330000},
      {"failed at 30 s: not at 5:30, at 6:00", 30000, 360000},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      QueueEnv q;
      PodInfo& pod = q.pod("p");
      q.queue.add(pod, q.framework, row.failed_at);
      QueuedPod& qp = q.fail_next(row.failed_at, {"NodeResourcesFit"});
      REQUIRE(qp.where == QueuedPod::Where::Unschedulable);
      const auto timer = q.queue.next_timer(row.failed_at);
      REQUIRE(timer.has_value());
      CHECK(*timer == row.flush_at);
      q.queue.on_timer(row.flush_at - 30000);
      CHECK(qp.where == QueuedPod::Where::Unschedulable);
      q.queue.on_timer(row.flush_at);
      CHECK(qp.where == QueuedPod::Where::Active);
    }
  }
}

}  // namespace
}  // namespace gpusched
