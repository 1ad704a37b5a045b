// Kueue v0.19.2's fair sharing preemption table (pkg/scheduler/preemption/preemption_fair_test.go
// TestFairPreemptions), transcribed case by case with upstream's names and run against the
// preemptor with fair sharing on (fairPreemptions): the targets GetTargets returns and their
// reasons. Admitted workloads take their name as UID, as upstream sets it. All of its cases are
// here; TestFairPreemptionSkipsUnsatisfiableTournament, which counts log lines, is not.

#include "preemption_case.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's utiltestingapi

// A workload `name` requesting `cpu`, reserving quota in `cq` (flavor "default" unless given).
Workload admitted(const std::string& name, std::string_view cpu, const std::string& cq,
                  std::int32_t priority = 0, const std::string& flavor = "default") {
  return WorkloadBuilder(name, "")
      .uid(name)
      .priority(priority)
      .request("cpu", cpu)
      .simple_reserve_quota(cq, flavor, kNow);
}

Workload incoming(const std::string& name, std::string_view cpu, std::int32_t priority = 0) {
  return WorkloadBuilder(name, "").priority(priority).request("cpu", cpu);
}

// TestFairPreemptions' baseCQs: a, b, c with 3 CPUs each (LowerPriority within, Any in the
// cohort, borrowWithinCohort LowerPriority under -3) and "preemptible" with none.
std::vector<ClusterQueue> base_cqs() {
  std::vector<ClusterQueue> out;
  for (const char* name : {"a", "b", "c"}) {
    out.push_back(
        ClusterQueueBuilder(name)
            .cohort("all")
            .resource_group({FlavorQuotasBuilder("default").resource("cpu", "3")})
            .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                   PreemptionPolicy::LowerPriority, -3)));
  }
  out.push_back(ClusterQueueBuilder("preemptible")
                    .cohort("all")
                    .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")}));
  return out;
}

// "CQ with higher weight can preempt more" and the weight-0 cases: a, b, c with 3 CPUs each,
// LowerPriority within and Any in the cohort, the weights given.
std::vector<ClusterQueue> weighted_cqs(
    const std::vector<std::pair<std::string, std::string>>& cqs) {
  std::vector<ClusterQueue> out;
  for (const auto& [name, weight] : cqs) {
    ClusterQueueBuilder b(name);
    b.cohort("all")
        .resource_group({FlavorQuotasBuilder("default").resource("cpu", "3")})
        .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                               PreemptionPolicy::LowerPriority));
    if (!weight.empty()) b.fair_weight(weight);
    out.push_back(b);
  }
  return out;
}

std::vector<Workload> units(const std::string& cq, int count, int first = 1) {
  std::vector<Workload> out;
  for (int i = first; i < first + count; ++i)
    out.push_back(admitted(cq + std::to_string(i), "1", cq));
  return out;
}

std::vector<Workload> concat(std::initializer_list<std::vector<Workload>> lists) {
  std::vector<Workload> out;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  return out;
}

PreemptionCase fair_case(std::vector<ClusterQueue> cqs, std::vector<Workload> wls, Workload in,
                         std::string target, std::set<std::pair<std::string, std::string>> want,
                         std::vector<KueuePreemptionStrategy> strategies = {},
                         std::string flavor = "default") {
  PreemptionCase c;
  c.cluster_queues = std::move(cqs);
  c.admitted = std::move(wls);
  c.incoming = std::move(in);
  c.target_cq = std::move(target);
  c.assignment = {{"main", 1, {{"cpu", std::move(flavor), AssignmentMode::Preempt}}}};
  c.want_preempted = want.size();
  c.want = std::move(want);
  c.fair_strategies = std::move(strategies);
  return c;
}

constexpr const char* kReclamation = "InCohortReclamation";
constexpr const char* kFair = "InCohortFairSharing";
constexpr const char* kInCq = "InClusterQueue";

