#pragma once
/// A JSON value together with its place: the JSON pointer (for errors) and the Kubernetes field
/// path (for API-server style messages). Typed accessors fail with `expected a string, got
/// number` at that place.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
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

class JsonElements;
class JsonEntries;

/// Where a JsonNode is: a step from its parent's place (a member, a map key, an element, a
/// restart of the field path) or a root given as text. Places are shared by the nodes made from
/// them and spelt out only when asked for: a loader reads every member of a file through a node,
/// and most never need their pointer or field path (an error or a warning does).
class JsonPlace;

/// A shared, non-atomic reference to a JsonPlace: nodes live on the thread that reads the file.
class JsonPlaceRef {
 public:
  JsonPlaceRef() = default;
  explicit JsonPlaceRef(JsonPlace* place) noexcept : place_(place) {}
  JsonPlaceRef(const JsonPlaceRef& other) noexcept;
  JsonPlaceRef(JsonPlaceRef&& other) noexcept : place_(std::exchange(other.place_, nullptr)) {}
  JsonPlaceRef& operator=(JsonPlaceRef other) noexcept {
    std::swap(place_, other.place_);
    return *this;
  }
  ~JsonPlaceRef();
  [[nodiscard]] const JsonPlace* get() const noexcept { return place_; }

 private:
  JsonPlace* place_ = nullptr;
};

class JsonNode {
 public:
  JsonNode(const JsonSource& source, const nlohmann::json& value, std::string pointer,
           FieldPath path = {});

  [[nodiscard]] const JsonSource& source() const noexcept { return *source_; }
  [[nodiscard]] const nlohmann::json& json() const noexcept { return *value_; }
  /// The JSON pointer of the value in its file.
  [[nodiscard]] std::string pointer() const;
  /// Field path relative to the last rebase() (the enclosing Kubernetes object).
  [[nodiscard]] FieldPath path() const;
  /// The same value with the field path restarted, for the root of an object.
  [[nodiscard]] JsonNode rebased() const;

  /// Member `key` of an object; nullopt when absent or null (Kubernetes treats null as unset).
  /// Fails when this is not an object.
  [[nodiscard]] std::optional<JsonNode> get(std::string_view key) const;
  /// The place where member `key` would be, for errors about an absent member.
  [[nodiscard]] JsonNode missing(std::string_view key) const;
  /// Member `key`, failing with `missing required key "key"` when absent.
  [[nodiscard]] JsonNode required(std::string_view key) const;
  /// Elements of an array, each made when it is reached; fails when this is not an array.
  [[nodiscard]] JsonElements elements() const;
  /// The member `at` points to, of an object already known to be one, as entries() gives it.
  [[nodiscard]] JsonNode member(nlohmann::json::const_iterator at) const;
  /// Element `index` of an array already known to be one.
  [[nodiscard]] JsonNode element(std::size_t index) const;
  /// Members of an object used as a map (labels, resource lists), each made when it is
  /// reached: field path steps are keys.
  [[nodiscard]] JsonEntries entries() const;
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
    source_->not_modelled(pointer(), reason);
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
  [[noreturn]] void fail(std::string reason) const { source_->fail(pointer(), std::move(reason)); }
  /// Throws a field.Error at this place, as the API server words it:
  /// `<prefix><field path>: <detail>`, e.g. prefix `The Pod "x" is invalid: `.
  [[noreturn]] void fail_field(std::string_view detail, std::string_view prefix = {}) const;
  /// Fails with `expected <what>, got <type>` unless the value has `type`.
  void expect_type(nlohmann::json::value_t type, std::string_view what) const;

 private:
  JsonNode(const JsonSource& source, const nlohmann::json& value, JsonPlaceRef place) noexcept
      : source_(&source), value_(&value), place_(std::move(place)) {}

  const JsonSource* source_;
  const nlohmann::json* value_;
  JsonPlaceRef place_;
};

/// The elements of an array as JsonNodes, each made when it is reached: a node and its place
/// are ~130 bytes, so an array of short values held as nodes all at once costs many times its
/// text (when a node carried its pointer and field path spelt out, a 2,000,000-value list in
/// 8 MB of JSON needed 2.8 GB).
class JsonElements {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = JsonNode;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = JsonNode;
    iterator(const JsonNode& array, std::size_t index) : array_(&array), index_(index) {}
    JsonNode operator*() const { return array_->element(index_); }
    iterator& operator++() {
      ++index_;
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.index_ == b.index_; }

   private:
    const JsonNode* array_;
    std::size_t index_;
  };

  explicit JsonElements(JsonNode array) : array_(std::move(array)) {}
  [[nodiscard]] iterator begin() const { return {array_, 0}; }
  [[nodiscard]] iterator end() const { return {array_, size()}; }
  [[nodiscard]] std::size_t size() const noexcept { return array_.json().size(); }
  [[nodiscard]] bool empty() const noexcept { return array_.json().empty(); }
  [[nodiscard]] JsonNode operator[](std::size_t index) const { return array_.element(index); }
  /// All of them at once, for the callers that keep them.
  operator std::vector<JsonNode>() const {  // NOLINT(google-explicit-constructor)
    return {begin(), end()};
  }

 private:
  JsonNode array_;
};

/// The members of an object used as a map, as (key, JsonNode) pairs made when they are reached
/// (see JsonElements).
class JsonEntries {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::pair<std::string, JsonNode>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    iterator(const JsonNode& map, nlohmann::json::const_iterator at) : map_(&map), at_(at) {}
    [[nodiscard]] value_type operator*() const { return {at_.key(), map_->member(at_)}; }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

   private:
    const JsonNode* map_;
    nlohmann::json::const_iterator at_;
  };

  explicit JsonEntries(JsonNode map) : map_(std::move(map)) {}
  [[nodiscard]] iterator begin() const { return {map_, map_.json().cbegin()}; }
  [[nodiscard]] iterator end() const { return {map_, map_.json().cend()}; }
  [[nodiscard]] bool empty() const noexcept { return map_.json().empty(); }

 private:
  JsonNode map_;
};

}  // namespace gpusched::io
