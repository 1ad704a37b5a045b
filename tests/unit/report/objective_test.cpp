// Objectives: `<metric><op><value>` with numbers, durations and percentages, checked against
// summary metrics.
#include "gpusched/report/objective.hpp"

#include <catch2/catch.hpp>

namespace gpusched::report {
namespace {

Objective parsed(const std::string& text) {
  std::string error;
  std::optional<Objective> objective = parse_objective(text, &error);
  INFO(error);
  REQUIRE(objective);
  return *objective;
}

std::string parse_error(const std::string& text) {
  std::string error;
  CHECK_FALSE(parse_objective(text, &error));
  return error;
}

TEST_CASE("objectives parse their metric, operator and bound", "[report][objective]") {
  Objective o = parsed("pending==0");
  CHECK(o.metric == "pending");
  CHECK(o.op == Objective::Op::Equal);
  CHECK(o.kind == Objective::Kind::Number);
  CHECK(o.bound == 0);
  o = parsed(" wait.p95 < 10m ");
  CHECK(o.metric == "wait.p95");
  CHECK(o.op == Objective::Op::Less);
  CHECK(o.kind == Objective::Kind::Duration);
  CHECK(o.bound == 600'000);
  o = parsed("allocation.nvidia.com/gpu>=80%");
  CHECK(o.metric == "allocation.nvidia.com/gpu");
  CHECK(o.op == Objective::Op::GreaterEqual);
  CHECK(o.kind == Objective::Kind::Percent);
  CHECK(o.bound == Approx(0.8));
  CHECK(parsed("wait.p95{priorityClass=high}<=1h30m").bound == 5'400'000);
  CHECK(parsed("jobs.failed!=1").op == Objective::Op::NotEqual);
  CHECK(parsed("gpuHours.allocated>2.5").bound == 2.5);
}

TEST_CASE("malformed objectives say what is wrong", "[report][objective]") {
  CHECK_THAT(parse_error("pending"), Catch::Contains("has no comparison"));
  CHECK_THAT(parse_error("<3"), Catch::Contains("names no metric"));
  CHECK_THAT(parse_error("wait.p95<soon"),
             Catch::Contains("neither a number, a percentage nor a duration"));
  CHECK_THAT(parse_error("allocation.cpu>x%"), Catch::Contains("is not a percentage"));
}

TEST_CASE("objectives are checked against metrics of the right unit", "[report][objective]") {
  const std::vector<Metric> metrics{{"pending", 2, MetricUnit::Count},
                                    {"wait.p95", 120'000, MetricUnit::Duration},
                                    {"allocation.cpu", 0.75, MetricUnit::Ratio}};
  std::string error;
  CHECK(objective_met(parsed("pending<=2"), metrics, &error) == true);
  CHECK(objective_met(parsed("pending==0"), metrics, &error) == false);
  CHECK(objective_met(parsed("wait.p95<10m"), metrics, &error) == true);
  CHECK(objective_met(parsed("wait.p95<2m"), metrics, &error) == false);
  CHECK(objective_met(parsed("wait.p95>0"), metrics, &error) == true);
  CHECK(objective_met(parsed("allocation.cpu>=75%"), metrics, &error) == true);
  CHECK(objective_met(parsed("allocation.cpu>0.8"), metrics, &error) == false);
  // A metric the replay lacks (no pod of that class) reads as 0.
  CHECK(objective_met(parsed("wait.p95{priorityClass=x}<1s"), metrics, &error) == true);
  CHECK_FALSE(objective_met(parsed("wait.p95<100"), metrics, &error));
  CHECK_THAT(error, Catch::Contains("wait.p95 is a duration"));
  CHECK_FALSE(objective_met(parsed("pending<5m"), metrics, &error));
  CHECK_THAT(error, Catch::Contains("pending is a number"));
  CHECK_FALSE(objective_met(parsed("pending<5%"), metrics, &error));
}

}  // namespace
}  // namespace gpusched::report

namespace gpusched::report {
namespace {

TEST_CASE("queue objectives read a Kueue queue's metric", "[report][objective][kueue]") {
  Objective o = parsed("cq/research:wait.p95<30m");
  CHECK(o.metric == "kueue.wait.p95{clusterQueue=research}");
  CHECK(o.scope == Objective::Scope::ClusterQueue);
  CHECK(o.queue == "research");
  CHECK(o.bound == 1'800'000);
  o = parsed("lq/team-a/train:wait.p99 <= 1h");
  CHECK(o.metric == "kueue.wait.p99{localQueue=team-a/train}");
  CHECK(o.scope == Objective::Scope::LocalQueue);
  CHECK(o.queue == "team-a/train");
  CHECK(parsed("cq/research:borrowedHours.nvidia.com/gpu<=100").metric ==
        "kueue.borrowedHours.nvidia.com/gpu{clusterQueue=research}");
  CHECK(parsed("wait.p95<1m").scope == Objective::Scope::None);

  for (const char* bad : {"cq/:wait.p95<1m", "cq/research<1m", "cq/a/b:wait.p95<1m",
                          "cq/research:<1m", "cq/research:wait.p95{x=y}<1m"}) {
    CHECK_THAT(parse_error(bad),
               Catch::Contains("write a queue's objective as cq/<ClusterQueue>:<metric>"));
  }
  for (const char* bad : {"lq/team-a:wait.p95<1m", "lq//train:wait.p95<1m", "lq/a/:x<1"}) {
    CHECK_THAT(parse_error(bad), Catch::Contains("lq/<namespace>/<LocalQueue>:<metric>"));
  }
}

TEST_CASE("unknown_queue names the queues a replay has", "[report][objective][kueue]") {
  SimulationResult result;
  result.cluster_queues.push_back(ClusterQueueRecord{"team-a", {}, {}, {}, 0, 0, 0, {}});
  result.cluster_queues.push_back(ClusterQueueRecord{"team-b", {}, {}, {}, 0, 0, 0, {}});
  result.local_queues = {"team-a/train"};
  CHECK(unknown_queue(parsed("cq/team-a:wait.p95<1m"), result).empty());
  CHECK(unknown_queue(parsed("lq/team-a/train:wait.p95<1m"), result).empty());
  CHECK(unknown_queue(parsed("wait.p95<1m"), result).empty());
  CHECK(unknown_queue(parsed("cq/team-c:wait.p95<30m"), result) ==
        "objective \"cq/team-c:wait.p95<30m\" names ClusterQueue \"team-c\", which the replay "
        "does not have (its ClusterQueues: team-a, team-b)");
  CHECK(unknown_queue(parsed("lq/team-b/x:wait.p95<1m"), result) ==
        "objective \"lq/team-b/x:wait.p95<1m\" names LocalQueue \"team-b/x\", which the replay "
        "does not have (its LocalQueues: team-a/train)");
  CHECK_THAT(unknown_queue(parsed("cq/a:wait.p95<1m"), SimulationResult{}),
             Catch::EndsWith("(it has none)"));
}

}  // namespace
}  // namespace gpusched::report