TEST_CASE("TestFairPreemptions: base ClusterQueues", "[kueue][preemption][fair_sharing]") {
  SECTION("reclaim nominal from user using the most") {
    check(fair_case(base_cqs(), concat({units("a", 3), units("b", 5), units("c", 1)}),
                    incoming("c_incoming", "1"), "c", {{"/b1", kReclamation}}));
  }
  SECTION(
      "can reclaim from queue using less, if taking the latest workload from user using the "
      "most isn't enough") {
    check(fair_case(base_cqs(),
                    {admitted("a1", "3", "a"), admitted("a2", "1", "a"), admitted("b1", "2", "b"),
                     admitted("b2", "3", "b")},
                    incoming("c_incoming", "3"), "c", {{"/a1", kReclamation}}));
  }
  SECTION("reclaim borrowable quota from user using the most") {
    check(fair_case(base_cqs(), concat({units("a", 3), units("b", 5), units("c", 1)}),
                    incoming("a_incoming", "1"), "a", {{"/b1", kFair}}));
  }
  SECTION("preempt one from each CQ borrowing") {
    check(fair_case(
        base_cqs(),
        {admitted("a1", "0.5", "a"), admitted("a2", "0.5", "a"), admitted("a3", "3", "a"),
         admitted("b1", "0.5", "b"), admitted("b2", "0.5", "b"), admitted("b3", "3", "b")},
        incoming("c_incoming", "2"), "c", {{"/a1", kReclamation}, {"/b1", kReclamation}}));
  }
  SECTION("can't preempt when everyone under nominal") {
    check(fair_case(base_cqs(), concat({units("a", 3), units("b", 3), units("c", 3)}),
                    incoming("c_incoming", "1"), "c", {}));
  }
  SECTION("can't preempt when it would switch the imbalance") {
    check(fair_case(base_cqs(), concat({units("a", 3), units("b", 5)}), incoming("a_incoming", "2"),
                    "a", {}));
  }
  SECTION("can preempt lower priority workloads from same CQ") {
    check(fair_case(base_cqs(),
                    concat({{admitted("a1_low", "1", "a", -1), admitted("a2_low", "1", "a", -1),
                             admitted("a3", "1", "a"), admitted("a4", "1", "a")},
                            units("b", 5)}),
                    incoming("a_incoming", "2"), "a", {{"/a1_low", kInCq}, {"/a2_low", kInCq}}));
  }
  SECTION("can preempt a combination of same CQ and highest user") {
    check(fair_case(base_cqs(),
                    concat({{admitted("a_low", "1", "a", -1), admitted("a2", "1", "a"),
                             admitted("a3", "1", "a")},
                            units("b", 6)}),
                    incoming("a_incoming", "2"), "a", {{"/a_low", kInCq}, {"/b1", kFair}}));
  }
  SECTION(
      "preempt huge workload if there is no other option, as long as the target CQ gets a "
      "lower share") {
    check(fair_case(base_cqs(), {admitted("b1", "9", "b")}, incoming("a_incoming", "2"), "a",
                    {{"/b1", kReclamation}}));
  }
  SECTION("can't preempt huge workload if the incoming is also huge") {
    check(fair_case(base_cqs(), {admitted("a1", "2", "a"), admitted("b1", "7", "b")},
                    incoming("a_incoming", "5"), "a", {}));
  }
  SECTION("can't preempt 2 smaller workloads if the incoming is huge") {
    check(fair_case(base_cqs(),
                    {admitted("b1", "2", "b"), admitted("b2", "2", "b"), admitted("b3", "3", "b")},
                    incoming("a_incoming", "6"), "a", {}));
  }
  SECTION("preempt from target and others even if over nominal") {
    check(fair_case(base_cqs(),
                    {admitted("a1_low", "2", "a", -1), admitted("a2_low", "1", "a", -1),
                     admitted("b1", "3", "b"), admitted("b2", "3", "b")},
                    incoming("a_incoming", "4"), "a", {{"/a1_low", kInCq}, {"/b1", kFair}}));
  }
  SECTION("prefer to preempt workloads that don't make the target CQ have the biggest share") {
    check(fair_case(base_cqs(),
                    {admitted("b1", "2", "b"), admitted("b2", "1", "b"), admitted("b3", "2", "b"),
                     admitted("c1", "1", "c")},
                    incoming("a_incoming", "3.5"), "a", {{"/b2", kFair}}));
  }
  SECTION("preempt from different cluster queues if the end result has a smaller max share") {
    check(fair_case(base_cqs(),
                    {admitted("b1", "2", "b"), admitted("b2", "2.5", "b"), admitted("c1", "2", "c"),
                     admitted("c2", "2.5", "c")},
                    incoming("a_incoming", "3.5"), "a", {{"/b1", kFair}, {"/c1", kFair}}));
  }
  SECTION("scenario above does not flap") {
    check(fair_case(
        base_cqs(),
        {admitted("a1", "3.5", "a"), admitted("b2", "2.5", "b"), admitted("c2", "2.5", "c")},
        incoming("b_incoming", "2"), "b", {}));
  }
  SECTION(
      "cannot preempt if it would make the candidate CQ go under nominal after preempting one "
      "element") {
    check(fair_case(base_cqs(),
                    {admitted("b1", "3", "b"), admitted("b2", "3", "b"), admitted("c1", "3", "c")},
                    incoming("a_incoming", "4"), "a", {}));
  }
  SECTION("workloads under priority threshold not capriciously preempted") {
    check(fair_case(base_cqs(),
                    concat({units("a", 3),
                            units("b", 3),
                            {admitted("preemptible1", "1", "preemptible", -3),
                             admitted("preemptible2", "1", "preemptible", -3),
                             admitted("preemptible3", "1", "preemptible", -3)}}),
                    incoming("a_incoming", "2"), "a", {}));
  }
  SECTION("preempt lower priority first, even if big") {
    check(fair_case(
        base_cqs(),
        {admitted("a1", "3", "a"), admitted("b_low", "5", "b", 0), admitted("b_high", "1", "b", 1)},
        incoming("a_incoming", "1"), "a", {{"/b_low", kFair}},
        {KueuePreemptionStrategy::LessThanInitialShare}));
  }
  SECTION("preempt workload that doesn't transfer the imbalance, even if high priority") {
    check(fair_case(
        base_cqs(),
        {admitted("a1", "3", "a"), admitted("b_low", "5", "b", 0), admitted("b_high", "1", "b", 1)},
        incoming("a_incoming", "1"), "a", {{"/b_high", kFair}},
        {KueuePreemptionStrategy::LessThanOrEqualToFinalShare}));
  }
}

