// gpusched's benchmarks: upstream scheduler_perf workloads, a GPU mix, the openb production
// trace and a scaling run. Each run is a child process (its own peak RSS); each figure is the
// median of --runs runs. One JSON line per workload on stdout, e.g.
//   {"workload":"SchedulingBasic","case":"5000Nodes_10000Pods","nodes":5000,"init_pods":1000,
//    "pods":10000,"scheduled":10000,"runs":5,"seconds":0.31,"pods_per_second":32000,
//    "peak_rss_mib":120,"target_pods_per_second":30000,"meets_target":true}
// Usage: gpusched_bench [--runs N] [--openb DIR] [WORKLOAD...]
//   WORKLOAD: SchedulingBasic PreemptionBasic Unschedulable SchedulingWithExtendedResource
//   SchedulingWithResourceClaimTemplate GpuMix
//   openb Fragmentation OneShot Explain Writers Inputs Scaling KueueFleet (default: all),
//   Scaling:NODESxPODS for one line of the scaling run, or KueueFleet:NODESxJOBS for a smaller
//   fleet (20 ClusterQueues; KueueFleet:NODESxJOBS:spread with kube-scheduler's default
//   LeastAllocated scoring).
//   --kueue-fleet-out FILE writes the KueueFleet scenario there (for `gpusched replay`).
//   Exit status 1 when a target is missed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/allocator.hpp"
#include "gpusched/gpusched.hpp"
#include "gpusched/io/openb.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/plan/fragmentation.hpp"
#include "gpusched/report/gpu_allocation.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "inputs.hpp"
#include "kueue_fleet.hpp"
#include "workloads.hpp"

namespace {

/// What one run measured.
struct Figures {
  long scheduled = 0;
  double seconds = 0;
  long peak_rss_mib = 0;
  double gpu_allocation = 0;     // openb only
  int reference_identical = -1;  // openb only: 1 when --reference gave the same result
};

long peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // Linux reports KiB
}

