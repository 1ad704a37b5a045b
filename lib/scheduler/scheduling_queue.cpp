#include "scheduler/scheduling_queue.hpp"

#include <algorithm>

#include "gpusched/config/plugin_names.hpp"

namespace gpusched {
namespace {

constexpr TimeMs kOrderingWindow = 1000;             // backoffQOrderingWindowDuration
constexpr TimeMs kUnschedulableFlushPeriod = 30000;  // flushUnschedulablePodsLeftover
constexpr TimeMs kMaxInUnschedulablePods =
    5 * 60 * 1000;  // DefaultPodMaxInUnschedulablePodsDuration

TimeMs align_to_window(TimeMs t) {
  return t - t % kOrderingWindow;
}

}  // namespace

bool SchedulingQueue::ActiveLess::operator()(const QueuedPod* a, const QueuedPod* b) const {
  const QueueSortPlugin& sort = a->framework->queue_sort();
  if (sort.less(*a->pod, a->timestamp, *b->pod, b->timestamp)) return true;
  if (sort.less(*b->pod, b->timestamp, *a->pod, a->timestamp)) return false;
  return a->pod->sequence < b->pod->sequence;  // upstream's heap order here is arbitrary
}

// lessBackoffCompletedWithPriority: earlier expiry first, then the active queue's order.
bool SchedulingQueue::BackoffLess::operator()(const BackoffKey& a, const BackoffKey& b) const {
  if (a.first != b.first) return a.first < b.first;
  return ActiveLess{}(a.second, b.second);
}

SchedulingQueue::SchedulingQueue(std::int64_t initial_backoff_ms, std::int64_t max_backoff_ms)
    : initial_backoff_ms_(initial_backoff_ms), max_backoff_ms_(max_backoff_ms) {}

SchedulingQueue::~SchedulingQueue() = default;

void SchedulingQueue::add(PodInfo& pod, Framework& framework, TimeMs now) {
  auto entry = std::make_unique<QueuedPod>();
  entry->pod = &pod;
  entry->framework = &framework;
  entry->timestamp = now;
  QueuedPod& ref = *entry;
  entries_[&pod] = std::move(entry);
  to_active(ref);
}

QueuedPod* SchedulingQueue::find(const PodInfo& pod) const {
  auto it = entries_.find(&pod);
  return it == entries_.end() ? nullptr : it->second.get();
}

void SchedulingQueue::detach(QueuedPod& pod) {
  switch (pod.where) {
    case QueuedPod::Where::Active:
      active_.erase(&pod);
      break;
    case QueuedPod::Where::Backoff:
      backoff_.erase({backoff_expiry(pod), &pod});
      break;
    case QueuedPod::Where::ErrorBackoff:
      error_backoff_.erase({backoff_expiry(pod), &pod});
      parked_.erase({backoff_expiry(pod), &pod});
      break;
    case QueuedPod::Where::Unschedulable:
      unschedulable_.erase(pod.pod->sequence);
      break;
    case QueuedPod::Where::Gated:
      gated_.erase(pod.pod->sequence);
      break;
    case QueuedPod::Where::InFlight:
      break;
  }
  pod.where = QueuedPod::Where::InFlight;
}

void SchedulingQueue::remove(const PodInfo& pod) {
  auto it = entries_.find(&pod);
  if (it == entries_.end()) return;
  detach(*it->second);
  entries_.erase(it);
}

bool SchedulingQueue::passes_pre_enqueue(QueuedPod& pod) const {
  const Status status = pod.framework->run_pre_enqueue(*pod.pod);
  pod.gating_plugin.clear();
  if (status.ok()) return true;
  pod.gating_plugin = std::string(status.plugin);
  pod.unschedulable_plugins.emplace(pod.gating_plugin);
  return false;
}

void SchedulingQueue::to_active(QueuedPod& pod, bool pre_enqueue) {
  if (pre_enqueue && !passes_pre_enqueue(pod)) {
    to_gated(pod);
    return;
  }
  pod.where = QueuedPod::Where::Active;
  active_.insert(&pod);
}

void SchedulingQueue::to_gated(QueuedPod& pod) {
  pod.where = QueuedPod::Where::Gated;
  gated_.emplace(pod.pod->sequence, &pod);
}

QueuedPod* SchedulingQueue::pop() {
  QueuedPod* pod = nullptr;
  if (!active_.empty()) {
    pod = *active_.begin();
  } else if (!backoff_.empty()) {
    pod = backoff_.begin()->second;
  } else {
    return nullptr;
  }
  return take(*pod);
}

QueuedPod* SchedulingQueue::pop_specific(const PodInfo& info) {
  QueuedPod* pod = find(info);
  if (pod == nullptr || pod->where == QueuedPod::Where::Gated ||
      pod->where == QueuedPod::Where::InFlight)
    return nullptr;
  return take(*pod);
}

QueuedPod* SchedulingQueue::take(QueuedPod& pod) {
  detach(pod);
  if (pod.first_attempt == 0) pod.first_attempt = ++first_attempts_;
  ++pod.attempts;
  pod.unschedulable_plugins.clear();
  pod.pending_plugins.clear();
  return &pod;
}

// calculateBackoffDuration doubles from the initial backoff once per attempt after the first,
// capped at the max; the expiry is truncated to the 1 s ordering window (1.33+).
TimeMs SchedulingQueue::backoff_expiry(const QueuedPod& pod) const {
  if (pod.attempts == 0) return 0;
  std::int64_t duration = initial_backoff_ms_;
  for (int i = 1; i < pod.attempts; ++i) {
    if (duration > max_backoff_ms_ - duration) {
      duration = max_backoff_ms_;
      break;
    }
    duration += duration;
  }
  return align_to_window(pod.timestamp + duration);
}

// isPodBackingoff: "in case of windows equality we want to return true".
bool SchedulingQueue::backing_off(const QueuedPod& pod, TimeMs now) const {
  return pod.attempts > 0 && backoff_expiry(pod) >= align_to_window(now);
}

void SchedulingQueue::add_unschedulable(QueuedPod& pod, TimeMs now) {
  pod.timestamp = now;  // "Refresh the timestamp since the pod is re-added."
  if ((pod.unschedulable_plugins.empty() && pod.pending_plugins.empty()) || pod.in_pod_group) {
    // determineSchedulingHintForInFlightPod: no rejector plugin means an error, and a PodGroup's
    // pod goes back whatever rejected it; retry after backoff, from the error backoff queue,
    // which Pop never takes early. A PodGroup's pod a plugin rejected is parked there too: see
    // wake_pod_groups.
    pod.where = QueuedPod::Where::ErrorBackoff;
    error_backoff_.insert({backoff_expiry(pod), &pod});
    if (pod.in_pod_group && !(pod.unschedulable_plugins.empty() && pod.pending_plugins.empty()))
      parked_.insert({backoff_expiry(pod), &pod});
    return;
  }
  pod.where = QueuedPod::Where::Unschedulable;
  unschedulable_.emplace(pod.pod->sequence, &pod);
}

SchedulingQueue::Strategy SchedulingQueue::worth_requeuing(const QueuedPod& pod,
                                                           const ClusterEvent& event,
                                                           const EventObjects& objects) const {
  if (pod.unschedulable_plugins.empty() && pod.pending_plugins.empty())
    return Strategy::AfterBackoff;
  if (event.resource == EventResource::WildCard) return Strategy::AfterBackoff;
  Strategy strategy = Strategy::Skip;
  for (const Framework::Registration& reg : pod.framework->registrations()) {
    if (!event.matches(reg.event.event)) continue;
    const std::string_view name = reg.plugin->name();
    const bool pending = pod.pending_plugins.contains(name);
    if (!pending && !pod.unschedulable_plugins.contains(name)) continue;
    const QueueingHint hint = reg.event.has_hint
                                  ? reg.plugin->queueing_hint(event, *pod.pod, objects)
                                  : QueueingHint::Queue;
    if (hint == QueueingHint::QueueSkip) continue;
    if (pending) return Strategy::Immediately;
    if (pod.pending_plugins.empty()) return Strategy::AfterBackoff;
    strategy = Strategy::AfterBackoff;
  }
  return strategy;
}

// requeuePodWithQueueingStrategy.
void SchedulingQueue::requeue(QueuedPod& pod, Strategy strategy, TimeMs now) {
  if (strategy == Strategy::Skip) return;
  detach(pod);
  if (strategy == Strategy::AfterBackoff && backing_off(pod, now)) {
    // moveToBackoffQ: with SchedulerPopFromBackoffQ the PreEnqueue plugins run here.
    if (!passes_pre_enqueue(pod)) {
      to_gated(pod);
      return;
    }
    pod.where = QueuedPod::Where::Backoff;
    backoff_.insert({backoff_expiry(pod), &pod});
    return;
  }
  to_active(pod);
}

void SchedulingQueue::wake_pod_groups() {
  if (parked_.empty()) return;
  std::vector<QueuedPod*> parked;
  for (const auto& [expiry, pod] : parked_) parked.push_back(pod);
  for (QueuedPod* pod : parked) {
    detach(*pod);
    pod->where = QueuedPod::Where::Backoff;
    backoff_.insert({backoff_expiry(*pod), pod});
  }
}

void SchedulingQueue::move_for_event(const ClusterEvent& event, const EventObjects& objects,
                                     TimeMs now,
                                     const std::function<bool(const QueuedPod&)>& candidates) {
  wake_pod_groups();
  std::vector<QueuedPod*> waiting;
  waiting.reserve(unschedulable_.size());
  for (const auto& [seq, pod] : unschedulable_) {
    if (!candidates || candidates(*pod)) waiting.push_back(pod);
  }
  // Pods SchedulingGates gated wait for their own update only; other PreEnqueue plugins' (the
  // gang's) may be helped by events (movePodsToActiveOrBackoffQueue, issue #124384).
  for (const auto& [seq, pod] : gated_) {
    if (pod->gating_plugin != names::kSchedulingGates && (!candidates || candidates(*pod)))
      waiting.push_back(pod);
  }
  for (QueuedPod* pod : waiting) requeue(*pod, worth_requeuing(*pod, event, objects), now);
}

void SchedulingQueue::activate(const PodInfo& info) {
  QueuedPod* pod = find(info);
  if (pod == nullptr || pod->where == QueuedPod::Where::Active ||
      pod->where == QueuedPod::Where::InFlight)
    return;
  detach(*pod);
  to_active(*pod);
}

void SchedulingQueue::requeue_if_helped(QueuedPod& pod, const ClusterEvent& event,
                                        const EventObjects& objects, TimeMs now) {
  if (pod.where != QueuedPod::Where::Unschedulable && pod.where != QueuedPod::Where::Gated) return;
  requeue(pod, worth_requeuing(pod, event, objects), now);
}

std::optional<TimeMs> SchedulingQueue::next_timer(TimeMs now) const {
  std::optional<TimeMs> next;
  auto consider = [&](TimeMs t, TimeMs period) {
    const TimeMs first_tick = (now + period - 1) / period * period;  // the loops tick on multiples
    t = std::max(t, first_tick);
    if (!next || t < *next) next = t;
  };
  // An error-backoff pod leaves at the first whole-second flush after its (aligned) expiry.
  if (!error_backoff_.empty())
    consider(error_backoff_.begin()->first + kOrderingWindow, kOrderingWindow);
  for (const auto& [seq, pod] : unschedulable_) {
    // The first 30 s tick at which more than 5 minutes have passed since its timestamp.
    const TimeMs due = pod->timestamp + kMaxInUnschedulablePods;
    consider((due / kUnschedulableFlushPeriod + 1) * kUnschedulableFlushPeriod,
             kUnschedulableFlushPeriod);
  }
  return next;
}

void SchedulingQueue::on_timer(TimeMs now) {
  while (!error_backoff_.empty() && error_backoff_.begin()->first < align_to_window(now)) {
    QueuedPod* pod = error_backoff_.begin()->second;
    detach(*pod);
    to_active(*pod, /*pre_enqueue=*/false);  // BackoffComplete
  }
  if (now % kUnschedulableFlushPeriod != 0) return;
  std::vector<QueuedPod*> leftovers;
  for (const auto& [seq, pod] : unschedulable_) {
    if (now - pod->timestamp > kMaxInUnschedulablePods) leftovers.push_back(pod);
  }
  // EventUnschedulableTimeout is a wildcard event: queue after backoff.
  for (QueuedPod* pod : leftovers) requeue(*pod, Strategy::AfterBackoff, now);
}

}  // namespace gpusched
