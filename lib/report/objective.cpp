#include "gpusched/report/objective.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

#include "gpusched/model/time.hpp"

namespace gpusched::report {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<double> number(std::string_view s) {
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

/// `cq/<name>:<metric>` or `lq/<ns>/<name>:<metric>` into the summary metric's name; false and
/// `error` set when it starts so but is not one.
bool read_queue_scope(Objective& out, std::string* error) {
  const std::string_view text = out.metric;
  const bool cq = text.starts_with("cq/");
  if (!cq && !text.starts_with("lq/")) return true;
  const std::size_t colon = text.find(':');
  const std::string_view queue = text.substr(3, colon == std::string_view::npos ? 0 : colon - 3);
  const std::string_view metric =
      colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  const std::size_t slash = queue.find('/');
  const bool queue_ok = cq ? !queue.empty() && slash == std::string_view::npos
                           : slash != std::string_view::npos && slash > 0 &&
                                 slash + 1 < queue.size() &&
                                 queue.find('/', slash + 1) == std::string_view::npos;
  if (!queue_ok || metric.empty() || metric.find('{') != std::string_view::npos) {
    *error = "objective \"" + out.text + "\": write a queue's objective as " +
             (cq ? "cq/<ClusterQueue>:<metric>, e.g. cq/research:wait.p95<30m"
                 : "lq/<namespace>/<LocalQueue>:<metric>, e.g. lq/team-a/train:wait.p95<30m");
    return false;
  }
  out.scope = cq ? Objective::Scope::ClusterQueue : Objective::Scope::LocalQueue;
  out.queue = std::string(queue);
  out.metric =
      "kueue." + std::string(metric) + (cq ? "{clusterQueue=" : "{localQueue=") + out.queue + "}";
  return true;
}

}  // namespace

std::optional<Objective> parse_objective(std::string_view text, std::string* error) {
  // Two-character operators first, so that "<=" is not read as "<" then "=".
  static constexpr std::array<std::pair<std::string_view, Objective::Op>, 6> kOps{{
      {"<=", Objective::Op::LessEqual},
      {">=", Objective::Op::GreaterEqual},
      {"==", Objective::Op::Equal},
      {"!=", Objective::Op::NotEqual},
      {"<", Objective::Op::Less},
      {">", Objective::Op::Greater},
  }};
  Objective out;
  out.text = std::string(text);
  std::size_t at = std::string_view::npos;
  std::size_t length = 0;
  for (const auto& [symbol, op] : kOps) {
    const std::size_t found = text.find(symbol);
    if (found != std::string_view::npos &&
        (found < at || (found == at && symbol.size() > length))) {
      at = found;
      length = symbol.size();
      out.op = op;
    }
  }
  if (at == std::string_view::npos) {
    *error = "objective \"" + out.text +
             "\" has no comparison: write it as <metric><op><value>, e.g. pending==0 or "
             "wait.p95<10m (op: < <= > >= == !=)";
    return std::nullopt;
  }
  out.metric = std::string(trim(text.substr(0, at)));
  const std::string_view value = trim(text.substr(at + length));
  if (out.metric.empty()) {
    *error = "objective \"" + out.text + "\" names no metric before its operator";
    return std::nullopt;
  }
  if (!read_queue_scope(out, error)) return std::nullopt;
  if (value.ends_with('%')) {
    auto percent = number(value.substr(0, value.size() - 1));
    if (!percent) {
      *error = "objective \"" + out.text + "\": \"" + std::string(value) + "\" is not a percentage";
      return std::nullopt;
    }
    out.kind = Objective::Kind::Percent;
    out.bound = *percent / 100;
  } else if (auto plain = number(value)) {
    out.bound = *plain;
  } else {
    std::string why;
    auto ms = parse_duration(value, &why);
    if (!ms) {
      *error = "objective \"" + out.text + "\": \"" + std::string(value) +
               "\" is neither a number, a percentage nor a duration (" + why + ")";
      return std::nullopt;
    }
    out.kind = Objective::Kind::Duration;
    out.bound = static_cast<double>(*ms);
  }
  return out;
}

std::string unknown_queue(const Objective& objective, const SimulationResult& result) {
  if (objective.scope == Objective::Scope::None) return {};
  const bool cq = objective.scope == Objective::Scope::ClusterQueue;
  std::vector<std::string> names;
  if (cq) {
    for (const ClusterQueueRecord& record : result.cluster_queues) names.push_back(record.name);
  } else {
    names = result.local_queues;
  }
  if (std::find(names.begin(), names.end(), objective.queue) != names.end()) return {};
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  return "objective \"" + objective.text + "\" names " + (cq ? "ClusterQueue" : "LocalQueue") +
         " \"" + objective.queue + "\", which the replay does not have (" +
         (known.empty() ? std::string("it has none")
                        : std::string(cq ? "its ClusterQueues: " : "its LocalQueues: ") + known) +
         ")";
}

std::optional<bool> objective_met(const Objective& objective, const std::vector<Metric>& metrics,
                                  std::string* error) {
  const std::optional<Metric> found = find_metric(metrics, objective.metric);
  const Metric metric = found.value_or(Metric{});
  // A bound's kind must suit the metric: durations for durations (a bare 0 too), a percentage
  // or a fraction for ratios, numbers for counts and hours.
  bool suits = true;
  if (found) {
    switch (objective.kind) {
      case Objective::Kind::Duration:
        suits = metric.unit == MetricUnit::Duration;
        break;
      case Objective::Kind::Percent:
        suits = metric.unit == MetricUnit::Ratio;
        break;
      case Objective::Kind::Number:
        suits = metric.unit != MetricUnit::Duration || objective.bound == 0;
        break;
    }
  }
  if (!suits) {
    *error = "objective \"" + objective.text + "\": " + objective.metric + " is " +
             (metric.unit == MetricUnit::Duration ? "a duration (write e.g. 10m)"
              : metric.unit == MetricUnit::Ratio  ? "a ratio (write e.g. 80% or 0.8)"
                                                  : "a number") +
             ", not what the bound is";
    return std::nullopt;
  }
  const double v = metric.value;
  const double b = objective.bound;
  switch (objective.op) {
    case Objective::Op::Less:
      return v < b;
    case Objective::Op::LessEqual:
      return v <= b;
    case Objective::Op::Greater:
      return v > b;
    case Objective::Op::GreaterEqual:
      return v >= b;
    case Objective::Op::Equal:
      return v == b;
    case Objective::Op::NotEqual:
      return v != b;
  }
  return false;
}

}  // namespace gpusched::report
