#include "io/timestamps.hpp"

namespace gpusched::io {
std::int64_t read_rfc3339(const JsonNode& node) {
  const std::string text = node.string();
  const std::optional<std::int64_t> ms = parse_rfc3339(text);
  if (!ms) {
    node.fail("invalid time \"" + text + "\": expected RFC 3339, e.g. \"2026-11-30T04:05:06Z\"");
  }
  return *ms;
}

void read_object_times(const JsonNode& item, std::int64_t start_unix_ms, Object& object) {
  const std::optional<JsonNode> metadata = item.get("metadata");
  if (!metadata) return;
  ObjectMeta& meta = meta_of(object);
  if (auto created = metadata->get("creationTimestamp")) {
    meta.creation_ms = read_rfc3339(*created) - start_unix_ms;
  }
  auto* pod = std::get_if<Pod>(&object);
  if (pod == nullptr) return;
  // Only a pod's deletion is modelled: it terminates until its deletionTimestamp.
  if (auto deleted = metadata->get("deletionTimestamp")) {
    meta.deletion_ms = read_rfc3339(*deleted) - start_unix_ms;
  }
  if (auto status = item.get("status")) {
    if (auto started = status->get("startTime")) {
      pod->status.start_ms = read_rfc3339(*started) - start_unix_ms;
    }
  }
}

void write_object_times(const Object& object, std::int64_t start_unix_ms, nlohmann::json& out) {
  const ObjectMeta& meta = meta_of(object);
  out["metadata"]["creationTimestamp"] = format_rfc3339(start_unix_ms + meta.creation_ms);
  const auto* pod = std::get_if<Pod>(&object);
  if (pod == nullptr) return;
  if (meta.deletion_ms) {
    out["metadata"]["deletionTimestamp"] = format_rfc3339(start_unix_ms + *meta.deletion_ms);
  }
  if (pod->status.start_ms) {
    out["status"]["startTime"] = format_rfc3339(start_unix_ms + *pod->status.start_ms);
  }
}

}  // namespace gpusched::io