double timed(const gpusched::Scenario& scenario, gpusched::SimulationResult* out = nullptr,
             const gpusched::SimulationOptions& options = {}) {
  const auto start = std::chrono::steady_clock::now();
  gpusched::SimulationResult result = gpusched::simulate(scenario, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (out != nullptr) *out = std::move(result);
  return seconds;
}

long scheduled_with_prefix(const gpusched::SimulationResult& result, std::string_view prefix) {
  return std::count_if(result.pods.begin(), result.pods.end(), [&](const auto& record) {
    return !record.pod.spec.node_name.empty() && record.pod.metadata.name.starts_with(prefix);
  });
}

/// The measured pods' cost: the whole run minus the run of the init phase alone.
Figures measure(const bench::Workload& w) {
  Figures f;
  const double baseline = w.has_baseline ? timed(w.baseline) : 0;
  gpusched::SimulationResult result;
  f.seconds = timed(w.scenario, &result) - baseline;
  f.scheduled = scheduled_with_prefix(result, w.prefix);
  f.peak_rss_mib = peak_rss_mib();
  return f;
}

Figures replay_openb(const std::filesystem::path& dir) {
  const gpusched::Scenario trace =
      gpusched::io::import_openb((dir / "openb_node_list_all_node.csv").string(),
                                 (dir / "openb_pod_list_default.csv").string());
  Figures f;
  gpusched::SimulationResult result;
  f.seconds = timed(trace, &result);
  f.peak_rss_mib = peak_rss_mib();
  f.scheduled = scheduled_with_prefix(result, "");
  f.gpu_allocation = gpusched::report::gpu_allocation_ratio(result);
  gpusched::SimulationOptions reference;
  reference.reference = true;
  gpusched::SimulationResult reference_result;
  (void)timed(trace, &reference_result, reference);
  std::ostringstream a, b;
  gpusched::report::write_json(a, result);
  gpusched::report::write_json(b, reference_result);
  f.reference_identical = a.str() == b.str() ? 1 : 0;
  return f;
}

/// Runs `run` in a child process and reads its figures back through a pipe.
Figures in_child(const std::function<Figures()>& run) {
  int fds[2];
  if (pipe(fds) != 0) std::exit(2);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const Figures f = run();
    const std::string line = std::to_string(f.scheduled) + " " + std::to_string(f.seconds) + " " +
                             std::to_string(f.peak_rss_mib) + " " +
                             std::to_string(f.gpu_allocation) + " " +
                             std::to_string(f.reference_identical) + "\n";
    if (write(fds[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Figures f;
  std::istringstream in(text);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      !(in >> f.scheduled >> f.seconds >> f.peak_rss_mib >> f.gpu_allocation >>
        f.reference_identical)) {
    std::fprintf(stderr, "gpusched_bench: a run failed\n");
    std::exit(2);
  }
  return f;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The median figures of `runs` runs (seconds and pods/s are medians, RSS the largest).
Figures median_of(int runs, const std::function<Figures()>& run, double* pods_per_second) {
  std::vector<Figures> all;
  std::vector<double> seconds, rates;
  for (int i = 0; i < runs; ++i) {
    all.push_back(in_child(run));
    seconds.push_back(all.back().seconds);
    rates.push_back(static_cast<double>(all.back().scheduled) / all.back().seconds);
  }
  Figures f = all.front();
  f.seconds = median(seconds);
  *pods_per_second = median(rates);
  for (const Figures& r : all) f.peak_rss_mib = std::max(f.peak_rss_mib, r.peak_rss_mib);
  return f;
}

/// Runs a workload that prints its own lines in a child process, so that what it allocates does
/// not stay in this process's footprint, which later runs' children would inherit in their peak
/// RSS. True when the child says its target is met.
bool in_child_printing(const std::function<bool()>& run) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    const bool met = run();
    std::fflush(stdout);
    _exit(met ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
    std::fprintf(stderr, "gpusched_bench: a run failed\n");
    std::exit(2);
  }
  return WEXITSTATUS(status) == 0;
}

bool all_targets_met = true;

// One upstream-style workload: the median of `runs` and its target.
void report(int runs, const std::string& workload, const std::string& case_name, int nodes,
            int init_pods, int pods, double target, const std::function<bench::Workload()>& build) {
  double rate = 0;
  const Figures f = median_of(
      runs, [&] { return measure(build()); }, &rate);
  std::printf(
      "{\"workload\":\"%s\",\"case\":\"%s\",\"nodes\":%d,\"init_pods\":%d,\"pods\":%d,"
      "\"scheduled\":%ld,\"runs\":%d,\"seconds\":%.3f,\"pods_per_second\":%.0f,"
      "\"peak_rss_mib\":%ld",
      workload.c_str(), case_name.c_str(), nodes, init_pods, pods, f.scheduled, runs, f.seconds,
      rate, f.peak_rss_mib);
  if (target > 0) {
    const bool met = rate >= target;
    all_targets_met = all_targets_met && met;
    std::printf(",\"target_pods_per_second\":%.0f,\"meets_target\":%s", target,
                met ? "true" : "false");
  }
  std::printf("}\n");
  std::fflush(stdout);
}

void openb(int runs, const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir / "openb_pod_list_default.csv")) {
    std::printf("{\"workload\":\"openb\",\"skipped\":\"no trace in %s\"}\n", dir.c_str());
    return;
  }
  double rate = 0;
  const Figures f = median_of(
      runs, [&] { return replay_openb(dir); }, &rate);
  constexpr double kTargetSeconds = 0.2;  // issue 23's (it was 1 s)
  const bool met = f.seconds <= kTargetSeconds && f.reference_identical == 1;
  all_targets_met = all_targets_met && met;
  std::printf(
      "{\"workload\":\"openb\",\"case\":\"openb_pod_list_default\",\"scheduled\":%ld,"
      "\"runs\":%d,\"seconds\":%.3f,\"peak_rss_mib\":%ld,\"gpu_allocation\":%.4f,"
      "\"reference_identical\":%s,\"target_seconds\":%.1f,\"meets_target\":%s}\n",
      f.scheduled, runs, f.seconds, f.peak_rss_mib, f.gpu_allocation,
      f.reference_identical == 1 ? "true" : "false", kTargetSeconds, met ? "true" : "false");
  std::fflush(stdout);
}

// The FGD paper's experiment (gpusched experiment fragmentation): one FGD run on the default
// trace, then the whole table, every policy x seeds 42..51, on every core. Targets (issue 22): a
// run under 2 s, the table under a minute.
void fragmentation(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir / "openb_pod_list_default.csv")) {
    std::printf("{\"workload\":\"Fragmentation\",\"skipped\":\"no trace in %s\"}\n", dir.c_str());
    return;
  }
  const gpusched::GpuShareTrace trace =
      gpusched::io::read_gpu_share_trace((dir / "openb_node_list_gpu_node.csv").string(),
                                         (dir / "openb_pod_list_default.csv").string());
  namespace plan = gpusched::plan;
  auto start = std::chrono::steady_clock::now();
  const plan::FragmentationRun fgd =
      plan::run_fragmentation(trace, {plan::SharePolicy::Fgd, 42, 1300});
  const double one =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<plan::FragmentationOptions> runs;
  for (const std::string_view name : plan::share_policy_names()) {
    for (std::int64_t seed = 42; seed <= 51; ++seed)
      runs.push_back({*plan::share_policy(name), seed, 1300});
  }
  start = std::chrono::steady_clock::now();
  const std::vector<plan::FragmentationRun> table = plan::run_fragmentations(trace, runs, 0);
  const double all =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool met = one < 2.0 && all < 60.0;
  all_targets_met = all_targets_met && met;
  std::printf(
      "{\"workload\":\"Fragmentation\",\"case\":\"openb_pod_list_default\",\"events\":%zu,"
      "\"fgd_run_seconds\":%.3f,\"fgd_allocated_at_100\":%.2f,\"table_runs\":%zu,"
      "\"table_seconds\":%.3f,\"target_run_seconds\":2,\"target_table_seconds\":60,"
      "\"meets_target\":%s}\n",
      fgd.events, one, fgd.allocated[100].value_or(0), table.size(), all, met ? "true" : "false");
  std::fflush(stdout);
}

