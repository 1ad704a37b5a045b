#include "gpusched/io/scenario_loader.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "gpusched/error.hpp"
#include "io/expect_json.hpp"
#include "io/json_node.hpp"
#include "io/json_source.hpp"
#include "io/object_json.hpp"
#include "io/scheduler_json.hpp"
#include "io/time_json.hpp"
#include "io/timeline_json.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::io {
namespace {

/// Most objects `cluster` may hold.
constexpr std::size_t kMaxClusterObjects = 100'000;

void parse_cluster(const JsonNode& node, Scenario& scenario) {
  std::vector<JsonNode> items = node.elements();
  if (items.size() > kMaxClusterObjects) {
    node.fail("cluster has " + std::to_string(items.size()) + " objects; the limit is " +
              std::to_string(kMaxClusterObjects));
  }
  std::map<ObjectRef, std::string> seen;
  std::vector<PriorityClass> classes;
  scenario.cluster.reserve(items.size());
  scenario.cluster_pointers.reserve(items.size());
  for (const JsonNode& item : items) {
    Object object = parse_object(item);
    ObjectRef ref = ref_of(object);
    auto [it, inserted] = seen.emplace(ref, item.pointer());
    if (!inserted) {
      std::string name = ref.namespace_.empty() ? ref.name : ref.namespace_ + "/" + ref.name;
      item.fail("duplicate " + ref.kind + " \"" + name + "\": also defined at " + it->second);
    }
    if (const auto* pc = std::get_if<PriorityClass>(&object)) {
      // The Priority admission plugin refuses a second globalDefault class.
      if (std::optional<std::string> refused = admit_priority_class(*pc, classes)) {
        std::optional<JsonNode> global_default = item.get("globalDefault");
        (global_default ? *global_default : item).fail(*refused);
      }
      classes.push_back(*pc);
    }
    scenario.cluster.push_back(std::move(object));
    scenario.cluster_pointers.push_back(item.pointer());
  }
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& file) {
  JsonSource source(file, text);
  nlohmann::json document = source.parse();
  if (!document.is_object()) {
    source.fail("", std::string("a scenario must be a JSON object, got ") + document.type_name());
  }
  JsonNode root(source, document, "");
  root.reject_unknown_keys(
      {"name", "description", "scheduler", "cluster", "timeline", "expect", "until"});

  Scenario scenario;
  scenario.source = file;
  JsonNode name = root.required("name");
  scenario.name = name.string();
  if (scenario.name.empty()) name.fail("name must not be empty");
  if (auto description = root.get("description")) scenario.description = description->string();
  if (auto scheduler = root.get("scheduler")) {
    scenario.scheduler = parse_scheduler_config(scheduler->rebased());
  }
  if (auto cluster = root.get("cluster")) parse_cluster(*cluster, scenario);
  if (auto until = root.get("until")) scenario.until = parse_time(*until);
  if (auto timeline = root.get("timeline")) scenario.timeline = parse_timeline(*timeline);
  if (auto expect = root.get("expect")) {
    scenario.expect = parse_expectations(*expect, scenario.until);
  }
  return scenario;
}

Scenario load_scenario(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw InputError(file, "", "no such file");
  }
  if (std::filesystem::is_directory(status)) {
    throw InputError(file, "", "is a directory, not a scenario file");
  }
  std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxFileBytes) throw InputError(file, "", file_too_large_reason());
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in) throw InputError(file, "", "cannot read the file");
  std::string text = std::move(buffer).str();
  return parse_scenario(text, file);
}

}  // namespace gpusched::io
