#pragma once
// Test support: one Kubernetes object parsed from JSON text, as a cluster entry would be.

#include <nlohmann/json.hpp>

#include <string>

#include "gpusched/model/object.hpp"
#include "io/json_node.hpp"
#include "io/json_source.hpp"
#include "io/object_json.hpp"

namespace gpusched::test {

inline Object parse_object_text(const std::string& text) {
  io::JsonSource source("o.json", text);
  const nlohmann::json document = source.parse();
  return io::parse_object(io::JsonNode(source, document, ""));
}

}  // namespace gpusched::test
