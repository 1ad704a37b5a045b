#include "io/kind_filter.hpp"

#include <algorithm>
#include <optional>

#include "gpusched/error.hpp"
#include "io/kueue_json.hpp"
#include "io/object_json.hpp"

namespace gpusched::io {
namespace {

/// A kind of one API group, or (kind "*") every kind of the group.
struct KindRule {
  std::string_view group;  ///< "" for core/v1
  std::string_view kind;
  KindHandling handling;
  std::string_view why;
};

constexpr std::string_view kNoEffect = "they do not change where or whether pods run";
constexpr std::string_view kVolumes =
    "volume binding is not modelled: pods are placed as if their volumes could bind on any node";
constexpr std::string_view kOperatorPods =
    "its operator is not modelled: the pods it would create are not replayed";

constexpr KindHandling kSkipped = KindHandling::Skipped;
constexpr KindHandling kIgnored = KindHandling::Ignored;

// Decided from what the replayed components read upstream: kube-scheduler's default plugins (a
// Service's selector feeds PodTopologySpread's default constraints, helper.DefaultSelector, so
// Services are modelled), the controllers gpusched replays, and the admission a pod goes through
// on create. A kind left out of a bundle that a real cluster would act on is Ignored.
constexpr KindRule kRules[] = {
    // core/v1
    {"", "ConfigMap", kSkipped, kNoEffect},
    {"", "Secret", kSkipped, kNoEffect},
    {"", "ServiceAccount", kSkipped, kNoEffect},
    {"", "Endpoints", kSkipped, kNoEffect},
    {"", "Event", kSkipped, kNoEffect},
    {"", "PodTemplate", kSkipped, kNoEffect},
    {"", "LimitRange", kIgnored,
     "the LimitRanger admission plugin's default requests and limits are not applied to pods"},
    {"", "ResourceQuota", kIgnored,
     "the ResourceQuota admission plugin does not refuse pods beyond the quota"},
    {"", "ReplicationController", kIgnored,
     "ReplicationControllers are not modelled: its pods are not created"},
    {"", "PersistentVolume", kIgnored, kVolumes},
    {"", "PersistentVolumeClaim", kIgnored, kVolumes},
    // Kubernetes API groups
    {"apps", "ControllerRevision", kSkipped, kNoEffect},
    {"batch", "CronJob", kIgnored, "its schedule creates no Jobs"},
    {"autoscaling", "HorizontalPodAutoscaler", kIgnored,
     "workloads keep their declared replicas: no metrics drive the autoscaler"},
    {"admissionregistration.k8s.io", "*", kIgnored,
     "admission webhooks and policies do not mutate or refuse pods in the replay"},
    {"apiextensions.k8s.io", "*", kSkipped, kNoEffect},
    {"apiregistration.k8s.io", "*", kSkipped, kNoEffect},
    {"certificates.k8s.io", "*", kSkipped, kNoEffect},
    {"coordination.k8s.io", "*", kSkipped, kNoEffect},
    {"discovery.k8s.io", "*", kSkipped, kNoEffect},
    {"events.k8s.io", "*", kSkipped, kNoEffect},
    {"flowcontrol.apiserver.k8s.io", "*", kSkipped, kNoEffect},
    {"networking.k8s.io", "*", kSkipped, kNoEffect},
    {"gateway.networking.k8s.io", "*", kSkipped, kNoEffect},
    {"rbac.authorization.k8s.io", "*", kSkipped, kNoEffect},
    {"node.k8s.io", "RuntimeClass", kIgnored,
     "a RuntimeClass's pod overhead and scheduling constraints are not added to its pods"},
    // DeviceClass, ResourceSlice, ResourceClaim and ResourceClaimTemplate are modelled.
    {"resource.k8s.io", "DeviceTaintRule", kIgnored,
     "DeviceTaintRules are not modelled: their taints are not added to the devices they select"},
    {"resource.k8s.io", "*", kIgnored, "this resource.k8s.io kind is not modelled"},
    {"storage.k8s.io", "*", kIgnored, kVolumes},
    // Projects whose objects change placement
    {"autoscaling.k8s.io", "*", kIgnored,
     "the VerticalPodAutoscaler is not modelled: pods keep their declared requests"},
    {"autoscaling.x-k8s.io", "*", kIgnored,
     "ProvisioningRequests given as input are not read: the replay's cluster autoscaler serves "
     "only those Kueue's ProvisioningRequest admission check creates"},
    {"karpenter.sh", "*", kIgnored,
     "Karpenter is not modelled: it provisions no node (nodePools with autoscaling do)"},
    // Kueue (v0.19.2): ResourceFlavor, ClusterQueue, LocalQueue, Cohort, WorkloadPriorityClass,
    // AdmissionCheck, ProvisioningRequestConfig and Workload are modelled (kueue_json.cpp); the
    // rest is named here.
    {"kueue.x-k8s.io", "Topology", kIgnored,
     "Kueue's Topology Aware Scheduling is not modelled: workloads are admitted without a "
     "topology assignment"},
    {"kueue.x-k8s.io", "MultiKueueCluster", kIgnored,
     "MultiKueue is not modelled: workloads are admitted in this cluster only"},
    {"kueue.x-k8s.io", "MultiKueueConfig", kIgnored,
     "MultiKueue is not modelled: workloads are admitted in this cluster only"},
    {"kueue.x-k8s.io", "*", kIgnored, "this Kueue kind is not modelled"},
    {"scheduling.x-k8s.io", "*", kIgnored,
     "scheduler-plugins' coscheduling and quotas are not modelled"},
    {"scheduling.volcano.sh", "*", kIgnored, "Volcano is not modelled"},
    {"batch.volcano.sh", "*", kIgnored, "Volcano is not modelled"},
    {"nvidia.com", "ClusterPolicy", kIgnored,
     "the GPU Operator's ClusterPolicy is not read: give the device plugin's configuration as "
     "the scenario's devicePlugin"},
    {"jobset.x-k8s.io", "*", kIgnored, kOperatorPods},
    {"leaderworkerset.x-k8s.io", "*", kIgnored, kOperatorPods},
    {"kubeflow.org", "*", kIgnored, kOperatorPods},
    {"trainer.kubeflow.org", "*", kIgnored, kOperatorPods},
    {"ray.io", "*", kIgnored, kOperatorPods},
    {"serving.kserve.io", "*", kIgnored, kOperatorPods},
    {"monitoring.coreos.com", "Prometheus", kIgnored, kOperatorPods},
    {"monitoring.coreos.com", "PrometheusAgent", kIgnored, kOperatorPods},
    {"monitoring.coreos.com", "Alertmanager", kIgnored, kOperatorPods},
    {"monitoring.coreos.com", "ThanosRuler", kIgnored, kOperatorPods},
    {"monitoring.coreos.com", "*", kSkipped, kNoEffect},
    {"cert-manager.io", "*", kSkipped, kNoEffect},
};

constexpr std::string_view kUnknown =
    "gpusched does not know this kind: if a controller of it creates pods or changes nodes, the "
    "replay does not show it";

/// The group of an apiVersion: "apps" of "apps/v1", "" of "v1".
std::string_view group_of(std::string_view api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

/// A group Kubernetes itself serves: the legacy ones without a dot (apps, batch, policy,
/// extensions, ...) and *.k8s.io (not *.x-k8s.io, the SIG projects' CRDs).
bool kubernetes_group(std::string_view group) {
  return group.find('.') == std::string_view::npos || group.ends_with(".k8s.io");
}

std::string plural(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string place_of(const JsonNode& node) {
  const std::string& pointer = node.pointer();
  return located_message(node.source().file(), pointer, "", node.source().line_of(pointer));
}

/// Fields of modelled kinds that would change placement but are not modelled.
struct FieldRule {
  std::string_view kind;
  std::string_view field;  ///< a member of spec, ignored when absent, null or empty
  std::string_view why;
};

constexpr FieldRule kFieldRules[] = {
    {"StatefulSet", "volumeClaimTemplates", kVolumes},
};

}  // namespace

KindVerdict classify_kind(std::string_view api_version, std::string_view kind) {
  const std::string_view group = group_of(api_version);
  if (is_known_kind(kind) && (api_version.empty() || kubernetes_group(group))) {
    return {KindHandling::Modelled, {}};
  }
  // Kueue's kinds; without an apiVersion, all but Workload (scheduling.k8s.io has one too).
  if (is_kueue_kind(kind) &&
      (group == "kueue.x-k8s.io" || (api_version.empty() && kind != "Workload"))) {
    return {KindHandling::Modelled, {}};
  }
  for (const KindRule& rule : kRules) {
    const bool group_matches =
        api_version.empty() ? kubernetes_group(rule.group) : rule.group == group;
    if (group_matches && (rule.kind == kind || (rule.kind == "*" && !api_version.empty()))) {
      return {rule.handling, rule.why};
    }
  }
  return {KindHandling::Skipped, kUnknown};
}

bool KindFilter::keep(const JsonNode& item) {
  const nlohmann::json& value = item.json();
  if (!value.is_object()) return true;
  const auto kind = value.find("kind");
  if (kind == value.end() || !kind->is_string()) return true;
  const auto version = value.find("apiVersion");
  const std::string api_version =
      version != value.end() && version->is_string() ? version->get<std::string>() : "";
  const std::string kind_text = kind->get<std::string>();
  const KindVerdict verdict = classify_kind(api_version, kind_text);
  if (verdict.handling == KindHandling::Modelled) {
    for (const FieldRule& rule : kFieldRules) {
      if (rule.kind != kind_text) continue;
      const auto spec = value.find("spec");
      if (spec == value.end() || !spec->is_object()) continue;
      const auto field = spec->find(rule.field);
      if (field == spec->end() || field->is_null() || field->empty()) continue;
      const JsonNode at(item.source(), *field, item.pointer() + "/spec/" + std::string(rule.field));
      left_out(at, kind_text, {KindHandling::Ignored, rule.why}, std::string(rule.field));
    }
    return true;
  }
  std::string what = kind_text;
  if (!group_of(api_version).empty()) what += " (" + api_version + ")";
  left_out(item, std::move(what), verdict, {});
  return false;
}

std::vector<JsonNode> KindFilter::kept(const std::vector<JsonNode>& items) {
  std::vector<JsonNode> out;
  out.reserve(items.size());
  for (const JsonNode& item : items) {
    if (keep(item)) out.push_back(item);
  }
  return out;
}

void KindFilter::left_out(const JsonNode& item, std::string what, KindVerdict verdict,
                          std::string field) {
  if (strict_ && verdict.handling == KindHandling::Ignored) {
    // --strict: what a real cluster would act on must not be replayed without it.
    item.fail((field.empty() ? what : "spec." + field + " of a " + what) +
              " is not modelled, and --strict refuses what would change placement: " +
              std::string(verdict.why));
  }
  auto it = std::find_if(left_out_.begin(), left_out_.end(),
                         [&](const LeftOut& l) { return l.what == what && l.field == field; });
  if (it == left_out_.end()) {
    left_out_.push_back(LeftOut{std::move(what), verdict, std::move(field), 0, place_of(item)});
    it = std::prev(left_out_.end());
  }
  ++it->count;
}

void KindFilter::notes(std::vector<std::string>& out) const {
  for (const LeftOut& l : left_out_) {
    std::string text = l.first;
    if (!l.field.empty()) {
      text += "spec." + l.field + " of " + plural(l.count, l.what + " object") + " ignored: ";
    } else {
      text += plural(l.count, l.what + " object") +
              (l.verdict.handling == KindHandling::Skipped ? " skipped: " : " ignored: ");
    }
    text += l.verdict.why;
    if (l.verdict.handling == KindHandling::Ignored) text += " (refused under --strict)";
    out.push_back(std::move(text));
  }
}

}  // namespace gpusched::io
