#include "io/cluster_json.hpp"

#include <map>
#include <optional>

#include "io/object_json.hpp"
#include "io/timestamps.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::io {

std::string place_of(const JsonNode& item, const std::string& scenario_file) {
  if (item.source().file() == scenario_file) return item.pointer();
  std::string place = item.source().file();
  if (int line = item.source().line_of(item.pointer()); line > 0) {
    place.append(":").append(std::to_string(line));
  }
  if (!item.pointer().empty()) place.append(": ").append(item.pointer());
  return place;
}

void parse_cluster(const std::vector<JsonNode>& items, const JsonNode& where, Scenario& scenario) {
  if (items.size() > kMaxClusterObjects) {
    where.fail("cluster has " + std::to_string(items.size()) + " objects; the limit is " +
               std::to_string(kMaxClusterObjects));
  }
  std::map<ObjectRef, std::string> seen;
  std::vector<PriorityClass> classes;
  scenario.cluster.reserve(items.size());
  scenario.cluster_pointers.reserve(items.size());
  for (const JsonNode& item : items) {
    Object object = parse_object(item);
    if (scenario.start_time) read_object_times(item, *scenario.start_time, object);
    ObjectRef ref = ref_of(object);
    std::string place = place_of(item, scenario.source);
    auto [it, inserted] = seen.emplace(ref, place);
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
    scenario.cluster_pointers.push_back(std::move(place));
  }
}

}  // namespace gpusched::io
