#pragma once
/// Kueue's Configuration (config.kueue.x-k8s.io/v1beta2, Kueue v0.19.2:
/// apis/config/v1beta2/configuration_types.go), the parts that change admission, with the
/// defaults of apis/config/v1beta2/defaults.go. A scenario gives it as `kueue.configuration`.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

/// fairSharing.preemptionStrategies values.
enum class KueuePreemptionStrategy : std::uint8_t {
  LessThanOrEqualToFinalShare,
  LessThanInitialShare
};

/// waitForPodsReady.requeuingStrategy.timestamp.
enum class KueueRequeuingTimestamp : std::uint8_t { Eviction, Creation };

struct KueueConfiguration {
  /// manageJobsWithoutQueueName: Jobs without the queue-name label are managed too.
  bool manage_jobs_without_queue_name = false;

  /// integrations.frameworks; defaults.go's default is the batch/v1 Job integration only
  /// ("batch/job"). gpusched models "batch/job" and "pod" (plain pods and pod groups).
  std::vector<std::string> frameworks{"batch/job"};
  [[nodiscard]] bool enabled(std::string_view framework) const {
    for (const std::string& f : frameworks) {
      if (f == framework) return true;
    }
    return false;
  }

  /// waitForPodsReady. v1beta2's defaulting makes it always present: a 30m timeout, admission
  /// not blocked, requeued from the eviction time with a 60s..3600s backoff.
  struct WaitForPodsReady {
    std::int64_t timeout_ms = 30 * 60 * 1000;
    bool block_admission = false;
    std::int64_t recovery_timeout_ms = 30 * 60 * 1000;  ///< defaults to timeout
    KueueRequeuingTimestamp requeuing_timestamp = KueueRequeuingTimestamp::Eviction;
    std::optional<std::int32_t> backoff_limit_count;  ///< nullopt: requeued forever
    std::int32_t backoff_base_seconds = 60;
    std::int32_t backoff_max_seconds = 3600;
    friend bool operator==(const WaitForPodsReady&, const WaitForPodsReady&) = default;
  } wait_for_pods_ready;

  /// fairSharing: present turns fair sharing on; v1beta2 has no default for the strategies
  /// (pkg/config/validation.go requires one of the valid sets).
  struct FairSharing {
    std::vector<KueuePreemptionStrategy> preemption_strategies;
    friend bool operator==(const FairSharing&, const FairSharing&) = default;
  };
  std::optional<FairSharing> fair_sharing;

  /// featureGates, as given (Kueue's own gates: defaults are Kueue 0.19's).
  std::map<std::string, bool, std::less<>> feature_gates;
  /// Whether Kueue's feature gate `name` is on (`default_value`, Kueue 0.19's, when not given).
  [[nodiscard]] bool gate(std::string_view name, bool default_value) const {
    auto it = feature_gates.find(name);
    return it == feature_gates.end() ? default_value : it->second;
  }

  friend bool operator==(const KueueConfiguration&, const KueueConfiguration&) = default;
};

}  // namespace gpusched
