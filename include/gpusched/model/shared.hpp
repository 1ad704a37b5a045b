#pragma once
/// Copy-on-write values for the parts of an object that its copies rarely change: the pods a
/// controller creates from one template share its containers, labels, affinity and owner
/// reference instead of holding a copy each (a replay of a million pods would otherwise spend
/// most of its memory on identical copies).

#include <atomic>
#include <cstddef>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace gpusched {

namespace detail {

/// One shared value and the count of its owners, in one allocation. A pointer to it is the
/// whole of a Shared or SharedOptional: 8 bytes where a std::shared_ptr took 16, in every field
/// of every pod (a million-pod replay holds a dozen such fields per pod, twice: its PodInfo and
/// then its record).
template <class T>
class SharedBox {
 public:
  /// A new value with one owner.
  template <class... A>
  [[nodiscard]] static SharedBox* make(A&&... args) {
    return new SharedBox(std::forward<A>(args)...);  // NOLINT: owned by the handles below
  }
  static void acquire(SharedBox* box) noexcept {
    if (box != nullptr) box->owners_.fetch_add(1, std::memory_order_relaxed);
  }
  /// As std::shared_ptr's release: the last owner deletes after every other owner's writes.
  static void release(SharedBox* box) noexcept {
    if (box != nullptr && box->owners_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete box;
  }
  /// Whether `box` is the only owner's: then its writes need no copy. Copies may live in other
  /// threads (replays of one scenario in parallel); acquire makes the last other owner's
  /// release of the value happen before the write that follows.
  [[nodiscard]] bool sole() const noexcept { return owners_.load(std::memory_order_acquire) == 1; }

  T value;

 private:
  template <class... A>
  explicit SharedBox(A&&... args) : value(std::forward<A>(args)...) {}

  std::atomic<std::size_t> owners_{1};
};

/// An owning handle on a SharedBox (null: no value).
template <class T>
class SharedHandle {
 public:
  SharedHandle() = default;
  explicit SharedHandle(SharedBox<T>* box) noexcept : box_(box) {}
  SharedHandle(const SharedHandle& other) noexcept : box_(other.box_) {
    SharedBox<T>::acquire(box_);
  }
  SharedHandle(SharedHandle&& other) noexcept : box_(std::exchange(other.box_, nullptr)) {}
  SharedHandle& operator=(const SharedHandle& other) noexcept {
    SharedHandle(other).swap(*this);
    return *this;
  }
  SharedHandle& operator=(SharedHandle&& other) noexcept {
    SharedHandle(std::move(other)).swap(*this);
    return *this;
  }
  ~SharedHandle() { SharedBox<T>::release(box_); }

  void swap(SharedHandle& other) noexcept { std::swap(box_, other.box_); }
  void reset() noexcept { SharedHandle().swap(*this); }
  template <class... A>
  T& emplace(A&&... args) {
    SharedHandle(SharedBox<T>::make(std::forward<A>(args)...)).swap(*this);
    return box_->value;
  }
  /// The value to write, this handle's own: copied first when another handle shares it.
  [[nodiscard]] T& own() {
    if (box_ == nullptr) return emplace();
    if (!box_->sole()) return emplace(box_->value);
    return box_->value;
  }

  [[nodiscard]] T* get() const noexcept { return box_ != nullptr ? &box_->value : nullptr; }
  friend bool operator==(const SharedHandle& a, const SharedHandle& b) noexcept {
    return a.box_ == b.box_;
  }

 private:
  SharedBox<T>* box_ = nullptr;
};

}  // namespace detail

/// Text a shared string (T: std::string) is written from and compared with: anything a
/// std::string_view is made from, but the shared string itself.
template <class S, class T, class Self>
concept TextFor = std::is_same_v<T, std::string> &&
    std::is_convertible_v<const S&, std::string_view> && !std::is_same_v<S, Self>;

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
  Shared(T value) : value_(detail::SharedBox<T>::make(std::move(value))) {}  // NOLINT: implicit
  template <class U = T>
  Shared(std::initializer_list<typename U::value_type> values) : Shared(T(values)) {}
  /// A shared string (a field most objects leave empty, at its default or as their template
  /// has it) is written from any text, as a std::string is.
  template <TextFor<T, Shared> S>
  Shared(const S& text) : Shared(T(std::string_view(text))) {}  // NOLINT: implicit

