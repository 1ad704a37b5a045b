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
