#include "io/json_node.hpp"

#include <algorithm>
#include <limits>

namespace gpusched::io {
namespace {

PathStep field_step(std::string_view name) {
  return PathStep{PathStep::Kind::Field, std::string(name), 0};
}

/// The parent's field path and one more step, in one allocation.
FieldPath child_path(const FieldPath& parent, PathStep step) {
  FieldPath path;
  path.reserve(parent.size() + 1);
  path.insert(path.end(), parent.begin(), parent.end());
  path.push_back(std::move(step));
  return path;
}

/// `pointer/key` with the key escaped (RFC 6901), built in one allocation: every member a
/// loader reads gets one.
std::string child_pointer(const std::string& pointer, std::string_view key) {
  std::string out;
  out.reserve(pointer.size() + 1 + key.size());
  out += pointer;
  out += '/';
  if (key.find_first_of("~/") == std::string_view::npos) {
    out += key;
  } else {
    out += escape_pointer_token(key);
  }
  return out;
}

}  // namespace

void JsonNode::expect_type(nlohmann::json::value_t type, std::string_view what) const {
  bool ok = value_->type() == type ||
            (type == nlohmann::json::value_t::number_integer && value_->is_number_unsigned());
  if (!ok) fail("expected " + std::string(what) + ", got " + value_->type_name());
}

const nlohmann::json& JsonNode::object() const {
  expect_type(nlohmann::json::value_t::object, "an object");
  return *value_;
}

std::optional<JsonNode> JsonNode::get(std::string_view key) const {
  auto it = object().find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonNode(*source_, *it, child_pointer(pointer_, key), child_path(path_, field_step(key)));
}

JsonNode JsonNode::missing(std::string_view key) const {
  return JsonNode(*source_, *value_, child_pointer(pointer_, key),
                  child_path(path_, field_step(key)));
}

JsonNode JsonNode::required(std::string_view key) const {
  std::optional<JsonNode> child = get(key);
  if (!child) fail("missing required key \"" + std::string(key) + "\"");
  return std::move(*child);
}

JsonElements JsonNode::elements() const {
  expect_type(nlohmann::json::value_t::array, "an array");
  return JsonElements(*this);
}

JsonNode JsonNode::element(std::size_t index) const {
  return {*source_, (*value_)[index], child_pointer(pointer_, std::to_string(index)),
          child_path(path_, PathStep{PathStep::Kind::Index, {}, index})};
}

JsonEntries JsonNode::entries() const {
  (void)object();
  return JsonEntries(*this);
}

JsonNode JsonNode::member(nlohmann::json::const_iterator at) const {
  return {*source_, *at, child_pointer(pointer_, at.key()),
          child_path(path_, PathStep{PathStep::Kind::Key, at.key(), 0})};
}

void JsonNode::reject_unknown_keys(std::initializer_list<std::string_view> known) const {
  reject_unknown_keys(std::span<const std::string_view>(known.begin(), known.size()));
}

void JsonNode::reject_unknown_keys(std::span<const std::string_view> known) const {
  for (const auto& [key, value] : object().items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    source_->fail(pointer_ + "/" + escape_pointer_token(key),
                  "unknown key \"" + key + "\" (known keys: " + list + ")");
  }
}

void JsonNode::note_unknown_keys(std::span<const std::string_view> api_fields) const {
  if (!source_->collects_warnings() || !value_->is_object()) return;
  for (const auto& [key, value] : value_->items()) {
    if (std::find(api_fields.begin(), api_fields.end(), key) != api_fields.end()) continue;
    source_->warn(pointer_ + "/" + escape_pointer_token(key), "unknown field \"" + key + "\"");
  }
}

void JsonNode::fail_field(std::string_view detail, std::string_view prefix) const {
  std::string reason(prefix);
  if (!path_.empty()) reason += to_field_string(path_) + ": ";
  reason += detail;
  fail(std::move(reason));
}

std::string JsonNode::string() const {
  expect_type(nlohmann::json::value_t::string, "a string");
  return value_->get<std::string>();
}

bool JsonNode::boolean() const {
  expect_type(nlohmann::json::value_t::boolean, "a boolean");
  return value_->get<bool>();
}

std::int64_t JsonNode::integer() const {
  if (value_->is_number_float()) fail("expected an integer, got " + value_->dump());
  expect_type(nlohmann::json::value_t::number_integer, "an integer");
  if (value_->is_number_unsigned() &&
      value_->get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    fail("integer " + value_->dump() + " is too large");
  }
  return value_->get<std::int64_t>();
}

std::int64_t JsonNode::integer_in(std::int64_t min, std::int64_t max) const {
  std::int64_t value = integer();
  if (value < min || value > max) {
    fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
         std::to_string(value));
  }
  return value;
}

std::int32_t JsonNode::int32() const {
  return static_cast<std::int32_t>(integer_in(std::numeric_limits<std::int32_t>::min(),
                                              std::numeric_limits<std::int32_t>::max()));
}

}  // namespace gpusched::io
