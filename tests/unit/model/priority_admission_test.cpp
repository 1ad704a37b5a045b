#include "model/priority_admission.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

PriorityClass priority_class(std::string name, std::int32_t value, bool global_default = false,
                             std::string policy = {}) {
  PriorityClass pc;
  pc.metadata.name = std::move(name);
  pc.value = value;
  pc.global_default = global_default;
  pc.preemption_policy = std::move(policy);
  return pc;
}

Pod pod(std::string class_name, std::optional<std::int32_t> priority = std::nullopt,
        std::string policy = {}) {
  Pod p;
  p.metadata.name = "p";
  p.metadata.namespace_ = "default";
  p.spec.priority_class_name = std::move(class_name);
  p.spec.priority = priority;
  p.spec.preemption_policy = std::move(policy);
  return p;
}

// Classes of plugin/pkg/admission/priority/admission_test.go.
const PriorityClass kDefaultClass1 = priority_class("default1", 1000, true);
const PriorityClass kDefaultClass2 = priority_class("default2", 2000, true);
const PriorityClass kNondefaultClass1 = priority_class("nondefault1", 2000);
const PriorityClass kNonPreemptingClass = priority_class("nonpreempting", 2000, false, "Never");
const PriorityClass kPreemptingClass =
    priority_class("preempting", 2000, false, "PreemptLowerPriority");

struct Row {
  const char* name;
  std::vector<PriorityClass> classes;
  Pod pod;
  std::optional<std::string> error;
  std::string class_name;  // after admission
  std::int32_t priority = 0;
  std::string policy;
};

TEST_CASE("admit_priority mirrors the Priority admission plugin's admitPod", "[model][priority]") {
  const std::vector<Row> rows = {
      {"pod with no priority class and no default",
       {kNondefaultClass1},
       pod(""),
       std::nullopt,
       "",
       0,
       "PreemptLowerPriority"},
      {"pod with no priority class gets the default",
       {kDefaultClass1, kNondefaultClass1},
       pod(""),
       std::nullopt,
       "default1",
       1000,
       "PreemptLowerPriority"},
      {"pod with a priority class",
       {kDefaultClass1, kNondefaultClass1},
       pod("nondefault1"),
       std::nullopt,
       "nondefault1",
       2000,
       "PreemptLowerPriority"},
      {"multiple default classes: the lowest value wins",
       {kDefaultClass2, kDefaultClass1},
       pod(""),
       std::nullopt,
       "default1",
       1000,
       "PreemptLowerPriority"},
      {"pod with a nonexistent class",
       {kDefaultClass1},
       pod("foo"),
       "pods \"p\" is forbidden: no PriorityClass with name foo was found",
       "",
       0,
       ""},
      {"system-cluster-critical always exists",
       {},
       pod("system-cluster-critical"),
       std::nullopt,
       "system-cluster-critical",
       2000000000,
       "PreemptLowerPriority"},
      {"system-node-critical always exists",
       {},
       pod("system-node-critical"),
       std::nullopt,
       "system-node-critical",
       2000001000,
       "PreemptLowerPriority"},
      {"pod priority equal to the computed one is accepted",
       {kNondefaultClass1},
       pod("nondefault1", 2000),
       std::nullopt,
       "nondefault1",
       2000,
       "PreemptLowerPriority"},
      {"pod priority differs from the class value",
       {kNondefaultClass1},
       pod("nondefault1", 10),
       "pods \"p\" is forbidden: the integer value of priority (10) must not be provided in pod "
       "spec; priority admission controller computed 2000 from the given PriorityClass name",
       "",
       0,
       ""},
      {"pod priority without a class and without a default",
       {},
       pod("", 5),
       "pods \"p\" is forbidden: the integer value of priority (5) must not be provided in pod "
       "spec; priority admission controller computed 0 from the given PriorityClass name",
       "",
       0,
       ""},
      {"non-preempting class",
       {kNonPreemptingClass},
       pod("nonpreempting"),
       std::nullopt,
       "nonpreempting",
       2000,
       "Never"},
      {"preempting class",
       {kPreemptingClass},
       pod("preempting"),
       std::nullopt,
       "preempting",
       2000,
       "PreemptLowerPriority"},
      {"default class that does not preempt",
       {priority_class("d", 7, true, "Never")},
       pod(""),
       std::nullopt,
       "d",
       7,
       "Never"},
      {"pod policy equal to the class's is accepted",
       {kNonPreemptingClass},
       pod("nonpreempting", std::nullopt, "Never"),
       std::nullopt,
       "nonpreempting",
       2000,
       "Never"},
      {"pod policy differs from the class's",
       {kNonPreemptingClass},
       pod("nonpreempting", std::nullopt, "PreemptLowerPriority"),
       "pods \"p\" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must "
       "not be provided in pod spec; priority admission controller computed Never from the given "
       "PriorityClass name",
       "",
       0,
       ""},
      {"pod policy Never without any class",
       {},
       pod("", std::nullopt, "Never"),
       "pods \"p\" is forbidden: the string value of PreemptionPolicy (Never) must not be "
       "provided in pod spec; priority admission controller computed PreemptLowerPriority from "
       "the given PriorityClass name",
       "",
       0,
       ""},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Pod p = row.pod;
      const std::optional<std::string> error = admit_priority(p, row.classes);
      CHECK(error == row.error);
      if (row.error) {
        CHECK(p == row.pod);  // unchanged on refusal
      } else {
        CHECK(p.spec.priority_class_name == row.class_name);
        CHECK(p.spec.priority == row.priority);
        CHECK(p.spec.preemption_policy == row.policy);
      }
    }
  }
}

TEST_CASE("admit_priority names generateName pods as the API server does", "[model][priority]") {
  Pod p = pod("missing");
  p.metadata.name = "web-5f4d8-abcde";
  CHECK(admit_priority(p, {}, "web-5f4d8-") ==
        "pods \"web-5f4d8-\" is forbidden: no PriorityClass with name missing was found");
}

TEST_CASE("system_priority_classes are the two built-in classes", "[model][priority]") {
  const std::vector<PriorityClass>& classes = system_priority_classes();
  REQUIRE(classes.size() == 2);
  CHECK(classes[0].metadata.name == "system-node-critical");
  CHECK(classes[0].value == 2000001000);
  CHECK(classes[1].metadata.name == "system-cluster-critical");
  CHECK(classes[1].value == 2000000000);
  CHECK(find_system_priority_class("system-cluster-critical") == &classes[1]);
  CHECK(find_system_priority_class("system-foo") == nullptr);
}

struct ClassRow {
  const char* name;
  std::vector<PriorityClass> existing;
  PriorityClass pc;
  std::optional<std::string> error;
};

TEST_CASE("admit_priority_class allows one globalDefault class", "[model][priority]") {
  const std::string already =
      "priorityclasses.scheduling.k8s.io \"default2\" is forbidden: PriorityClass default1 is "
      "already marked as default. Only one default can exist";
  const std::vector<ClassRow> rows = {
      {"one default class", {}, kDefaultClass1, std::nullopt},
      {"second default class", {kDefaultClass1}, kDefaultClass2, already},
      {"a non-default class next to a default", {kDefaultClass1}, kNondefaultClass1, std::nullopt},
      {"updating the default class itself",
       {kDefaultClass1, kNondefaultClass1},
       kDefaultClass1,
       std::nullopt},
      {"marking another existing class default",
       {kDefaultClass1, priority_class("default2", 2000)},
       kDefaultClass2,
       already},
  };
  for (const ClassRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(admit_priority_class(row.pc, row.existing) == row.error);
    }
  }
}

}  // namespace
}  // namespace gpusched