  [[nodiscard]] const T& get() const noexcept {
    const T* value = value_.get();
    return value != nullptr ? *value : none();
  }
  operator const T&() const noexcept { return get(); }  // NOLINT: implicit, reads as a T
  [[nodiscard]] const T& operator*() const noexcept { return get(); }
  [[nodiscard]] const T* operator->() const noexcept { return &get(); }
  /// A shared string reads as text where a std::string_view is taken.
  operator std::string_view() const noexcept  // NOLINT: implicit, reads as the string
      requires std::is_same_v<T, std::string> {
    return get();
  }

  /// The value to write: this object's own copy, made now if the value is shared. Copies may
  /// live in other threads (replays of one scenario in parallel): the last other owner's
  /// release of the value happens before this write.
  [[nodiscard]] T& mut() { return value_.own(); }

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
  /// A shared string compares with any text; two order as their texts do.
  template <TextFor<T, Shared> S>
  friend bool operator==(const Shared& a, const S& b) {
    return std::string_view(a.get()) == std::string_view(b);
  }
  friend auto operator<=>(const Shared& a,
                          const Shared& b) requires std::is_same_v<T, std::string> {
    return a.get() <=> b.get();
  }

 private:
  static const T& none() noexcept {
    static const T value;
    return value;
  }

  detail::SharedHandle<T> value_;  // null: empty
};

/// An optional value that copies share, for a field most objects leave empty: the object holds
/// a pointer instead of the value (a pod's spec.resources and workloadRef would otherwise add
/// 176 bytes to every pod). Reads look like std::optional's; writes go through mut(), which
/// copies the value first when another object shares it.
template <class T>
class SharedOptional {
 public:
  SharedOptional() = default;
  SharedOptional(std::nullopt_t) noexcept {}                                         // NOLINT
  SharedOptional(T value) : value_(detail::SharedBox<T>::make(std::move(value))) {}  // NOLINT

  [[nodiscard]] bool has_value() const noexcept { return value_.get() != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  /// Only with a value, as std::optional's.
  [[nodiscard]] const T& operator*() const noexcept { return *value_.get(); }
  [[nodiscard]] const T* operator->() const noexcept { return value_.get(); }

  /// The value to write, this object's own; only with a value.
  [[nodiscard]] T& mut() { return value_.own(); }
  template <class... A>
  T& emplace(A&&... args) {
    return value_.emplace(std::forward<A>(args)...);
  }
  void reset() noexcept { value_.reset(); }

  friend bool operator==(const SharedOptional& a, const SharedOptional& b) {
    if (a.value_ == b.value_) return true;
    return a.has_value() && b.has_value() && *a == *b;
  }

 private:
  detail::SharedHandle<T> value_;  // null: no value
};

/// A string field most objects leave empty, at a default or as their template has it: a pointer
/// to text that copies share.
using SharedText = Shared<std::string>;

/// A shared string joins other text as a std::string does.
inline std::string operator+(const std::string& a, const SharedText& b) {
  return a + b.get();
}
inline std::string operator+(std::string&& a, const SharedText& b) {
  a += b.get();
  return std::move(a);
}
inline std::string operator+(const char* a, const SharedText& b) {
  return a + b.get();
}
inline std::string operator+(char a, const SharedText& b) {
  return a + b.get();
}
inline std::string operator+(const SharedText& a, const std::string& b) {
  return a.get() + b;
}
inline std::string operator+(const SharedText& a, std::string&& b) {
  b.insert(0, a.get());
  return std::move(b);
}
inline std::string operator+(const SharedText& a, const char* b) {
  return a.get() + b;
}
inline std::string operator+(const SharedText& a, char b) {
  return a.get() + b;
}

/// A shared string prints as its text.
template <class Char, class Traits>
std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& out,
                                             const Shared<std::string>& text) {
  return out << text.get();
}

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
