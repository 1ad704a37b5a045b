#pragma once
// The names Kueue gives the Workloads it creates (Kueue v0.19.2
// pkg/controller/jobframework/workload_names.go).

#include <string>
#include <string_view>

namespace gpusched::kueue {

/// GetWorkloadNameForOwnerWithGVK: "<kind lowercased>-<owner name>" cut to 247 characters, "-",
/// and the first 5 hex digits of SHA-1("<Kind>\n<group>\n<owner name>\n<owner uid>").
[[nodiscard]] std::string workload_name_for_owner(std::string_view owner_name,
                                                  std::string_view owner_uid, std::string_view kind,
                                                  std::string_view group);

/// The SHA-1 digest of `data` as 40 lowercase hex digits (FIPS 180-4).
[[nodiscard]] std::string sha1_hex(std::string_view data);

}  // namespace gpusched::kueue