// One-shot questions on the openb cluster as the trace leaves it: one scheduling cycle without
// effects for a 1-GPU pod (every node filtered and scored), and how many more such pods fit.
bool one_shot(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir / "openb_pod_list_default.csv")) {
    std::printf("{\"workload\":\"OneShot\",\"skipped\":\"no trace in %s\"}\n", dir.c_str());
    return true;
  }
  gpusched::Simulator simulator(
      gpusched::io::import_openb((dir / "openb_node_list_all_node.csv").string(),
                                 (dir / "openb_pod_list_default.csv").string()));
  while (simulator.step()) {
  }
  gpusched::Pod pod;
  pod.metadata.name = "probe";
  gpusched::Container container;
  container.name = "c";
  container.limits[std::string(gpusched::resource::kGpu)] = gpusched::Quantity::from_units(1);
  container.limits[std::string(gpusched::resource::kCpu)] = gpusched::Quantity::from_units(4);
  pod.spec.containers = std::vector<gpusched::Container>{container};
  constexpr int kQuestions = 20;
  auto start = std::chrono::steady_clock::now();
  std::size_t feasible = 0;
  for (int i = 0; i < kQuestions; ++i) feasible = simulator.schedule_one(pod).best.size();
  const double per_question =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / kQuestions;
  start = std::chrono::steady_clock::now();
  const gpusched::FitCount fits = simulator.count_fits(pod, 1'000'000);
  const double counting =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Interactive use: a question answered within a tenth of a second on 1,523 nodes.
  constexpr double kTargetSeconds = 0.1;
  const bool met = per_question < kTargetSeconds;
  std::printf(
      "{\"workload\":\"OneShot\",\"case\":\"openb_1gpu\",\"nodes\":%zu,\"best\":%zu,"
      "\"schedule_one_ms\":%.2f,\"fits\":%lld,\"count_fits_seconds\":%.3f,"
      "\"us_per_fit\":%.1f,\"target_schedule_one_ms\":%.0f,\"meets_target\":%s}\n",
      simulator.nodes().size(), feasible, per_question * 1000, static_cast<long long>(fits.count),
      counting, fits.count > 0 ? counting * 1e6 / static_cast<double>(fits.count) : 0.0,
      kTargetSeconds * 1000, met ? "true" : "false");
  std::fflush(stdout);
  return met;
}