TEST_CASE("TestFairPreemptions: weights", "[kueue][preemption][fair_sharing]") {
  SECTION("CQ with higher weight can preempt more") {
    check(fair_case(weighted_cqs({{"a", "2"}, {"b", ""}, {"c", ""}}),
                    concat({units("a", 3), units("b", 6)}), incoming("a_incoming", "2"), "a",
                    {{"/b1", kFair}, {"/b2", kFair}}));
  }
  SECTION("can preempt anything borrowing from CQ with 0 weight") {
    check(fair_case(weighted_cqs({{"a", ""}, {"b", "0"}, {"c", ""}}),
                    concat({units("a", 3), units("b", 6)}), incoming("a_incoming", "3"), "a",
                    {{"/b1", kFair}, {"/b2", kFair}, {"/b3", kFair}}));
  }
  SECTION("can't preempt nominal from CQ with 0 weight") {
    check(fair_case(weighted_cqs({{"a", ""}, {"b", "0"}}), concat({units("a", 3), units("b", 3)}),
                    incoming("a_incoming", "1"), "a", {}));
  }
  SECTION("can't preempt nominal from Cohort with 0 weight") {
    PreemptionCase c =
        fair_case({ClusterQueueBuilder("left-cq")
                       .cohort("root")
                       .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                       .preemption(preemption(PreemptionPolicy::Any)),
                   ClusterQueueBuilder("right-cq")
                       .cohort("right-cohort")
                       .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                       .preemption(preemption(PreemptionPolicy::Any))
                       .fair_weight("0")},
                  {admitted("right-1", "1", "right-cq")}, incoming("left-1", "1"), "left-cq", {});
    c.cohorts = {CohortBuilder("right-cohort")
                     .fair_weight("0")
                     .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})
                     .parent("root")};
    check(c);
  }
  SECTION("can preempt within cluster queue when no cohort") {
    check(fair_case(
        {ClusterQueueBuilder("a")
             .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})
             .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                    PreemptionPolicy::LowerPriority))},
        {admitted("a1", "1", "a")}, incoming("a_incoming", "1", 1000), "a", {{"/a1", kInCq}}));
  }
  SECTION("cq with zero weight can reclaim nominal quota") {
    check(fair_case({ClusterQueueBuilder("a")
                         .cohort("ROOT")
                         .fair_weight("0.0")
                         .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})
                         .preemption(preemption(PreemptionPolicy::Any)),
                     ClusterQueueBuilder("b")
                         .cohort("ROOT")
                         .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                         .fair_weight("1.0")},
                    {admitted("b1", "1", "b")}, incoming("a1", "1"), "a", {{"/b1", kReclamation}}));
  }
  SECTION("cohort with zero weight can reclaim nominal quota") {
    PreemptionCase c =
        fair_case({ClusterQueueBuilder("a")
                       .cohort("A")
                       .fair_weight("0.0")
                       .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                       .preemption(preemption(PreemptionPolicy::Any)),
                   ClusterQueueBuilder("b")
                       .cohort("ROOT")
                       .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                       .fair_weight("1.0")},
                  {admitted("b1", "1", "b")}, incoming("a1", "1"), "a", {{"/b1", kFair}});
    c.cohorts = {CohortBuilder("A").parent("ROOT").fair_weight("0.0").resource_group(
        {FlavorQuotasBuilder("default").resource("cpu", "1")})};
    check(c);
  }
  SECTION("nominal first: workload fitting within nominal can preempt despite high aggregate DRS") {
    check(fair_case(
        {ClusterQueueBuilder("a")
             .cohort("all")
             .resource_group({FlavorQuotasBuilder("premium").resource("cpu", "3"),
                              FlavorQuotasBuilder("cheap").resource("cpu", "0")})
             .preemption(preemption(PreemptionPolicy::Any)),
         ClusterQueueBuilder("b").cohort("all").resource_group(
             {FlavorQuotasBuilder("premium").resource("cpu", "0"),
              FlavorQuotasBuilder("cheap").resource("cpu", "6")})},
        {admitted("a_prem1", "1", "a", 0, "premium"), admitted("a_prem2", "1", "a", 0, "premium"),
         admitted("a_cheap1", "1", "a", 0, "cheap"), admitted("a_cheap2", "1", "a", 0, "cheap"),
         admitted("a_cheap3", "1", "a", 0, "cheap"), admitted("a_cheap4", "1", "a", 0, "cheap"),
         admitted("a_cheap5", "1", "a", 0, "cheap"), admitted("b_prem1", "1", "b", 0, "premium")},
        incoming("a_incoming", "1"), "a", {{"/b_prem1", kReclamation}}, {}, "premium"));
  }
  SECTION(
      "zero weight borrowing preemptor cannot preempt from a borrowing CQ with a non-zero "
      "weight") {
    check(fair_case({ClusterQueueBuilder("a")
                         .cohort("all")
                         .fair_weight("0")
                         .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})
                         .preemption(preemption(PreemptionPolicy::Any)),
                     ClusterQueueBuilder("b").cohort("all").fair_weight("1").resource_group(
                         {FlavorQuotasBuilder("default").resource("cpu", "1")})},
                    {admitted("a1", "1", "a"), admitted("b1", "1", "b"), admitted("b2", "1", "b")},
                    incoming("a_incoming", "1"), "a", {}));
  }
}

