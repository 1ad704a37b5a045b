#pragma once
// The replay's clock: what happens besides scheduling, one type per kind of event, in the order
// of virtual time. The simulation's event loop pops them and hands each to the component that
// owns it (Simulation::dispatch), as Batsim and SimGrid's loops do.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>

#include "gpusched/model/time.hpp"

namespace gpusched::sim {

/// A pod's containers exited (gpusched.io/run-duration): the kubelet finishes the instance.
struct PodFinished {
  std::string pod_key;  ///< "ns/name"
  std::string pod_uid;  ///< the instance it is for: a pod recreated under the name is another
};
/// A terminating pod's grace period is over: it leaves the API server.
struct TerminationDone {
  std::string pod_key;
  std::string pod_uid;
};
/// A node pool's reservation ends: its nodes leave the cluster.
struct ReservationEnd {
  std::size_t pool = 0;
};
/// A staged pool node takes its next step: a launch's outcome, Ready, or its GPUs advertised.
struct Provision {
  std::size_t staged = 0;
};
/// The cluster autoscaler's loop runs.
struct Autoscale {};
/// A controller syncs `key` (a delayed work-queue item); an empty controller syncs every
/// controller's objects.
struct ControllerSync {
  std::string controller;  ///< its kind ("Job", "DaemonSet"), or empty: all of them
  std::string key;
};
/// The pod garbage collector's pass (pod_gc.hpp).
struct PodGc {};
/// Pods waiting at Permit may have waited their time out (waiting_pods_map.go's timers): the
/// scheduler rejects those whose wait ended.
struct PermitTimeout {};
/// The timeline's `index`-th action.
struct RunAction {
  std::size_t index = 0;
};
/// The `index`-th expectation is checked (after the instant's scheduling cycles).
struct CheckExpectation {
  std::size_t index = 0;
};

/// The alternatives' order ranks the events of one instant: pods finishing and terminations
/// first, then reservations ending and nodes advancing through provisioning, the autoscaler,
/// controller syncs, the pod garbage collector, Permit timeouts, timeline actions in file order,
/// and expectations last.
using Event = std::variant<PodFinished, TerminationDone, ReservationEnd, Provision, Autoscale,
                           ControllerSync, PodGc, PermitTimeout, RunAction, CheckExpectation>;

/// std::visit over lambdas, one per alternative.
template <typename... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
// C++20 deduces it without the guide, but Clang 14 (the fuzz build) does not yet.
template <typename... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

class EventQueue {
 public:
  struct Entry {
    TimeMs time = 0;
    std::uint64_t seq = 0;  ///< insertion order, among events of one time and kind
    Event event;
    friend bool operator<(const Entry& a, const Entry& b) {
      return std::forward_as_tuple(a.time, a.event.index(), a.seq) <
             std::forward_as_tuple(b.time, b.event.index(), b.seq);
    }
  };

  void push(TimeMs time, Event event) { entries_.insert(Entry{time, ++seq_, std::move(event)}); }
  [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
  /// The time of the next event.
  [[nodiscard]] std::optional<TimeMs> next_time() const {
    if (entries_.empty()) return std::nullopt;
    return entries_.begin()->time;
  }
  /// The next event if it is at `now` and of kind `E` (or, with `except`, of any kind but E).
  template <typename E>
  [[nodiscard]] std::optional<Entry> pop_at(TimeMs now, bool except = false) {
    if (entries_.empty()) return std::nullopt;
    const Entry& top = *entries_.begin();
    if (top.time != now || std::holds_alternative<E>(top.event) == except) return std::nullopt;
    Entry out = top;
    entries_.erase(entries_.begin());
    return out;
  }
  /// Every queued event, in order.
  [[nodiscard]] const std::set<Entry>& entries() const noexcept { return entries_; }
  /// The first queued event of kind E that `match` accepts, or nullptr.
  template <typename E, typename Match>
  [[nodiscard]] const Entry* find(Match match) const {
    for (const Entry& entry : entries_) {
      if (const E* e = std::get_if<E>(&entry.event); e != nullptr && match(entry.time, *e))
        return &entry;
    }
    return nullptr;
  }
  void erase(const Entry* entry) { entries_.erase(*entry); }

 private:
  std::set<Entry> entries_;
  std::uint64_t seq_ = 0;
};

}  // namespace gpusched::sim