// explain at 10,000 GPU nodes: the GPU mix overfilled, then one of the pods left Pending told
// in full (every plugin on every node, preemption on every node, groups), without and with the
// remedies' replays. A replay of this scenario is most of the cost: explain replays once to the
// end, and the cluster has not moved since the pod's last attempt, so no second replay.
bool explain_at_scale() {
  constexpr int kNodes = 10000;
  const bench::Workload w = bench::gpu_mix(kNodes, 30000);
  auto start = std::chrono::steady_clock::now();
  const gpusched::SimulationResult result = gpusched::simulate(w.scenario);
  const double replaying =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string pending;
  long unscheduled = 0;
  for (const gpusched::PodRecord& r : result.pods) {
    if (r.scheduled) continue;
    pending = r.pod.key();
    ++unscheduled;
  }
  if (pending.empty()) {
    std::printf("{\"workload\":\"Explain\",\"skipped\":\"no pod left pending\"}\n");
    return true;
  }
  gpusched::ExplainOptions options;
  options.remedies = false;
  start = std::chrono::steady_clock::now();
  const gpusched::Explanation told = gpusched::explain(w.scenario, pending, options);
  const double telling =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  options.remedies = true;
  start = std::chrono::steady_clock::now();
  const gpusched::Explanation remedied = gpusched::explain(w.scenario, pending, options);
  const double remedying =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long verified = 0;
  for (const gpusched::Remedy& r : remedied.remedies) verified += r.verified ? 1 : 0;
  // Beyond its one replay, telling the cycle in full stays within a second at 10,000 nodes.
  constexpr double kTargetOverheadSeconds = 1;
  const double overhead = telling - replaying;
  const bool met =
      overhead < kTargetOverheadSeconds && told.cycle.nodes.size() == kNodes && verified > 0;
  std::printf(
      "{\"workload\":\"Explain\",\"case\":\"GpuMix_10000Nodes_30000Pods\",\"nodes\":%zu,"
      "\"pending\":%ld,\"groups\":%zu,\"layer\":\"%s\",\"replay_seconds\":%.3f,"
      "\"seconds\":%.3f,\"overhead_seconds\":%.3f,\"remedies\":%zu,\"verified\":%ld,"
      "\"seconds_with_remedies\":%.3f,\"target_overhead_seconds\":%.0f,\"meets_target\":%s}\n",
      told.cycle.nodes.size(), unscheduled, told.groups.size(),
      std::string(to_string(told.layer)).c_str(), replaying, telling, overhead,
      remedied.remedies.size(), verified, remedying, kTargetOverheadSeconds,
      met ? "true" : "false");
  std::fflush(stdout);
  return met;
}

