#include "gpusched/io/scheduler_config.hpp"

#include <string>

#include "io/input_text.hpp"
#include "io/scheduler_json.hpp"

namespace gpusched::io {

SchedulerConfig load_scheduler_config(const std::filesystem::path& path,
                                      const SchedulerConfig& base) {
  const std::string file = path.string();
  const std::string text = read_input_file(path, file);
  const ParsedText parsed(file, text);
  if (parsed.documents() != 1) {
    parsed.source().fail("", "a scheduler configuration file holds one document, this one holds " +
                                 std::to_string(parsed.documents()));
  }
  const JsonNode root = parsed.root();
  if (!root.json().is_object()) {
    parsed.source().fail("", std::string("a scheduler configuration must be an object, got ") +
                                 root.json().type_name());
  }
  // The file is a KubeSchedulerConfiguration; kube-scheduler refuses other kinds and versions.
  if (auto kind = root.get("kind"); kind && kind->string() != "KubeSchedulerConfiguration") {
    kind->fail("kind \"" + kind->string() + "\" is not KubeSchedulerConfiguration");
  }
  if (auto version = root.get("apiVersion");
      version && version->string() != "kubescheduler.config.k8s.io/v1") {
    version->fail("apiVersion \"" + version->string() +
                  "\" is not one gpusched reads (kubescheduler.config.k8s.io/v1)");
  }
  SchedulerConfig config = parse_scheduler_config(root);
  if (!root.get("seed")) config.seed = base.seed;
  if (!root.get("kubernetesVersion")) config.kubernetes_version = base.kubernetes_version;
  if (!root.get("featureGates")) config.feature_gates = base.feature_gates;
  config.reference_engine = base.reference_engine;
  return config;
}

}  // namespace gpusched::io
