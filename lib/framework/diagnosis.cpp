#include "gpusched/framework/diagnosis.hpp"
#include "framework/string_pool.hpp"

#include <algorithm>
#include <utility>

namespace gpusched {

void Diagnosis::clear() {
  failed_nodes.clear();
  failed_runs.clear();
  failed_reasons.clear();
  absent.reset();
  pre_filter_msg.clear();
  post_filter_msg.clear();
  error.reset();
  unschedulable_plugins.clear();
  pending_plugins.clear();
}

void Diagnosis::start_run(const Status& status, std::uint32_t count) {
  // Diagnosis.AddPluginStatus: rejections name their plugin for the queueing hints.
  auto plugins_for = [&](Code code) -> std::set<std::string, std::less<>>* {
    if (code == Code::Pending) return &pending_plugins;
    return is_rejected(code) ? &unschedulable_plugins : nullptr;
  };
  std::set<std::string, std::less<>>* plugins = plugins_for(status.code);
  // The last run's plugin, already recorded, is mostly this one (the same name object).
  const bool recorded = !failed_runs.empty() &&
                        failed_runs.back().plugin.data() == status.plugin.data() &&
                        failed_runs.back().plugin.size() == status.plugin.size() &&
                        plugins_for(failed_runs.back().code) == plugins;
  if (plugins != nullptr && !recorded && !plugins->contains(status.plugin))
    plugins->emplace(status.plugin);
  failed_runs.push_back(FailedStatus{status.code, status.plugin,
                                     static_cast<std::uint32_t>(failed_reasons.size()),
                                     static_cast<std::uint32_t>(status.reasons.size()), count});
  failed_reasons.insert(failed_reasons.end(), status.reasons.begin(), status.reasons.end());
}

void Diagnosis::add_run(std::span<const NodeInfo* const> nodes, const Status& status) {
  if (nodes.empty()) return;
  if (failed_nodes.empty()) failed_nodes.reserve(std::max(expected_failures, nodes.size()));
  failed_nodes.insert(failed_nodes.end(), nodes.begin(), nodes.end());
  const auto count = static_cast<std::uint32_t>(nodes.size());
  if (extends_last_run(status)) {
    failed_runs.back().num_nodes += count;
  } else {
    start_run(status, count);
  }
}

// pkg/scheduler/framework/types.go FitError.Error(). Reasons are counted by interned id (one id
// per distinct string) and become strings once per distinct reason.
std::string reasons_histogram(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                              const StringPool& pool) {
  // Each run's reasons count its nodes; then sorted by id and merged.
  std::vector<std::pair<StrId, std::size_t>> counts;
  for (std::size_t i = 0; i < diagnosis.failed_runs.size(); ++i) {
    for (StrId id : diagnosis.reasons(i))
      counts.emplace_back(id, diagnosis.failed_runs[i].num_nodes);
  }
  if (diagnosis.absent && diagnosis.failed_nodes.size() < num_all_nodes) {
    for (StrId r : diagnosis.absent->reasons)
      counts.emplace_back(r, num_all_nodes - diagnosis.failed_nodes.size());
  }
  std::sort(counts.begin(), counts.end());
  std::vector<std::pair<StrId, std::size_t>> merged;
  for (const auto& [id, count] : counts) {
    if (merged.empty() || merged.back().first != id) merged.emplace_back(id, 0);
    merged.back().second += count;
  }
  std::vector<std::string> parts;
  parts.reserve(merged.size());
  for (const auto& [reason, count] : merged)
    parts.push_back(std::to_string(count) + " " + pool.str(reason));
  // sort.Strings on "<count> <reason>": byte-wise, so "10 x" sorts before "2 y".
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string fit_error_message(std::size_t num_all_nodes, const Diagnosis& diagnosis,
                              const StringPool& pool) {
  std::string msg = "0/";
  msg.append(std::to_string(num_all_nodes)).append(" nodes are available: ");
  if (!diagnosis.pre_filter_msg.empty()) {
    msg.append(diagnosis.pre_filter_msg);
  } else {
    msg.append(reasons_histogram(num_all_nodes, diagnosis, pool));
  }
  msg.append(".");
  if (!diagnosis.post_filter_msg.empty()) msg.append(" ").append(diagnosis.post_filter_msg);
  return msg;
}

std::vector<std::string> fit_error_reasons(std::string_view message) {
  constexpr std::string_view kAvailable = " nodes are available: ";
  const std::size_t start = message.find(kAvailable);
  if (!message.starts_with("0/") || start == std::string_view::npos) return {std::string(message)};
  std::string_view rest = message.substr(start + kAvailable.size());
  // The histogram ends at the first ". " (the PostFilter message follows) or the final ".".
  if (const std::size_t end = rest.find(". "); end != std::string_view::npos) {
    rest = rest.substr(0, end);
  } else if (rest.ends_with('.')) {
    rest.remove_suffix(1);
  }
  std::vector<std::string> reasons;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(", ");
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
    const std::size_t digits = part.find_first_not_of("0123456789");
    if (digits > 0 && digits != std::string_view::npos && part[digits] == ' ') {
      reasons.emplace_back(part.substr(digits + 1));
    } else if (!reasons.empty()) {
      // A reason with ", " in it (a taint's value): the part continues the previous reason.
      reasons.back().append(", ").append(part);
    } else {
      reasons.emplace_back(part);  // a PreFilter message
    }
  }
  return reasons;
}

}  // namespace gpusched