// The writers on a large result (the GPU mix at 5,000 nodes and 20,000 pods): each output a user
// asks for, written to memory, median of `runs`; bytes and milliseconds, no target.
void write_outputs(int runs) {
  const gpusched::SimulationResult result =
      gpusched::simulate(bench::gpu_mix(5000, 20000).scenario);
  const std::vector<gpusched::report::Metric> metrics = gpusched::report::summary_metrics(result);
  const std::vector<std::pair<const char*, std::function<void(std::ostream&)>>> outputs = {
      {"table", [&](std::ostream& out) { gpusched::report::write_table(out, result); }},
      {"json", [&](std::ostream& out) { gpusched::report::write_json(out, result); }},
      {"pods_csv", [&](std::ostream& out) { gpusched::report::write_pods_csv(out, result); }},
      {"gpu_steps_csv",
       [&](std::ostream& out) { gpusched::report::write_gpu_steps_csv(out, result); }},
      {"metrics_csv",
       [&](std::ostream& out) { gpusched::report::write_metrics_csv(out, metrics); }},
  };
  for (const auto& [name, write] : outputs) {
    std::vector<double> seconds;
    std::size_t bytes = 0;
    for (int r = 0; r < runs; ++r) {
      std::ostringstream out;
      const auto start = std::chrono::steady_clock::now();
      write(out);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      bytes = out.str().size();
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    std::printf(
        "{\"workload\":\"Writers\",\"case\":\"GpuMix_5000Nodes_20000Pods\",\"output\":\"%s\","
        "\"pods\":%zu,\"bytes\":%zu,\"ms\":%.2f,\"mb_per_second\":%.1f,\"runs\":%d}\n",
        name, result.pods.size(), bytes, median * 1000, static_cast<double>(bytes) / 1e6 / median,
        runs);
    std::fflush(stdout);
  }
}

// Issue 23's file-to-answer path, what `gpusched replay FILE -o json` does: upstream's
// SchedulingBasic 5000Nodes_10000Pods shape (5,000 nodes, 1,000 pods at 0 s, 10,000 at 1 s)
// as a scenario file, read, replayed and its result written as JSON to a file; each phase the
// median of `runs`. Target: 50,000 pods/s end to end.
bool file_to_answer(int runs) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gpusched-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path input = dir / "scheduling-basic.json";
  const std::filesystem::path output = dir / "result.json";
  {
    std::ofstream file(input);
    file << gpusched::io::scenario_json_text(bench::scheduling_basic(5000, 1000, 10000).scenario);
  }
  constexpr int kPods = 11000;
  std::vector<double> read, replay, write, total;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const gpusched::Scenario scenario = gpusched::io::load_scenario(input);
    const auto t1 = std::chrono::steady_clock::now();
    const gpusched::SimulationResult result = gpusched::simulate(scenario);
    const auto t2 = std::chrono::steady_clock::now();
    {
      std::ofstream out(output);
      gpusched::report::write_json(out, result);
    }
    const auto t3 = std::chrono::steady_clock::now();
    read.push_back(std::chrono::duration<double>(t1 - t0).count());
    replay.push_back(std::chrono::duration<double>(t2 - t1).count());
    write.push_back(std::chrono::duration<double>(t3 - t2).count());
    total.push_back(std::chrono::duration<double>(t3 - t0).count());
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  constexpr double kTarget = 50000;
  const double rate = kPods / median(total);
  std::printf(
      "{\"workload\":\"FileToAnswer\",\"case\":\"SchedulingBasic_5000Nodes_11000Pods\","
      "\"bytes_in\":%ju,\"bytes_out\":%ju,\"runs\":%d,\"read_seconds\":%.3f,"
      "\"replay_seconds\":%.3f,\"write_seconds\":%.3f,\"seconds\":%.3f,\"pods_per_second\":%.0f,"
      "\"target_pods_per_second\":%.0f,\"meets_target\":%s}\n",
      static_cast<std::uintmax_t>(std::filesystem::file_size(input)),
      static_cast<std::uintmax_t>(std::filesystem::file_size(output)), runs, median(read),
      median(replay), median(write), median(total), rate, kTarget,
      rate >= kTarget ? "true" : "false");
  std::filesystem::remove_all(dir);
  return rate >= kTarget;
}

