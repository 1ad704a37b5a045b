#include "io/timestamps.hpp"

#include <algorithm>

namespace gpusched::io {
std::int64_t read_rfc3339(const JsonNode& node) {
  const std::string text = node.string();
  const std::optional<std::int64_t> ms = parse_rfc3339(text);
  if (!ms) {
    node.fail("invalid time \"" + text + "\": expected RFC 3339, e.g. \"2026-11-30T04:05:06Z\"");
  }
  return *ms;
}

namespace {

/// A starting-cluster object exists at virtual 0, so a creation or a start after `startTime`
/// would give it a negative age (a negative `ran`, lost GPU time below zero). A hand-written
/// scenario that says so contradicts itself: it is refused at the time's place rather than
/// clamped, which would silently change the object's age (preemption compares start times).
/// Snapshots refuse a creation after their --taken-at too, and read a start after it as clock
/// skew (snapshot.cpp); without --taken-at they start at the dump's latest time, so no object is
/// after it.
std::int64_t virtual_time(const JsonNode& node, std::int64_t start_unix_ms, std::string_view what) {
  const std::int64_t at = read_rfc3339(node) - start_unix_ms;
  if (at > 0) {
    node.fail("the object was " + std::string(what) + " at " + node.string() +
              ", after the scenario's startTime " + format_rfc3339(start_unix_ms) +
              ": the starting cluster's objects exist when the replay starts; give a startTime "
              "at or after their timestamps");
  }
  return at;
}

}  // namespace

void read_object_times(const JsonNode& item, std::int64_t start_unix_ms, Object& object,
                       bool clamp_starts) {
  const std::optional<JsonNode> metadata = item.get("metadata");
  if (!metadata) return;
  ObjectMeta& meta = meta_of(object);
  if (auto created = metadata->get("creationTimestamp")) {
    meta.creation_ms = virtual_time(*created, start_unix_ms, "created");
  }
  auto* pod = std::get_if<Pod>(&object);
  if (pod == nullptr) return;
  // Only a pod's deletion is modelled: it terminates until its deletionTimestamp.
  if (auto deleted = metadata->get("deletionTimestamp")) {
    meta.deletion_ms = read_rfc3339(*deleted) - start_unix_ms;
  }
  if (auto status = item.get("status")) {
    if (auto started = status->get("startTime")) {
      pod->status.start_ms = clamp_starts
                                 ? std::min<std::int64_t>(read_rfc3339(*started) - start_unix_ms, 0)
                                 : virtual_time(*started, start_unix_ms, "started");
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