TEST_CASE("TestFairPreemptions: hierarchical preemption", "[kueue][preemption][fair_sharing]") {
  auto unit_cq = [](const std::string& name, const std::string& cohort) {
    return ClusterQueueBuilder(name).cohort(cohort).resource_group(
        {FlavorQuotasBuilder("default").resource("cpu", "1")});
  };
  std::vector<Workload> wls;
  for (const char* cq : {"b", "c", "d", "e"}) {
    for (int p = 1; p <= 5; ++p)
      wls.push_back(admitted(std::string(cq) + std::to_string(p), "1", cq, p));
  }
  PreemptionCase c = fair_case(
      {unit_cq("a", "LEFT").fair_weight("2").preemption(preemption(PreemptionPolicy::Any)),
       unit_cq("b", "LEFT"), unit_cq("c", "ROOT"), unit_cq("d", "RIGHT"),
       // for determinism, we slightly prefer preemptions from e compared to d.
       unit_cq("e", "RIGHT").fair_weight("0.99")},
      wls, incoming("unit", "5"), "a",
      {{"/b1", kFair}, {"/b2", kFair}, {"/c1", kFair}, {"/c2", kFair}, {"/e1", kFair}});
  c.cohorts = {
      CohortBuilder("ROOT").resource_group({FlavorQuotasBuilder("default").resource("cpu", "5")}),
      CohortBuilder("LEFT").fair_weight("2").parent("ROOT").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "5")}),
      CohortBuilder("RIGHT").parent("ROOT").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "5")})};
  check(c);
}