// The same pod stream over more nodes, then more pods: the cost per pod should follow the
// nodes the Filter loop examines (numFeasibleNodesToFind), not the cluster or pod count.
void scaling_line(int nodes, int pods) {
  {
    const Figures f = in_child([&] { return measure(bench::scaling_stream(nodes, pods)); });
    const auto examined = gpusched::num_feasible_nodes_to_find(0, static_cast<std::size_t>(nodes));
    const double ns_per_pod = f.seconds * 1e9 / pods;
    // Issue 23's targets for the million pods: 15 s and 1 GiB at the peak (they were 2 GiB).
    constexpr double kTargetSeconds = 15;
    constexpr long kTargetRssMib = 1024;
    const bool million = pods >= 1'000'000;
    const bool met = !million || (f.seconds <= kTargetSeconds && f.peak_rss_mib <= kTargetRssMib);
    all_targets_met = all_targets_met && met && f.scheduled == pods;
    std::printf(
        "{\"workload\":\"Scaling\",\"nodes\":%d,\"pods\":%d,\"scheduled\":%ld,\"seconds\":%.3f,"
        "\"nodes_examined\":%zu,\"us_per_pod\":%.2f,\"ns_per_pod_per_node_examined\":%.2f,"
        "\"peak_rss_mib\":%ld",
        nodes, pods, f.scheduled, f.seconds, examined, ns_per_pod / 1000,
        ns_per_pod / static_cast<double>(examined), f.peak_rss_mib);
    if (million) {
      std::printf(",\"target_seconds\":%.0f,\"target_peak_rss_mib\":%ld,\"meets_target\":%s",
                  kTargetSeconds, kTargetRssMib, met ? "true" : "false");
    }
    std::printf("}\n");
    std::fflush(stdout);
  }
}

/// A line of /proc/self/status in KiB ("VmRSS", "VmHWM").
long status_kib(const std::string& field) {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::string_view(line).starts_with(field + ":")) {
      kib = std::atol(line + field.size() + 1);
      break;
    }
  }
  std::fclose(status);
  return kib;
}

// What loading a large file costs: its text written to a file, loaded in a child process;
// memory above the child's resident size at the start, per MB of text, against the bound that
// docs/cli.md states (30 for JSON and block YAML, 80 for YAML flow collections).
void inputs() {
  struct Case {
    const char* name;
    const char* extension;
    std::function<std::string()> text;
    double bound;
  };
  using bench::Syntax;
  const std::vector<Case> cases = {
      {"pods_20000", "json", [] { return bench::pods_scenario(20000, Syntax::Json); }, 30},
      {"pods_20000", "yaml", [] { return bench::pods_scenario(20000, Syntax::BlockYaml); }, 30},
      {"wide_list_2000000", "json",
       [] { return bench::wide_list_scenario(2'000'000, Syntax::Json); }, 30},
      {"wide_list_2000000_block", "yaml",
       [] { return bench::wide_list_scenario(2'000'000, Syntax::BlockYaml); }, 30},
      {"wide_list_1000000_flow", "yaml",
       [] { return bench::wide_list_scenario(1'000'000, Syntax::FlowYaml); }, 80},
  };
  for (const Case& c : cases) {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("gpusched-bench-" + std::to_string(getpid()) + "." + c.extension);
    const std::string text = c.text();
    {
      std::FILE* out = std::fopen(file.c_str(), "wb");
      if (out == nullptr || std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
        std::fprintf(stderr, "gpusched_bench: cannot write %s\n", file.c_str());
        std::exit(2);
      }
      std::fclose(out);
    }
    const double mb = static_cast<double>(text.size()) / 1e6;
    const Figures f = in_child([&] {
      const long before = status_kib("VmRSS");
      const auto start = std::chrono::steady_clock::now();
      const gpusched::Scenario scenario = gpusched::io::load_scenario(file);
      Figures out;
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      out.scheduled = static_cast<long>(scenario.cluster.size());
      out.peak_rss_mib = (status_kib("VmHWM") - before) / 1024;
      return out;
    });
    std::filesystem::remove(file);
    const double per_mb = static_cast<double>(f.peak_rss_mib) * 1.048576 / mb;
    const bool met = per_mb <= c.bound;
    all_targets_met = all_targets_met && met;
    std::printf(
        "{\"workload\":\"Inputs\",\"case\":\"%s\",\"syntax\":\"%s\",\"mb\":%.1f,"
        "\"objects\":%ld,\"seconds\":%.2f,\"seconds_per_mb\":%.3f,\"peak_mib\":%ld,"
        "\"mb_per_input_mb\":%.1f,\"bound_per_input_mb\":%.0f,\"meets_target\":%s}\n",
        c.name, c.extension, mb, f.scheduled, f.seconds, f.seconds / mb, f.peak_rss_mib, per_mb,
        c.bound, met ? "true" : "false");
    std::fflush(stdout);
  }
}

