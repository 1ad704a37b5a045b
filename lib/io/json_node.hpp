#pragma once
/// A JSON value together with its place: the JSON pointer (for errors) and the Kubernetes field
/// path (for API-server style messages). Typed accessors fail with `expected a string, got
/// number` at that place.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/model/validation.hpp"
#include "io/json_source.hpp"
#include "model/go_text.hpp"

namespace gpusched::io {

class JsonNode {
 public:
  JsonNode(const JsonSource& source, const nlohmann::json& value, std::string pointer,
           FieldPath path = {})
      : source_(&source), value_(&value), pointer_(std::move(pointer)), path_(std::move(path)) {}

  [[nodiscard]] const JsonSource& source() const noexcept { return *source_; }
  [[nodiscard]] const nlohmann::json& json() const noexcept { return *value_; }
  [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
  /// Field path relative to the last rebase() (the enclosing Kubernetes object).
  [[nodiscard]] const FieldPath& path() const noexcept { return path_; }
  /// The same value with the field path restarted, for the root of an object.
  [[nodiscard]] JsonNode rebased() const { return {*source_, *value_, pointer_}; }

  /// Member `key` of an object; nullopt when absent or null (Kubernetes treats null as unset).
  /// Fails when this is not an object.
  [[nodiscard]] std::optional<JsonNode> get(std::string_view key) const;
  /// The place where member `key` would be, for errors about an absent member.
  [[nodiscard]] JsonNode missing(std::string_view key) const;
  /// Member `key`, failing with `missing required key "key"` when absent.
  [[nodiscard]] JsonNode required(std::string_view key) const;
  /// Elements of an array; fails when this is not an array.
  [[nodiscard]] std::vector<JsonNode> elements() const;
  /// Members of an object used as a map (labels, resource lists): field path steps are keys.
  [[nodiscard]] std::vector<std::pair<std::string, JsonNode>> entries() const;
  /// Fails on the first member whose name is not in `known`, naming it.
  void reject_unknown_keys(std::initializer_list<std::string_view> known) const;
  void reject_unknown_keys(std::span<const std::string_view> known) const;
  /// For a Kubernetes object, whose unknown fields are ignored as the API server ignores them:
  /// warns `unknown field "key"` at each member not in `api_fields` (io/api_fields.hpp), when
  /// the source collects warnings and this is an object. Never fails.
  void note_unknown_keys(std::span<const std::string_view> api_fields) const;
  /// Notes that this value can change placement but gpusched does not model it
  /// (JsonSource::not_modelled).
  void note_not_modelled(const std::string& reason) const {
    source_->not_modelled(pointer_, reason);
  }

  [[nodiscard]] std::string string() const;
  [[nodiscard]] bool boolean() const;
  /// Any integer that fits in 64 bits.
  [[nodiscard]] std::int64_t integer() const;
  /// An integer within [min, max]: `must be between min and max` otherwise.
  [[nodiscard]] std::int64_t integer_in(std::int64_t min, std::int64_t max) const;
  /// An int32 (Kubernetes int32 fields).
  [[nodiscard]] std::int32_t int32() const;
  [[nodiscard]] const nlohmann::json& object() const;
  [[nodiscard]] bool is_string() const noexcept { return value_->is_string(); }
  [[nodiscard]] bool is_number() const noexcept { return value_->is_number(); }

  /// Throws InputError at this place.
  [[noreturn]] void fail(std::string reason) const { source_->fail(pointer_, std::move(reason)); }
  /// Throws a field.Error at this place, as the API server words it:
  /// `<prefix><field path>: <detail>`, e.g. prefix `The Pod "x" is invalid: `.
  [[noreturn]] void fail_field(std::string_view detail, std::string_view prefix = {}) const;
  /// Fails with `expected <what>, got <type>` unless the value has `type`.
  void expect_type(nlohmann::json::value_t type, std::string_view what) const;

 private:
  const JsonSource* source_;
  const nlohmann::json* value_;
  std::string pointer_;
  FieldPath path_;
};

}  // namespace gpusched::io