// ROOT with a(3,5,5) and RIGHT(1,1,1) over b(1,0,0): a of weight 10 wants 5.
PreemptionCase right_cohort_case(std::string_view right_quota, std::vector<Workload> wls,
                                 std::string_view incoming_cpu, PreemptionPolicy reclaim) {
  PreemptionCase c =
      fair_case({ClusterQueueBuilder("a")
                     .cohort("ROOT")
                     .fair_weight("10")
                     .resource_group({FlavorQuotasBuilder("default").resource("cpu", "5")})
                     .preemption(preemption(reclaim, BorrowWithinCohortPolicy::Never,
                                            PreemptionPolicy::LowerPriority)),
                 ClusterQueueBuilder("b").cohort("RIGHT").fair_weight("0.1")},
                std::move(wls), incoming("unit", incoming_cpu), "a",
                {{"/a1", kInCq}, {"/a2", kInCq}, {"/a3", kInCq}});
  c.cohorts = {CohortBuilder("ROOT"),
               CohortBuilder("RIGHT").parent("ROOT").fair_weight("0.1").resource_group(
                   {FlavorQuotasBuilder("default").resource("cpu", right_quota)})};
  return c;
}

TEST_CASE("TestFairPreemptions: borrowing cq in non-borrowing cohort is protected",
          "[kueue][preemption][fair_sharing]") {
  // Though ClusterQueue b is borrowing, its Cohort is not, so it cannot be preempted.
  check(right_cohort_case("1",
                          {admitted("a1", "1", "a", -1), admitted("a2", "1", "a", -1),
                           admitted("a3", "1", "a", -1), admitted("b1", "1", "b", -1)},
                          "5", PreemptionPolicy::Any));
}

TEST_CASE(
    "TestFairPreemptions: forced to preempt within clusterqueue because borrowing workload "
    "too important",
    "[kueue][preemption][fair_sharing]") {
  check(right_cohort_case("3",
                          {admitted("a1", "1", "a", -1), admitted("a2", "1", "a", -1),
                           admitted("a3", "1", "a", -1), admitted("b1", "4", "b", 100)},
                          "4", PreemptionPolicy::LowerPriority));
}

