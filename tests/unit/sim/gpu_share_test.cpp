// GPU sharing by milli-GPU in ordinary scenarios (the FGD artifact's Open-Gpu-Share and its score
// plugins; ../shared/reference/fgd-artifact.md): the annotations, the per-GPU bookkeeping of
// NodeInfo, the plugins in a replay, preemption, metrics and the notice for a profile without
// the plugin.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/model/gpu_share.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/result_lookup.hpp"

namespace gpusched {
namespace {

using testing::pod_named;

Labels annotations(std::initializer_list<std::pair<const std::string, std::string>> list) {
  Labels out;
  for (const auto& [key, value] : list) out.emplace(key, value);
  return out;
}

std::string node(const std::string& name, int gpus, const std::string& model = "T4",
                 const std::string& cpu = "32") {
  return R"({"kind": "Node", "metadata": {"name": ")" + name +
         R"(", "labels": {"alibabacloud.com/gpu-card-model": ")" + model +
         R"("}}, "status": {"capacity": {"cpu": ")" + cpu +
         R"(", "memory": "128Gi", "pods": "110", "alibabacloud.com/gpu-count": ")" +
         std::to_string(gpus) + R"(", "alibabacloud.com/gpu-milli": ")" +
         std::to_string(gpus * 1000) + R"("}}})";
}

/// A pod asking `milli` of each of `count` GPUs; `extra` goes into its spec.
std::string pod(const std::string& name, int milli, int count, const std::string& extra = "",
                const std::string& more_annotations = "") {
  std::string share;
  if (milli > 0) {
    share = R"("alibabacloud.com/gpu-milli": ")" + std::to_string(milli) +
            R"(", "alibabacloud.com/gpu-count": ")" + std::to_string(count) + R"(")";
  }
  if (!more_annotations.empty()) share += (share.empty() ? "" : ", ") + more_annotations;
  return R"({"kind": "Pod", "metadata": {"name": ")" + name + R"(", "annotations": {)" + share +
         R"(}}, "spec": {)" + extra +
         R"("containers": [{"name": "main", "resources": {"requests": {"cpu": "2", "memory": "4Gi"}}}]}})";
}

/// Open-Gpu-Share and one score plugin of weight 1000, the default scores off (a point that
/// disables "*" takes no multiPoint plugin, as upstream); RandomScore at PreScore too.
std::string profile(const std::string& score) {
  return std::string(R"({"schedulerName": "default-scheduler", "plugins": {
      "multiPoint": {"enabled": [{"name": "Open-Gpu-Share"}]},)") +
         (score == "RandomScore" ? R"("preScore": {"enabled": [{"name": "RandomScore"}]},)" : "") +
         R"("score": {"disabled": [{"name": "*"}], "enabled": [{"name": ")" + score +
         R"(", "weight": 1000}]}}})";
}

Scenario scenario(const std::string& objects, const std::string& timeline = "[]",
                  const std::string& profiles = profile("BestFitScore"), int seed = 1) {
  return io::parse_scenario(R"({"name": "t", "scheduler": {"seed": )" + std::to_string(seed) +
                                R"(, "profiles": [)" + profiles + R"(]}, "cluster": [)" + objects +
                                R"(], "timeline": )" + timeline + "}",
                            "t.json");
}

std::string gpu_index(const PodRecord& record) {
  const auto& a = record.pod.metadata.annotations;
  const auto it = a->find(gpu_share_names::kGpuIndexAnnotation);
  return it == a->end() ? "" : it->second;
}

const NodeRecord& node_named(const SimulationResult& result, const std::string& name) {
  const auto it = std::find_if(result.nodes.begin(), result.nodes.end(),
                               [&](const NodeRecord& r) { return r.node.metadata.name == name; });
  REQUIRE(it != result.nodes.end());
  return *it;
}

