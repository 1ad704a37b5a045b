#pragma once
// The smallest Kueue replay the sim tests start from: one 8-GPU node, the ResourceFlavor
// `default`, the ClusterQueue `cq` and its LocalQueue ns/lq, and a Job ns/job in it.

#include <string>

namespace gpusched::testing {

/// The scenario's `cluster` objects, without the brackets: `cq` has `quota` GPUs of `default`,
/// and the Job one pod of `gpus` GPUs whose template has `annotations` (a JSON object).
inline std::string kueue_one_queue(const std::string& quota, int gpus,
                                   const std::string& annotations = "{}") {
  return R"(
      {"kind": "Node", "metadata": {"name": "gpu-0"},
       "status": {"capacity": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}}},
      {"kind": "ResourceFlavor", "metadata": {"name": "default"}},
      {"kind": "ClusterQueue", "metadata": {"name": "cq"},
       "spec": {"namespaceSelector": {},
                "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"],
                  "flavors": [{"name": "default", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": ")" +
         quota + R"("}]}]}]}},
      {"kind": "LocalQueue", "metadata": {"name": "lq", "namespace": "ns"}, "spec": {"clusterQueue": "cq"}},
      {"apiVersion": "batch/v1", "kind": "Job",
       "metadata": {"name": "job", "namespace": "ns", "labels": {"kueue.x-k8s.io/queue-name": "lq"}},
       "spec": {"template": {"metadata": {"annotations": )" +
         annotations + R"(},
         "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
           "resources": {"limits": {"nvidia.com/gpu": )" +
         std::to_string(gpus) + R"(}}}]}}}})";
}

}  // namespace gpusched::testing
