#include "inputs.hpp"

namespace bench {

std::string pods_scenario(int pods, Syntax syntax) {
  const bool json = syntax == Syntax::Json;
  std::string out = json ? "{\"name\": \"inputs\", \"cluster\": [\n" : "name: inputs\ncluster:\n";
  const int nodes = pods / 50 + 1;
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "node-" + std::to_string(i);
    out += json ? std::string(i > 0 ? ",\n" : "") +
                      "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"" +
                      name +
                      "\"}, \"status\": {\"allocatable\": {\"cpu\": \"64\", \"memory\": "
                      "\"512Gi\", \"pods\": \"110\", \"nvidia.com/gpu\": \"8\"}}}"
                : "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: " + name +
                      "\n  status:\n    allocatable:\n      cpu: \"64\"\n      memory: 512Gi\n"
                      "      pods: \"110\"\n      nvidia.com/gpu: \"8\"\n";
  }
  for (int i = 0; i < pods; ++i) {
    const std::string name = "pod-" + std::to_string(i);
    const std::string app = "a" + std::to_string(i % 10);
    out += json ? ",\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"" +
                      name + "\", \"namespace\": \"default\", \"labels\": {\"app\": \"" + app +
                      "\"}}, \"spec\": {\"containers\": [{\"name\": \"main\", \"image\": "
                      "\"busybox\", \"resources\": {\"requests\": {\"cpu\": \"500m\", "
                      "\"memory\": \"1Gi\"}}}]}}"
                : "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: " + name +
                      "\n    namespace: default\n    labels:\n      app: " + app +
                      "\n  spec:\n    containers:\n    - name: main\n      image: busybox\n"
                      "      resources:\n        requests:\n          cpu: 500m\n"
                      "          memory: 1Gi\n";
  }
  if (json) out += "]}\n";
  return out;
}

std::string wide_list_scenario(int values, Syntax syntax) {
  const bool block = syntax == Syntax::BlockYaml;
  std::string out =
      block ? "name: wide\ncluster:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
              "  spec:\n    containers:\n    - name: c\n    affinity:\n      nodeAffinity:\n"
              "        requiredDuringSchedulingIgnoredDuringExecution:\n"
              "          nodeSelectorTerms:\n          - matchExpressions:\n"
              "            - key: zone\n              operator: In\n              values:\n"
            : "{\"name\": \"wide\", \"cluster\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
              "\"metadata\": {\"name\": \"p\"}, \"spec\": {\"containers\": [{\"name\": \"c\"}], "
              "\"affinity\": {\"nodeAffinity\": "
              "{\"requiredDuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms\": "
              "[{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": \"In\", \"values\": [";
  for (int i = 0; i < values; ++i) {
    const std::string value = std::to_string(i % 10);
    out += block ? "              - \"" + value + "\"\n"
                 : std::string(i > 0 ? "," : "") + "\"" + value + "\"";
  }
  if (!block) out += "]}]}]}}}}}]}\n";
  return out;
}

}  // namespace bench