TEST_CASE("GPU-sharing annotations make one request or say why not", "[gpushare]") {
  std::string error;
  GpuShareRequest r =
      gpu_share_request(annotations({{"alibabacloud.com/gpu-milli", "500"},
                                     {"alibabacloud.com/gpu-count", "1"},
                                     {"alibabacloud.com/gpu-card-model", "T4|P100"}}),
                        &error);
  CHECK(error.empty());
  CHECK(r == GpuShareRequest{500, 1, "T4|P100"});
  CHECK(gpu_share_request(annotations({}), &error) == GpuShareRequest{});
  CHECK(gpu_share_request(annotations({{"alibabacloud.com/gpu-milli", "1000"},
                                       {"alibabacloud.com/gpu-count", "4"}}),
                          &error) == GpuShareRequest{1000, 4, ""});
  CHECK(error.empty());

  auto why = [](std::initializer_list<std::pair<const std::string, std::string>> list) {
    std::string e;
    CHECK(gpu_share_request(annotations(list), &e) == GpuShareRequest{});
    return e;
  };
  CHECK(why({{"alibabacloud.com/gpu-milli", "500"}}) ==
        "alibabacloud.com/gpu-milli 500 needs alibabacloud.com/gpu-count of at least 1");
  CHECK(why({{"alibabacloud.com/gpu-count", "2"}}) ==
        "alibabacloud.com/gpu-count 2 needs alibabacloud.com/gpu-milli of at least 1");
  CHECK(
      why({{"alibabacloud.com/gpu-milli", "500"}, {"alibabacloud.com/gpu-count", "2"}}) ==
      "alibabacloud.com/gpu-milli 500 is a share of one GPU, but alibabacloud.com/gpu-count is 2");
  CHECK(why({{"alibabacloud.com/gpu-milli", "1001"}, {"alibabacloud.com/gpu-count", "1"}}) ==
        "alibabacloud.com/gpu-milli must be an integer from 0 to 1000, not \"1001\"");
  CHECK(why({{"alibabacloud.com/gpu-milli", "5x"}, {"alibabacloud.com/gpu-count", "1"}}) ==
        "alibabacloud.com/gpu-milli must be an integer from 0 to 1000, not \"5x\"");
  CHECK(why({{"alibabacloud.com/gpu-milli", "100"}, {"alibabacloud.com/gpu-count", "-1"}}) ==
        "alibabacloud.com/gpu-count must be an integer from 0 to 1024, not \"-1\"");

  CHECK(parse_gpu_index("2") == std::vector<std::int32_t>{2});
  CHECK(parse_gpu_index("0-1-3") == std::vector<std::int32_t>{0, 1, 3});
  CHECK_FALSE(parse_gpu_index(""));
  CHECK_FALSE(parse_gpu_index("1-1"));
  CHECK_FALSE(parse_gpu_index("0-"));
  CHECK_FALSE(parse_gpu_index("1024"));
  CHECK(format_gpu_index({0, 1, 3}) == "0-1-3");
}