// Issue 20: 5,000 GPU nodes, 20 ClusterQueues in two cohorts, 50,000 Jobs of 1-64 GPUs arriving
// over 20 hours, replayed through Kueue, the Job controller and kube-scheduler within 10 s. The
// scenario is parsed from its JSON text before the clock starts; the replay alone is timed.
void kueue_fleet(int runs, int nodes, int jobs, bool spread, const std::string& out_file) {
  bench::KueueFleet fleet;
  fleet.nodes = nodes;
  fleet.jobs = jobs;
  fleet.bin_pack = !spread;
  const std::string text = bench::kueue_fleet_scenario(fleet);
  if (!out_file.empty()) {
    std::FILE* out = std::fopen(out_file.c_str(), "wb");
    if (out == nullptr || std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      std::fprintf(stderr, "gpusched_bench: cannot write %s\n", out_file.c_str());
      std::exit(2);
    }
    std::fclose(out);
  }
  double rate = 0;
  const Figures f = median_of(
      runs,
      [&] {
        const gpusched::Scenario scenario = gpusched::io::parse_scenario(text, "kueue-fleet.json");
        Figures out;
        gpusched::SimulationResult result;
        out.seconds = timed(scenario, &result);
        out.peak_rss_mib = peak_rss_mib();
        // `scheduled` carries the Jobs that completed.
        out.scheduled = std::count_if(result.jobs.begin(), result.jobs.end(),
                                      [](const auto& j) { return j.ended && !j.failed; });
        return out;
      },
      &rate);
  const long finished_jobs = f.scheduled;
  constexpr double kTargetSeconds = 10;
  const bool met = f.seconds < kTargetSeconds && finished_jobs == jobs;
  all_targets_met = all_targets_met && met;
  std::printf(
      "{\"workload\":\"KueueFleet\",\"case\":\"%dNodes_20ClusterQueues_%dJobs%s\",\"nodes\":%d,"
      "\"jobs\":%d,\"completed_jobs\":%ld,\"runs\":%d,\"seconds\":%.3f,"
      "\"peak_rss_mib\":%ld,\"target_seconds\":%.0f,\"meets_target\":%s}\n",
      nodes, jobs, spread ? "_LeastAllocated" : "", nodes, jobs, finished_jobs, runs, f.seconds,
      f.peak_rss_mib, kTargetSeconds, met ? "true" : "false");
  std::fflush(stdout);
}

void scaling() {
  for (int nodes : {1000, 2000, 5000, 10000, 20000}) scaling_line(nodes, 10000);
  for (int pods : {100000, 1000000}) scaling_line(10000, pods);
}

}  // namespace

