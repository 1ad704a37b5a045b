#include "io/json_node.hpp"

#include <algorithm>
#include <limits>

namespace gpusched::io {

class JsonPlace {
 public:
  enum class Kind : std::uint8_t {
    Root,     ///< `text` is the pointer, `root_path` the field path
    Member,   ///< member `key` of an object read as fields
    Key,      ///< member `key` of an object read as a map
    Element,  ///< element `index` of an array
    Rebase,   ///< the parent's value, its field path restarted
  };

  JsonPlace(Kind step, JsonPlaceRef from) noexcept : kind(step), parent(std::move(from)) {}

  std::uint32_t refs = 1;
  Kind kind;
  JsonPlaceRef parent;
  std::string_view key;  ///< in the document (which outlives its nodes) or in `text`
  std::size_t index = 0;
  std::string text;
  FieldPath root_path;
};

JsonPlaceRef::JsonPlaceRef(const JsonPlaceRef& other) noexcept : place_(other.place_) {
  if (place_ != nullptr) ++place_->refs;
}

JsonPlaceRef::~JsonPlaceRef() {
  if (place_ != nullptr && --place_->refs == 0) delete place_;
}

namespace {

using Kind = JsonPlace::Kind;

JsonPlaceRef child_place(const JsonPlaceRef& parent, Kind kind, std::string_view key,
                         std::size_t index = 0) {
  auto* place = new JsonPlace(kind, parent);
  place->key = key;
  place->index = index;
  return JsonPlaceRef(place);
}

/// The places from the root (or, with `to_rebase`, from the last restart of the field path)
/// down to `place`.
std::vector<const JsonPlace*> chain(const JsonPlace* place, bool to_rebase) {
  std::vector<const JsonPlace*> out;
  for (; place != nullptr; place = place->parent.get()) {
    out.push_back(place);
    if (place->kind == Kind::Root || (to_rebase && place->kind == Kind::Rebase)) break;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

JsonNode::JsonNode(const JsonSource& source, const nlohmann::json& value, std::string pointer,
                   FieldPath path)
    : source_(&source), value_(&value) {
  auto* place = new JsonPlace(Kind::Root, {});
  place_ = JsonPlaceRef(place);
  place->text = std::move(pointer);
  place->root_path = std::move(path);
}

std::string JsonNode::pointer() const {
  std::string out;
  for (const JsonPlace* place : chain(place_.get(), false)) {
    switch (place->kind) {
      case Kind::Root:
        out += place->text;
        break;
      case Kind::Member:
      case Kind::Key:
        out += '/';
        if (place->key.find_first_of("~/") == std::string_view::npos) {
          out += place->key;
        } else {
          out += escape_pointer_token(place->key);
        }
        break;
      case Kind::Element:
        out += '/';
        out += std::to_string(place->index);
        break;
      case Kind::Rebase:
        break;
    }
  }
  return out;
}

FieldPath JsonNode::path() const {
  FieldPath out;
  for (const JsonPlace* place : chain(place_.get(), true)) {
    switch (place->kind) {
      case Kind::Root:
        out = place->root_path;
        break;
      case Kind::Member:
        out.push_back(PathStep{PathStep::Kind::Field, std::string(place->key), 0});
        break;
      case Kind::Key:
        out.push_back(PathStep{PathStep::Kind::Key, std::string(place->key), 0});
        break;
      case Kind::Element:
        out.push_back(PathStep{PathStep::Kind::Index, {}, place->index});
        break;
      case Kind::Rebase:
        break;
    }
  }
  return out;
}

JsonNode JsonNode::rebased() const {
  return {*source_, *value_, child_place(place_, Kind::Rebase, {})};
}

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
  return JsonNode(*source_, *it, child_place(place_, Kind::Member, it.key()));
}

JsonNode JsonNode::missing(std::string_view key) const {
  // The key is not in the document: the place keeps its own copy.
  auto* place = new JsonPlace(Kind::Member, place_);
  JsonPlaceRef ref(place);
  place->text = std::string(key);
  place->key = place->text;
  return JsonNode(*source_, *value_, std::move(ref));
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
  return {*source_, (*value_)[index], child_place(place_, Kind::Element, {}, index)};
}

JsonEntries JsonNode::entries() const {
  (void)object();
  return JsonEntries(*this);
}

JsonNode JsonNode::member(nlohmann::json::const_iterator at) const {
  return {*source_, *at, child_place(place_, Kind::Key, at.key())};
}

void JsonNode::reject_unknown_keys(std::initializer_list<std::string_view> known) const {
  reject_unknown_keys(std::span<const std::string_view>(known.begin(), known.size()));
}

void JsonNode::reject_unknown_keys(std::span<const std::string_view> known) const {
  for (const auto& [key, value] : object().items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    source_->fail(pointer() + "/" + escape_pointer_token(key),
                  "unknown key \"" + key + "\" (known keys: " + list + ")");
  }
}

void JsonNode::note_unknown_keys(std::span<const std::string_view> api_fields) const {
  if (!source_->collects_warnings() || !value_->is_object()) return;
  for (const auto& [key, value] : value_->items()) {
    if (std::find(api_fields.begin(), api_fields.end(), key) != api_fields.end()) continue;
    source_->warn(pointer() + "/" + escape_pointer_token(key), "unknown field \"" + key + "\"");
  }
}

void JsonNode::fail_field(std::string_view detail, std::string_view prefix) const {
  std::string reason(prefix);
  if (const FieldPath path = this->path(); !path.empty()) reason += to_field_string(path) + ": ";
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