TEST_CASE("a bad GPU-sharing annotation is an input error at its place", "[gpushare]") {
  const auto fails = [](const std::string& objects) {
    try {
      (void)scenario(objects);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string share = fails(pod(
      "p", 0, 0, "", R"("alibabacloud.com/gpu-milli": "abc", "alibabacloud.com/gpu-count": "1")"));
  CHECK_THAT(share, Catch::Contains("/cluster/0/metadata/annotations"));
  CHECK_THAT(share,
             Catch::Contains("alibabacloud.com/gpu-milli must be an integer from 0 to 1000"));
  const std::string index = fails(pod("p", 500, 1, "", R"("alibabacloud.com/gpu-index": "0-0")"));
  CHECK_THAT(index, Catch::Contains("must be distinct GPU indices joined by '-'"));
  const std::string count = fails(pod("p", 1000, 2, "", R"("alibabacloud.com/gpu-index": "3")"));
  CHECK_THAT(count, Catch::Contains("alibabacloud.com/gpu-index \"3\" names 1 GPUs, but "
                                    "alibabacloud.com/gpu-count is 2"));
}

TEST_CASE("NodeInfo keeps each GPU's free milli through pods, edits and node updates",
          "[gpushare]") {
  ClusterState cluster;
  const Scenario s = scenario(node("a", 2) + "," + pod("p", 600, 1) + "," + pod("w", 1000, 1));
  NodeInfo& a = cluster.add_node(std::get<Node>(s.cluster[0]));
  CHECK(a.gpu_free == std::vector<std::int32_t>{1000, 1000});
  CHECK(a.gpu_model == "T4");
  Pod bound = std::get<Pod>(s.cluster[1]);
  bound.spec.node_name = "a";
  bound.metadata.annotations.mut()[std::string(gpu_share_names::kGpuIndexAnnotation)] = "1";
  PodInfo& p = cluster.add_pod(bound);
  CHECK(a.gpu_free == std::vector<std::int32_t>{1000, 400});
  // A pod without a gpu-index for this node takes what Open-Gpu-Share's best fit would: whole
  // GPUs the first free ones.
  Pod whole = std::get<Pod>(s.cluster[2]);
  whole.spec.node_name = "a";
  PodInfo& w = cluster.add_pod(whole);
  CHECK(a.gpu_free == std::vector<std::int32_t>{0, 400});
  {
    ScopedNodeEdit edit(a);
    edit.remove_pod(p);
    CHECK(a.gpu_free == std::vector<std::int32_t>{0, 1000});
    edit.remove_pod(w);
    CHECK(a.gpu_free == std::vector<std::int32_t>{1000, 1000});
    CHECK(a.gpu_holds.empty());
  }
  CHECK(a.gpu_free == std::vector<std::int32_t>{0, 400});
  CHECK(a.gpu_holds.size() == 2);
  // A node that grows a GPU keeps what its pods hold.
  Node grown = a.node;
  grown.allocatable[std::string(gpu_share_names::kGpuCountResource)] = Quantity::from_units(3);
  cluster.update_node(a, grown);
  CHECK(a.gpu_free == std::vector<std::int32_t>{0, 400, 1000});
  cluster.remove_pod(p);
  CHECK(a.gpu_free == std::vector<std::int32_t>{0, 1000, 1000});
}

TEST_CASE("Open-Gpu-Share places shares on GPUs and records them", "[gpushare]") {
  // BestFitScore: the node left with the least free CPU and GPU milli.
  const SimulationResult result = simulate(scenario(
      node("a", 2) + "," + node("b", 4) + "," + node("v", 2, "V100M16") + "," +
          pod("r", 700, 1, R"("nodeName": "a", )", R"("alibabacloud.com/gpu-index": "0")"),
      R"([{"at": "10s", "apply": )" + pod("s1", 300, 1) + R"(},
          {"at": "20s", "apply": )" +
          pod("s2", 500, 1, "", R"("alibabacloud.com/gpu-card-model": "V100M16|P100")") + R"(},
          {"at": "30s", "apply": )" +
          pod("w3", 1000, 3) + R"(},
          {"at": "40s", "apply": )" +
          pod("w5", 1000, 5) + R"(}])"));
  // s1: a keeps the least free (GPU 0's 300 exactly), the best fit.
  CHECK(pod_named(result, "s1").pod.spec.node_name == "a");
  CHECK(gpu_index(pod_named(result, "s1")) == "0");
  CHECK(pod_named(result, "s2").pod.spec.node_name == "v");
  CHECK(gpu_index(pod_named(result, "s2")) == "0");
  CHECK(pod_named(result, "w3").pod.spec.node_name == "b");
  CHECK(gpu_index(pod_named(result, "w3")) == "0-1-2");
  CHECK(pod_named(result, "w5").pod.spec.node_name.empty());
  CHECK(pod_named(result, "w5").pod.status.conditions.front().message ==
        "0/3 nodes are available: 3 Insufficient alibabacloud.com/gpu-milli. no new claims to "
        "deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for "
        "incoming pod.");
  const NodeRecord& a = node_named(result, "a");
  REQUIRE(a.shared_gpus.size() == 2);
  CHECK(a.shared_gpus[0].used_milli == 1000);
  CHECK(a.shared_gpus[0].pods ==
        std::vector<std::pair<std::string, std::int64_t>>{{"default/r", 700}, {"default/s1", 300}});
  CHECK(a.shared_gpus[1].used_milli == 0);
  CHECK(node_named(result, "b").shared_gpus[3].used_milli == 0);

  // Over the 40 s run: r holds 700 milli throughout, s1 300 from 10 s, s2 500 from 20 s, w3
  // 3000 from 30 s, of 8 GPUs.
  const auto share = report::gpu_share_fragmentation(result);
  REQUIRE(share);
  CHECK(share->gpus == 8);
  const double used = 700.0 * 40 + 300.0 * 30 + 500.0 * 20 + 3000.0 * 10;
  CHECK(share->allocation() == Approx(used / (8000.0 * 40)));
  // Every idle milli is in some bin.
  CHECK(share->idle == Approx(share->capacity - share->used));
  CHECK(share->fragmented <= share->idle);
  const std::vector<report::Metric> metrics = report::summary_metrics(result);
  CHECK(report::find_metric(metrics, "gpuShare.allocation")->value == Approx(used / (8000.0 * 40)));
  // The resource-hours count what the shares hold, not the pods' (absent) requests: GPUs in use
  // are a's GPU 0 from 0 s (r, then s1 too), v's GPU 0 from 20 s, b's three from 30 s.
  CHECK(report::find_metric(metrics, "allocation.alibabacloud.com/gpu-milli")->value ==
        Approx(used / (8000.0 * 40)));
  CHECK(report::find_metric(metrics, "allocation.alibabacloud.com/gpu-count")->value ==
        Approx((40.0 + 20 + 3 * 10) / (8 * 40)));
}

TEST_CASE("preemption frees a victim's share of a GPU for the preemptor", "[gpushare]") {
  const std::string classes =
      R"({"kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1", "metadata": {"name": "high"}, "value": 1000},)";
  const SimulationResult result = simulate(scenario(
      classes + node("a", 1) + "," +
          pod("low", 600, 1, R"("nodeName": "a", )", R"("alibabacloud.com/gpu-index": "0")"),
      R"([{"at": "10s", "apply": )" + pod("high", 500, 1, R"("priorityClassName": "high", )") +
          "}]"));
  CHECK(pod_named(result, "high").pod.spec.node_name == "a");
  CHECK(gpu_index(pod_named(result, "high")) == "0");
  REQUIRE(result.preemptions.size() == 1);
}

TEST_CASE("a gang's pods, assumed before Reserve, hold the GPUs Reserve chose", "[gpushare]") {
  // A pod group's cycle assumes each pod on its node before Reserve (assumeAndReserve): the
  // GPUs NodeInfo gave it then are replaced by Reserve's choice, counted once.
  const std::string group = R"(
    {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "Workload",
     "metadata": {"name": "train", "namespace": "default"},
     "spec": {"controllerRef": {"apiGroup": "batch", "kind": "Job", "name": "train"},
              "podGroupTemplates": [{"name": "workers", "schedulingPolicy": {"gang": {"minCount": 2}}}]}},
    {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
     "metadata": {"name": "train-workers", "namespace": "default"},
     "spec": {"podGroupTemplateRef": {"workload": {"workloadName": "train", "podGroupTemplateName": "workers"}},
              "schedulingPolicy": {"gang": {"minCount": 2}}}},)";
  const std::string member = R"("schedulingGroup": {"podGroupName": "train-workers"}, )";
  const Scenario s = io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": "1.36",
          "featureGates": {"GenericWorkload": true, "GangScheduling": true},
          "profiles": [)" +
          profile("GpuPackingScore") + R"(]}, "cluster": [)" + group + node("a", 2) + "," +
          pod("r", 600, 1, R"("nodeName": "a", )", R"("alibabacloud.com/gpu-index": "1")") + "," +
          pod("w-0", 400, 1, member) + "," + pod("w-1", 700, 1, member) + "]}",
      "t.json");
  const SimulationResult result = simulate(s);
  // GpuPacking's GPU choice is the best fit: w-0's 400 on GPU 1 (400 left), w-1's 700 on GPU 0.
  CHECK(gpu_index(pod_named(result, "w-0")) == "1");
  CHECK(gpu_index(pod_named(result, "w-1")) == "0");
  const NodeRecord& a = node_named(result, "a");
  REQUIRE(a.shared_gpus.size() == 2);
  CHECK(a.shared_gpus[0].used_milli == 700);
  CHECK(a.shared_gpus[1].used_milli == 1000);
}

