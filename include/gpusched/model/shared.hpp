#pragma once
/// Copy-on-write values for the parts of an object that its copies rarely change: the pods a
/// controller creates from one template share its containers, labels, affinity and owner
/// reference instead of holding a copy each (a replay of a million pods would otherwise spend
/// most of its memory on identical copies).

#include <atomic>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace gpusched {

/// The member types a container has; nothing for other values.
template <class T>
struct SharedContainerTypes {};
template <class T>
requires requires {
  typename T::value_type;
}
struct SharedContainerTypes<T> {
  using value_type = typename T::value_type;
  using const_iterator = typename T::const_iterator;
  using iterator = const_iterator;
  using size_type = typename T::size_type;
};

/// A value shared between copies until one of them is written. Reads go through `->` and `*`,
/// and for a container (map or vector) look like its const interface; writes go through mut(),
/// or through a container's usual mutators below, and copy the value first when another object
/// shares it. Iteration and indexing are read-only on purpose: a write through them would have
/// to copy the value on every non-const read.
template <class T>
class Shared : public SharedContainerTypes<T> {
 public:
  Shared() = default;
  Shared(T value) : value_(std::make_shared<T>(std::move(value))) {}  // NOLINT: implicit
  template <class U = T>
  Shared(std::initializer_list<typename U::value_type> values) : Shared(T(values)) {}

  [[nodiscard]] const T& get() const noexcept { return value_ ? *value_ : none(); }
  operator const T&() const noexcept { return get(); }  // NOLINT: implicit, reads as a T
  [[nodiscard]] const T& operator*() const noexcept { return get(); }
  [[nodiscard]] const T* operator->() const noexcept { return &get(); }

  /// The value to write: this object's own copy, made now if the value is shared. Copies may
  /// live in other threads (replays of one scenario in parallel): the last other owner's
  /// release of the value happens before this write.
  [[nodiscard]] T& mut() {
    if (!value_) {
      value_ = std::make_shared<T>();
    } else if (value_.use_count() > 1) {
      value_ = std::make_shared<T>(*value_);
    } else {
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *value_;
  }

  [[nodiscard]] auto begin() const noexcept { return get().begin(); }
  [[nodiscard]] auto end() const noexcept { return get().end(); }
  [[nodiscard]] auto size() const noexcept { return get().size(); }
  [[nodiscard]] bool empty() const noexcept { return get().empty(); }
  [[nodiscard]] decltype(auto) front() const { return get().front(); }
  template <class K>
  [[nodiscard]] decltype(auto) operator[](const K& key) const {
    return get()[key];
  }
  /// A map's operator[] inserts, so it writes even when used to read, as std::map's does.
  template <class K>
  requires requires { typename T::mapped_type; }
  decltype(auto) operator[](K&& key) { return mut()[std::forward<K>(key)]; }
  template <class K>
  [[nodiscard]] decltype(auto) at(const K& key) const {
    return get().at(key);
  }
  template <class K>
  [[nodiscard]] auto find(const K& key) const {
    return get().find(key);
  }
  template <class K>
  [[nodiscard]] bool contains(const K& key) const {
    return get().contains(key);
  }

  template <class... A>
  decltype(auto) emplace(A&&... args) {
    return mut().emplace(std::forward<A>(args)...);
  }
  template <class... A>
  decltype(auto) try_emplace(A&&... args) {
    return mut().try_emplace(std::forward<A>(args)...);
  }
  template <class... A>
  decltype(auto) insert_or_assign(A&&... args) {
    return mut().insert_or_assign(std::forward<A>(args)...);
  }
  template <class U = T>
  void push_back(const typename U::value_type& value) {
    mut().push_back(value);
  }
  template <class U = T>
  void push_back(typename U::value_type&& value) {
    mut().push_back(std::move(value));
  }
  /// Erases by key (an iterator from a shared value would not point into the copy).
  template <class K>
  auto erase(const K& key) {
    static_assert(!std::is_convertible_v<K, decltype(get().begin())>,
                  "erase by key, not by iterator");
    return mut().erase(key);
  }
  void clear() noexcept { value_.reset(); }

  /// True when both hold the very same value (not merely equal ones): a cheap sameness test.
  [[nodiscard]] bool shares(const Shared& other) const noexcept { return value_ == other.value_; }

  friend bool operator==(const Shared& a, const Shared& b) {
    return a.value_ == b.value_ || a.get() == b.get();
  }

 private:
  static const T& none() noexcept {
    static const T value;
    return value;
  }

  std::shared_ptr<T> value_;  // null: empty
};

/// An optional value that copies share, for a field most objects leave empty: the object holds
/// a pointer instead of the value (a pod's spec.resources and workloadRef would otherwise add
/// 176 bytes to every pod). Reads look like std::optional's; writes go through mut(), which
/// copies the value first when another object shares it.
template <class T>
class SharedOptional {
 public:
  SharedOptional() = default;
  SharedOptional(std::nullopt_t) noexcept {}                                  // NOLINT
  SharedOptional(T value) : value_(std::make_shared<T>(std::move(value))) {}  // NOLINT

  [[nodiscard]] bool has_value() const noexcept { return value_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  /// Only with a value, as std::optional's.
  [[nodiscard]] const T& operator*() const noexcept { return *value_; }
  [[nodiscard]] const T* operator->() const noexcept { return value_.get(); }

  /// The value to write, this object's own; only with a value.
  [[nodiscard]] T& mut() {
    if (value_.use_count() > 1) {
      value_ = std::make_shared<T>(*value_);
    } else {
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *value_;
  }
  template <class... A>
  T& emplace(A&&... args) {
    value_ = std::make_shared<T>(std::forward<A>(args)...);
    return *value_;
  }
  void reset() noexcept { value_.reset(); }

  friend bool operator==(const SharedOptional& a, const SharedOptional& b) {
    if (a.value_ == b.value_) return true;
    return a.value_ && b.value_ && *a.value_ == *b.value_;
  }

 private:
  std::shared_ptr<T> value_;  // null: no value
};

/// JSON libraries that look serializers up by argument-dependent lookup (nlohmann::json does)
/// write and read a Shared value as the value itself.
template <class Json, class T>
void to_json(Json& json, const Shared<T>& value) {
  json = value.get();
}
template <class Json, class T>
void from_json(const Json& json, Shared<T>& value) {
  value = json.template get<T>();
}

}  // namespace gpusched