int main(int argc, char** argv) {
  // Measured as the gpusched executable runs (tools/common/allocator.hpp).
  gpusched::tools::use_allocator(argv);
  int runs = 5;
  std::filesystem::path openb_dir = GPUSCHED_OPENB_DIR;
  std::string kueue_fleet_out;
  std::vector<std::string> selected;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--openb" && i + 1 < argc) {
      openb_dir = argv[++i];
    } else if (arg == "--kueue-fleet-out" && i + 1 < argc) {
      kueue_fleet_out = argv[++i];
    } else {
      selected.emplace_back(arg);
    }
  }
  const std::vector<std::string> all = {"SchedulingBasic",
                                        "PreemptionBasic",
                                        "Unschedulable",
                                        "SchedulingWithExtendedResource",
                                        "SchedulingWithResourceClaimTemplate",
                                        "GpuMix",
                                        "openb",
                                        "Fragmentation",
                                        "OneShot",
                                        "Explain",
                                        "Writers",
                                        "FileToAnswer",
                                        "Inputs",
                                        "Scaling",
                                        "KueueFleet"};
  if (selected.empty()) selected = all;
  for (const std::string& name : selected) {
    if (name == "SchedulingBasic") {
      report(runs, name, "500Nodes", 500, 500, 1000, 0,
             [] { return bench::scheduling_basic(500, 500, 1000); });
      // Issue 23's targets (they were 30,000 and 5,000).
      report(runs, name, "5000Nodes_10000Pods", 5000, 1000, 10000, 100000,
             [] { return bench::scheduling_basic(5000, 1000, 10000); });
      report(runs, name, "5000Nodes_50000Pods", 5000, 5000, 50000, 100000,
             [] { return bench::scheduling_basic(5000, 5000, 50000); });
    } else if (name == "PreemptionBasic") {
      report(runs, name, "1000Nodes", 1000, 4000, 1000, 20000,
             [] { return bench::preemption_basic(1000, 4000, 1000); });
    } else if (name == "Unschedulable") {
      report(runs, name, "5kNodes/20kInit/10kPods", 5000, 20000, 10000, 0,
             [] { return bench::unschedulable(5000, 20000, 10000); });
    } else if (name == "SchedulingWithExtendedResource") {
      report(runs, name, "5000pods_5000nodes", 5000, 0, 5000, 0,
             [] { return bench::extended_resource(5000, 5000); });
    } else if (name == "SchedulingWithResourceClaimTemplate") {
      // Upstream's thresholds for this shape are 40-80 pods/s; gpusched aims at 5,000.
      report(runs, name, "5000pods_500nodes", 500, 1000, 5000, 5000,
             [] { return bench::claim_template(500, 1000, 5000); });
    } else if (name == "GpuMix") {
      report(runs, name, "5000Nodes_10000Pods", 5000, 0, 10000, 0,
             [] { return bench::gpu_mix(5000, 10000); });
    } else if (name == "openb") {
      openb(runs, openb_dir);
    } else if (name == "Fragmentation") {
      fragmentation(openb_dir);
    } else if (name == "OneShot") {
      all_targets_met = in_child_printing([&] { return one_shot(openb_dir); }) && all_targets_met;
    } else if (name == "Explain") {
      all_targets_met = in_child_printing(explain_at_scale) && all_targets_met;
    } else if (name == "Writers") {
      in_child_printing([runs] {
        write_outputs(runs);
        return true;
      });
    } else if (name == "FileToAnswer") {
      all_targets_met =
          in_child_printing([runs] { return file_to_answer(runs); }) && all_targets_met;
    } else if (name == "Inputs") {
      inputs();
    } else if (name == "Scaling") {
      scaling();
    } else if (name == "KueueFleet") {
      kueue_fleet(runs, 5000, 50000, false, kueue_fleet_out);
    } else if (int fleet_nodes = 0, jobs = 0;
               std::sscanf(name.c_str(), "KueueFleet:%dx%d", &fleet_nodes, &jobs) == 2 &&
               fleet_nodes > 0 && jobs > 0) {
      kueue_fleet(runs, fleet_nodes, jobs, name.ends_with(":spread"), kueue_fleet_out);
    } else if (int nodes = 0, pods = 0;
               std::sscanf(name.c_str(), "Scaling:%dx%d", &nodes, &pods) == 2 && nodes > 0 &&
               pods > 0) {
      scaling_line(nodes, pods);
    } else {
      std::fprintf(stderr, "gpusched_bench: unknown workload %s\n", name.c_str());
      return 2;
    }
  }
  return all_targets_met ? 0 : 1;
}