TEST_CASE("RandomScore draws nodes and GPUs from the run's seed", "[gpushare]") {
  std::string timeline = "[";
  for (int i = 0; i < 12; ++i)
    timeline += std::string(i ? "," : "") + R"({"at": ")" + std::to_string(i + 1) +
                R"(s", "apply": )" + pod("s" + std::to_string(i), 250, 1) + "}";
  timeline += "]";
  const std::string objects = node("a", 4) + "," + node("b", 4);
  const auto placements = [&](int seed) {
    const SimulationResult result =
        simulate(scenario(objects, timeline, profile("RandomScore"), seed));
    std::vector<std::string> out;
    for (const PodRecord& r : result.pods) out.push_back(r.pod.spec.node_name + "/" + gpu_index(r));
    return out;
  };
  const std::vector<std::string> first = placements(7);
  CHECK(first == placements(7));
  // Twelve quarter GPUs on two nodes of four GPUs: every pod placed, spread over GPUs.
  CHECK(std::none_of(first.begin(), first.end(),
                     [](const std::string& p) { return p.front() == '/'; }));
  std::vector<std::string> distinct = first;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  CHECK(distinct.size() > 2);
}

TEST_CASE("a profile without Open-Gpu-Share ignores the annotations and says so", "[gpushare]") {
  const SimulationResult result =
      simulate(scenario(node("a", 1) + "," + pod("p", 600, 1) + "," + pod("q", 600, 1), "[]",
                        R"({"schedulerName": "default-scheduler"})"));
  // Both bound: nothing counts their shares against the one GPU.
  CHECK(pod_named(result, "p").pod.spec.node_name == "a");
  CHECK(pod_named(result, "q").pod.spec.node_name == "a");
  CHECK(std::find(result.notices.begin(), result.notices.end(),
                  "2 pod(s) of profile default-scheduler carry alibabacloud.com/gpu-milli "
                  "annotations, which the profile ignores: it does not enable Open-Gpu-Share "
                  "(docs/fragmentation.md)") != result.notices.end());
}

}  // namespace
}  // namespace gpusched
