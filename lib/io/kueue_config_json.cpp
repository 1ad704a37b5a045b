#include "io/kueue_config_json.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/kueue_feature_gates.hpp"
#include "gpusched/model/time.hpp"
#include "io/api_validation.hpp"

namespace gpusched::io {
namespace {

constexpr std::string_view kConfigApiVersion = "config.kueue.x-k8s.io/v1beta2";

/// The json tags of v1beta2 Configuration and its inlined ControllerManager.
constexpr std::string_view kConfigurationFields[] = {"admissionFairSharing",
                                                     "apiVersion",
                                                     "clientConnection",
                                                     "controller",
                                                     "fairSharing",
                                                     "featureGates",
                                                     "health",
                                                     "integrations",
                                                     "internalCertManagement",
                                                     "kind",
                                                     "leaderElection",
                                                     "manageJobsWithoutQueueName",
                                                     "managedJobsNamespaceSelector",
                                                     "metrics",
                                                     "multiKueue",
                                                     "namespace",
                                                     "objectRetentionPolicies",
                                                     "pprofBindAddress",
                                                     "resources",
                                                     "tls",
                                                     "visibilityServer",
                                                     "waitForPodsReady",
                                                     "webhook"};
constexpr std::string_view kWaitForPodsReadyFields[] = {"blockAdmission", "recoveryTimeout",
                                                        "requeuingStrategy", "timeout"};
constexpr std::string_view kRequeuingStrategyFields[] = {"backoffBaseSeconds", "backoffLimitCount",
                                                         "backoffMaxSeconds", "timestamp"};
constexpr std::string_view kFairSharingFields[] = {"preemptionStrategies"};
constexpr std::string_view kIntegrationsFields[] = {"externalFrameworks", "frameworks",
                                                    "labelKeysToCopy"};
/// The integrations gpusched models (pkg/controller/jobs/job, pkg/controller/jobs/pod).
constexpr std::string_view kModelledFrameworks[] = {"batch/job", "pod"};

/// Configuration fields that change which jobs Kueue manages or how it admits them, which
/// gpusched does not model yet.
struct Unmodelled {
  std::string_view field;
  std::string_view why;
};
constexpr Unmodelled kUnmodelled[] = {
    {"admissionFairSharing",
     "admission fair sharing is not modelled: LocalQueues' usage does "
     "not order their workloads"},
    {"managedJobsNamespaceSelector",
     "managedJobsNamespaceSelector is not modelled: Jobs are managed in every namespace"},
    {"multiKueue", "MultiKueue is not modelled: workloads are admitted in this cluster only"},
    {"resources",
     "resource transformations and excluded resources are not modelled: quota "
     "counts the pods' requests as they are"},
    {"objectRetentionPolicies",
     "object retention policies are not modelled: finished Workloads "
     "are kept"},
};

/// apimachinery validation.IsNegativeErrorMsg.
constexpr std::string_view kIsNegativeErrorMsg = "must be greater than or equal to 0";

/// Go's time.Duration.String of a whole number of milliseconds (field.Invalid prints a
/// metav1.Duration through it): "-1s", "-1m30s", "-1h0m0s", "-250ms".
std::string go_duration(TimeMs ms) {
  std::string sign = ms < 0 ? "-" : "";
  TimeMs abs = ms < 0 ? -ms : ms;
  if (abs == 0) return "0s";
  if (abs < 1000) return sign + std::to_string(abs) + "ms";
  std::string out = sign;
  const TimeMs hours = abs / 3'600'000;
  const TimeMs minutes = abs / 60'000 % 60;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(abs / 1000 % 60);
  if (const TimeMs frac = abs % 1000; frac != 0) {
    std::string digits = std::to_string(1000 + frac).substr(1);
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out + "s";
}

/// A metav1.Duration; a negative one fails with Kueue's validation message.
TimeMs duration(const JsonNode& node) {
  std::string text = node.string();
  const bool negative = text.starts_with('-');
  std::string error;
  std::optional<TimeMs> value = parse_duration(negative ? text.substr(1) : text, &error);
  if (!value) node.fail("invalid duration \"" + text + "\": " + error);
  if (negative && *value != 0) {
    node.fail_field(invalid_value_raw(go_duration(-*value), kIsNegativeErrorMsg));
  }
  return *value;
}

std::int32_t non_negative(const JsonNode& node) {
  const std::int32_t value = node.int32();
  if (value < 0) node.fail_field(invalid_value(value, kIsNegativeErrorMsg));
  return value;
}

void parse_wait_for_pods_ready(const JsonNode& node, KueueConfiguration::WaitForPodsReady& out) {
  node.note_unknown_keys(kWaitForPodsReadyFields);
  // SetDefaults_Configuration: a zero timeout becomes 30m; recoveryTimeout defaults to it.
  if (auto timeout = node.get("timeout")) {
    if (const TimeMs value = duration(*timeout); value != 0) out.timeout_ms = value;
  }
  out.recovery_timeout_ms = out.timeout_ms;
  if (auto recovery = node.get("recoveryTimeout")) out.recovery_timeout_ms = duration(*recovery);
  if (auto block = node.get("blockAdmission")) {
    out.block_admission = block->boolean();
    if (out.block_admission)
      block->note_not_modelled(
          "blockAdmission is not modelled: admission is not held back while admitted workloads' "
          "pods are not ready");
  }
  if (auto strategy = node.get("requeuingStrategy")) {
    strategy->note_unknown_keys(kRequeuingStrategyFields);
    if (auto timestamp = strategy->get("timestamp")) {
      const std::string text = timestamp->string();
      if (text == "Creation") {
        out.requeuing_timestamp = KueueRequeuingTimestamp::Creation;
      } else if (text == "Eviction") {
        out.requeuing_timestamp = KueueRequeuingTimestamp::Eviction;
      } else {
        timestamp->fail_field(not_supported(text, {"Creation", "Eviction"}));
      }
    }
    if (auto limit = strategy->get("backoffLimitCount"))
      out.backoff_limit_count = non_negative(*limit);
    if (auto base = strategy->get("backoffBaseSeconds"))
      out.backoff_base_seconds = non_negative(*base);
    if (auto max = strategy->get("backoffMaxSeconds")) out.backoff_max_seconds = non_negative(*max);
  }
}

std::string_view to_text(KueuePreemptionStrategy strategy) {
  return strategy == KueuePreemptionStrategy::LessThanInitialShare ? "LessThanInitialShare"
                                                                   : "LessThanOrEqualToFinalShare";
}

KueueConfiguration::FairSharing parse_fair_sharing(const JsonNode& node) {
  node.note_unknown_keys(kFairSharingFields);
  KueueConfiguration::FairSharing out;
  std::optional<JsonNode> strategies = node.get("preemptionStrategies");
  if (!strategies || strategies->json().empty()) {
    (strategies ? *strategies : node.missing("preemptionStrategies"))
        .fail_field(required_value("must be specified"));
  }
  std::vector<std::string> names;
  for (const JsonNode& item : strategies->elements()) names.push_back(item.string());
  // validateFairSharing: one of the valid sets, in order.
  const std::vector<std::vector<std::string>> valid = {
      {"LessThanOrEqualToFinalShare"},
      {"LessThanInitialShare"},
      {"LessThanOrEqualToFinalShare", "LessThanInitialShare"}};
  if (std::find(valid.begin(), valid.end(), names) == valid.end()) {
    // field.NotSupported of a []PreemptionStrategy against validStrategySetsStr.
    std::string given = "[]v1beta2.PreemptionStrategy{";
    for (std::size_t i = 0; i < names.size(); ++i) given += (i ? ", " : "") + go_quote(names[i]);
    strategies->fail_field(
        "Unsupported value: " + given +
        "}: supported values: \"LessThanOrEqualToFinalShare\", \"LessThanInitialShare\", "
        "\"LessThanOrEqualToFinalShare,LessThanInitialShare\"");
  }
  for (const std::string& name : names) {
    out.preemption_strategies.push_back(name == "LessThanInitialShare"
                                            ? KueuePreemptionStrategy::LessThanInitialShare
                                            : KueuePreemptionStrategy::LessThanOrEqualToFinalShare);
  }
  return out;
}

/// integrations: frameworks is read; a framework gpusched does not model, externalFrameworks and
/// labelKeysToCopy are named as not modelled.
void parse_integrations(const JsonNode& node, KueueConfiguration& out) {
  node.note_unknown_keys(kIntegrationsFields);
  if (auto frameworks = node.get("frameworks")) {
    std::vector<std::string> names;
    for (const JsonNode& item : frameworks->elements()) {
      names.push_back(item.string());
      if (std::find(std::begin(kModelledFrameworks), std::end(kModelledFrameworks), names.back()) ==
          std::end(kModelledFrameworks)) {
        item.note_not_modelled("the " + names.back() +
                               " integration is not modelled: only \"batch/job\" and \"pod\" "
                               "are; its objects are not managed by Kueue in the replay");
      }
    }
    // SetDefaults_Configuration: an empty list becomes the default.
    if (!names.empty()) out.frameworks = std::move(names);
  }
  if (auto external = node.get("externalFrameworks")) {
    external->note_not_modelled(
        "external frameworks are not modelled: their objects are not managed by Kueue in the "
        "replay");
  }
  if (auto keys = node.get("labelKeysToCopy")) {
    keys->note_not_modelled("labelKeysToCopy is not modelled: Workloads get no copied labels");
  }
}

}  // namespace

KueueConfiguration parse_kueue(const JsonNode& kueue) {
  kueue.reject_unknown_keys({"configuration"});
  KueueConfiguration config;
  std::optional<JsonNode> node = kueue.get("configuration");
  if (!node) return config;
  const JsonNode root = node->rebased();
  root.expect_type(nlohmann::json::value_t::object, "an object");
  if (auto version = root.get("apiVersion"); version && version->string() != kConfigApiVersion) {
    version->fail("apiVersion \"" + version->string() +
                  "\" is not a Kueue Configuration gpusched "
                  "reads; use \"" +
                  std::string(kConfigApiVersion) + "\"");
  }
  if (auto kind = root.get("kind"); kind && kind->string() != "Configuration") {
    kind->fail("kind \"" + kind->string() + "\" is not Configuration");
  }
  root.note_unknown_keys(kConfigurationFields);
  if (auto manage = root.get("manageJobsWithoutQueueName")) {
    config.manage_jobs_without_queue_name = manage->boolean();
  }
  if (auto integrations = root.get("integrations")) parse_integrations(*integrations, config);
  if (auto wait = root.get("waitForPodsReady")) {
    parse_wait_for_pods_ready(*wait, config.wait_for_pods_ready);
  }
  if (auto fair = root.get("fairSharing")) {
    config.fair_sharing = parse_fair_sharing(*fair);
  }
  if (auto gates = root.get("featureGates")) {
    // LoadAndValidateFeatureGates: a gate Kueue lacks or locks stops its manager from starting.
    for (const auto& [name, value] : gates->entries()) {
      const bool on = value.boolean();
      if (auto error = kueue_feature_gate_error(name, on)) value.fail(*error);
      if (auto warning = kueue_feature_gate_warning(name, on)) value.note_not_modelled(*warning);
      config.feature_gates[name] = on;
    }
  }
  for (const Unmodelled& field : kUnmodelled) {
    if (auto value = root.get(field.field)) value->note_not_modelled(std::string(field.why));
  }
  return config;
}

nlohmann::json kueue_json(const KueueConfiguration& config) {
  using nlohmann::json;
  const auto& wait = config.wait_for_pods_ready;
  json requeuing = {
      {"timestamp",
       wait.requeuing_timestamp == KueueRequeuingTimestamp::Creation ? "Creation" : "Eviction"},
      {"backoffBaseSeconds", wait.backoff_base_seconds},
      {"backoffMaxSeconds", wait.backoff_max_seconds}};
  if (wait.backoff_limit_count) requeuing["backoffLimitCount"] = *wait.backoff_limit_count;
  json out = {{"apiVersion", kConfigApiVersion},
              {"kind", "Configuration"},
              {"manageJobsWithoutQueueName", config.manage_jobs_without_queue_name},
              {"waitForPodsReady",
               {{"timeout", format_duration(wait.timeout_ms)},
                {"blockAdmission", wait.block_admission},
                {"recoveryTimeout", format_duration(wait.recovery_timeout_ms)},
                {"requeuingStrategy", std::move(requeuing)}}}};
  if (config.frameworks != KueueConfiguration{}.frameworks)
    out["integrations"] = {{"frameworks", config.frameworks}};
  if (config.fair_sharing) {
    json strategies = json::array();
    for (KueuePreemptionStrategy s : config.fair_sharing->preemption_strategies) {
      strategies.push_back(to_text(s));
    }
    out["fairSharing"] = {{"preemptionStrategies", std::move(strategies)}};
  }
  if (!config.feature_gates.empty()) {
    out["featureGates"] = json::object();
    for (const auto& [name, value] : config.feature_gates) out["featureGates"][name] = value;
  }
  return {{"configuration", std::move(out)}};
}

}  // namespace gpusched::io
