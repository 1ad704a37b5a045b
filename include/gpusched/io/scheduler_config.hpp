#pragma once
/// Reading a KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1), as `compare` and
/// `sweep` take them, into the configuration a replay runs with.

#include <filesystem>

#include "gpusched/config/scheduler_config.hpp"

namespace gpusched::io {

/// Reads and validates `path` (JSON, or YAML as load_scenario decides) as kube-scheduler
/// validates its configuration, with the fields of a scenario's `scheduler` key. The fields
/// gpusched adds and a real file lacks, `seed` and `kubernetesVersion`, are taken from `base` when
/// the file leaves them out; every other field left out gets upstream's default, as kube-scheduler
/// would give it. Throws InputError naming the file and the place.
[[nodiscard]] SchedulerConfig load_scheduler_config(const std::filesystem::path& path,
                                                    const SchedulerConfig& base);

}  // namespace gpusched::io
