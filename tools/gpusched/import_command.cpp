// `gpusched import openb NODES.csv PODS.csv [-o FILE]`: a trace turned into a scenario file that
// `validate`, `replay` and `check` read like any other.

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <variant>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/node_pools.hpp"
#include "gpusched/io/openb.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/output_file.hpp"

namespace gpusched::cli {
namespace {

struct ImportOptions {
  std::string nodes;
  std::string pods;
  std::string output;  ///< empty: the output stream
  bool pools = false;  ///< --pools: nodes of one shape become a node pool
  bool gpu_share = false;  ///< --gpu-share: GPUs shared by milli (io::OpenbGpus::Shared)
};

int import_openb(const ImportOptions& options, std::ostream& out) {
  if (options.pools && options.gpu_share) {
    // A node pool's template declares whole GPUs (nvidia.com/gpu) to the autoscaler.
    throw InputError("--gpu-share", "", "--pools makes pools of whole GPUs; use one or the other");
  }
  Scenario scenario =
      io::import_openb(options.nodes, options.pods,
                       options.gpu_share ? io::OpenbGpus::Shared : io::OpenbGpus::Whole);
  if (options.pools) io::group_nodes_into_pools(scenario);
  // Written completely before anything is printed: bad input leaves no partial file.
  const std::string text = io::scenario_json_text(scenario);
  if (options.output.empty()) {
    out << text;
    return 0;
  }
  refuse_input_as_output("--output-file", options.output, {options.nodes, options.pods});
  OutputFile file("--output-file", options.output);
  file.stream() << text;
  file.close();
  std::size_t nodes = 0;
  std::size_t pods = 0;
  for (const NodePool& pool : scenario.node_pools) nodes += static_cast<std::size_t>(pool.count);
  for (const Object& object : scenario.cluster) {
    nodes += std::holds_alternative<Node>(object);
    pods += std::holds_alternative<Pod>(object);
  }
  for (const Action& action : scenario.timeline) pods += action.objects.size();
  out << options.output << ": " << nodes << " nodes";
  if (options.pools) out << " in " << scenario.node_pools.size() << " node pools";
  out << ", " << pods << " pods, " << scenario.timeline.size() << " timeline actions\n";
  return 0;
}

}  // namespace

Command add_import_command(CLI::App& app) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* command = app.add_subcommand(
      "import", "Turn a cluster trace into a scenario file (exit 2 on invalid input)");
  command->require_subcommand(0, 1);
  CLI::App* openb = command->add_subcommand(
      "openb", "The Alibaba openb GPU trace: its node list and a pod list (docs/openb.md)");
  openb->add_option("NODES", options->nodes, "Node list CSV (sn,cpu_milli,memory_mib,gpu,model)")
      ->required()
      ->check(CLI::ExistingFile);
  openb
      ->add_option("PODS", options->pods,
                   "Pod list CSV (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
                   "pod_phase,creation_time,deletion_time,scheduled_time)")
      ->required()
      ->check(CLI::ExistingFile);
  openb->add_flag("--pools", options->pools,
                  "Make the nodes of each shape a node pool (`<gpu model>-<n>`), to size with "
                  "`gpusched plan`");
  openb->add_flag("--gpu-share", options->gpu_share,
                  "Share GPUs by milli as the FGD artifact does (alibabacloud.com annotations, "
                  "Open-Gpu-Share with FGDScore; docs/fragmentation.md) instead of whole "
                  "nvidia.com/gpu");
  openb->add_option("-o,--output-file", options->output,
                    "Write the scenario here (default: the output stream)");
  return {command, [options, openb](std::ostream& out, std::ostream& err) {
            if (openb->parsed()) return import_openb(*options, out);
            // CLI11 would only say "A subcommand is required"; name the formats.
            err << kErrorPrefix << "import needs a trace format: openb\n"
                << "Run with --help for more information.\n";
            return 2;
          }};
}

}  // namespace gpusched::cli
