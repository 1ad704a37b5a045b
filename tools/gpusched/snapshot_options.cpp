#include "gpusched/snapshot_options.hpp"

#include "gpusched/model/time.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {

void add_snapshot_options(CLI::App& command, SnapshotArgs& args, const std::string& add_help) {
  command.add_option("--add", args.additions, add_help)
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  command
      .add_option("--taken-at", args.taken_at,
                  "The instant the snapshot stands for (default: its latest timestamp)")
      ->type_name("RFC3339")
      ->check(CLI::Validator(
          [](std::string& value) {
            return parse_rfc3339(value)
                       ? std::string()
                       : "expected an RFC 3339 time like 2026-11-30T04:05:06Z, got \"" + value +
                             "\"";
          },
          std::string()));
  add_strict_flag(command, args.strict);
}

io::Snapshot load_snapshot(const std::string& file, const SnapshotArgs& args, std::ostream& err) {
  io::SnapshotOptions options;
  if (!args.taken_at.empty()) options.taken_at = parse_rfc3339(args.taken_at);
  options.additions.assign(args.additions.begin(), args.additions.end());
  io::Snapshot snapshot = io::load_snapshot(file, options);
  for (const std::string& note : snapshot.notes) {
    err << "gpusched: warning: " << file << ": " << note << '\n';
  }
  print_warnings(snapshot.scenario, args.strict, err);
  return snapshot;
}

}  // namespace gpusched::cli