TEST_CASE("TestFairPreemptions: deep preemption", "[kueue][preemption][fair_sharing]") {
  // cq-a wants capacity, cq-b uses it and Cohort CCCC provides it; A is more important than B.
  PreemptionCase c =
      fair_case({ClusterQueueBuilder("a")
                     .cohort("AAA")
                     .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})
                     .preemption(preemption(PreemptionPolicy::Any)),
                 ClusterQueueBuilder("b").cohort("BBB").resource_group(
                     {FlavorQuotasBuilder("default").resource("cpu", "0")})},
                {admitted("b1", "1", "b")}, incoming("a1", "1"), "a", {{"/b1", kFair}});
  c.cohorts = {CohortBuilder("ROOT"),
               CohortBuilder("A").parent("ROOT").fair_weight("1.01"),
               CohortBuilder("AA").parent("A"),
               CohortBuilder("AAA").parent("AA"),
               CohortBuilder("B").parent("ROOT").fair_weight("0.99"),
               CohortBuilder("BB").parent("B"),
               CohortBuilder("BBB").parent("BB"),
               CohortBuilder("C").parent("ROOT"),
               CohortBuilder("CC").parent("C"),
               CohortBuilder("CCC").parent("CC"),
               CohortBuilder("CCCC").parent("CCC").resource_group(
                   {FlavorQuotasBuilder("default").resource("cpu", "1")})};
  check(c);
}

// Cohort "all" lending 3 CPUs to a (1 CPU, reclaims Any) and b (none), both of `weight`, b
// holding three 1-CPU workloads; a wants 2.
PreemptionCase borrowing_preemptor_case(std::string_view weight) {
  PreemptionCase c =
      fair_case({ClusterQueueBuilder("a")
                     .cohort("all")
                     .fair_weight(weight)
                     .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})
                     .preemption(preemption(PreemptionPolicy::Any)),
                 ClusterQueueBuilder("b").cohort("all").fair_weight(weight).resource_group(
                     {FlavorQuotasBuilder("default").resource("cpu", "0")})},
                units("b", 3), incoming("a_incoming", "2"), "a", {{"/b1", kFair}});
  c.cohorts = {
      CohortBuilder("all").resource_group({FlavorQuotasBuilder("default").resource("cpu", "3")})};
  return c;
}

TEST_CASE("TestFairPreemptions: borrowing preemptors", "[kueue][preemption][fair_sharing]") {
  SECTION(
      "zero weight borrowing preemptor can preempt from a borrowing CQ which also has zero "
      "weight") {
    check(borrowing_preemptor_case("0"));
  }
  SECTION("non-zero weight borrowing preemptor preempts from a borrowing CQ") {
    check(borrowing_preemptor_case("1"));
  }
  SECTION("candidates skipped by the first strategy are still available to the second strategy") {
    // ROOT ── A (weight 0, 1 CPU) ── p (weight 1, 2 CPU, preemptor), y (weight 1, 2 CPU)
    //      └─ x (weight 1, 1 CPU)
    auto cq = [](const std::string& name, const std::string& cohort, std::string_view cpu) {
      return ClusterQueueBuilder(name).cohort(cohort).fair_weight("1").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", cpu)});
    };
    PreemptionCase c =
        fair_case({cq("p", "A", "2").preemption(preemption(PreemptionPolicy::Any)),
                   cq("y", "A", "2"), cq("x", "ROOT", "1")},
                  {admitted("p1", "2", "p"), admitted("y1", "2", "y"), admitted("y2", "2", "y"),
                   admitted("x1", "1", "x"), admitted("x2", "1", "x")},
                  incoming("p_incoming", "1"), "p", {{"/y1", kFair}, {"/x1", kFair}});
    c.cohorts = {CohortBuilder("A").parent("ROOT").fair_weight("0").resource_group(
        {FlavorQuotasBuilder("default").resource("cpu", "1")})};
    check(c);
  }
}

}  // namespace
}  // namespace gpusched::kueue
