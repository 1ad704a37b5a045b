#pragma once
/// The Alibaba "openb" production GPU trace (clusterdata cluster-trace-gpu-v2023, as packaged
/// with "Beware of Fragmentation", USENIX ATC'23) as a scenario built in memory: its nodes at 0s,
/// each pod created at its creation time and running as long as it ran in the trace. The mapping
/// of each column is in docs/openb.md.

#include <cstdint>
#include <string>

#include "gpusched/model/gpu_share.hpp"
#include "gpusched/scenario/scenario.hpp"

namespace gpusched::io {

/// Reads the node list (`sn,cpu_milli,memory_mib,gpu,model`) and the pod list
/// (`name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,
/// deletion_time,scheduled_time`, times in seconds). The scenario is named after the pod list's
/// stem, its source is `pods_csv`, and each object's place (cluster_pointers, Action::pointer)
/// is `FILE:LINE` of its row. It holds exactly what a scenario file may hold: written with
/// scenario_json_text, it loads back equal. Throws InputError `FILE:LINE: column C: reason` on
/// bad input (a missing or misplaced column, a wrong field count, a value that is not a
/// non-negative integer or is out of range, times out of order, a duplicate name, a name or
/// label the API server would refuse), and for files over kMaxFileBytes.
/// How import_openb writes GPUs.
enum class OpenbGpus : std::uint8_t {
  /// `nvidia.com/gpu`: a share of one GPU (gpu_milli < 1000) takes the whole GPU.
  Whole,
  /// GPU sharing as the FGD artifact models it: nodes with `alibabacloud.com/gpu-count` and the
  /// model label, pods with the gpu-milli, gpu-count and gpu-card-model annotations, and a
  /// profile of Open-Gpu-Share with FGDScore alone (docs/fragmentation.md).
  Shared,
};

[[nodiscard]] Scenario import_openb(const std::string& nodes_csv, const std::string& pods_csv,
                                    OpenbGpus gpus = OpenbGpus::Whole);

/// The same two files as the FGD artifact reads them (data/pod_csv_to_yaml.py,
/// ../shared/reference/fgd-artifact.md §1.1): each node's CPU, memory, GPU count and model;
/// each pod's CPU, memory and, when num_gpu is not 0, its GPU count, its per-GPU milli
/// (gpu_milli, up to 1000) and its gpu_spec; the other columns are checked but not used. A pod
/// list of only the first five columns (the multigpu* variants) is read too. The same checks and
/// errors as import_openb.
[[nodiscard]] GpuShareTrace read_gpu_share_trace(const std::string& nodes_csv,
                                                 const std::string& pods_csv);

}  // namespace gpusched::io
