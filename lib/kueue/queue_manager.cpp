#include "kueue/queue_manager.hpp"

#include <algorithm>

namespace gpusched::kueue {

void QueueManager::PendingQueue::push(Order order) {
  erase(order.key);
  order.sticky = sticky == order.key;
  heap.insert(order);
  in_heap.emplace(order.key, order);
}

void QueueManager::PendingQueue::erase(const std::string& key) {
  if (auto it = in_heap.find(key); it != in_heap.end()) {
    heap.erase(it->second);
    in_heap.erase(it);
  }
  inadmissible.erase(key);
}

void QueueManager::set_cluster_queue(const std::string& name, QueueingStrategy strategy) {
  queues_[name].strategy = strategy;
}

void QueueManager::delete_cluster_queue(const std::string& name) {
  queues_.erase(name);
}

void QueueManager::set_local_queue(const std::string& key, const std::string& cluster_queue) {
  local_queues_[key] = cluster_queue;
}

void QueueManager::delete_local_queue(const std::string& key) {
  local_queues_.erase(key);
  for (auto it = assigned_.begin(); it != assigned_.end();) {
    if (it->second == key) {
      for (auto& [name, q] : queues_) {
        q.erase(it->first);
        if (q.sticky == it->first) q.sticky.reset();
      }
      it = assigned_.erase(it);
    } else {
      ++it;
    }
  }
}

std::optional<std::string> QueueManager::cluster_queue_of(const std::string& lq_key) const {
  auto it = local_queues_.find(lq_key);
  if (it == local_queues_.end()) return std::nullopt;
  return it->second;
}

QueueManager::PendingQueue* QueueManager::queue_for_local(const std::string& lq_key) {
  auto lq = local_queues_.find(lq_key);
  if (lq == local_queues_.end()) return nullptr;
  auto cq = queues_.find(lq->second);
  return cq == queues_.end() ? nullptr : &cq->second;
}

bool QueueManager::add_or_update(const std::string& lq_key, const QueuedWorkload& wl) {
  if (auto it = assigned_.find(wl.key); it != assigned_.end() && it->second != lq_key)
    remove(wl.key);
  PendingQueue* q = queue_for_local(lq_key);
  if (q == nullptr) return false;
  assigned_[wl.key] = lq_key;
  const Order order = order_of(wl);
  // PushOrUpdate: an inadmissible workload stays so (updated in place) unless it changed;
  // its order data is what may change here.
  if (auto it = q->inadmissible.find(wl.key); it != q->inadmissible.end()) {
    it->second = order;
    return true;
  }
  if (!q->in_heap.contains(wl.key) && !wl.backoff_expired) {
    q->inadmissible[wl.key] = order;
    return true;
  }
  q->push(order);
  return true;
}

bool QueueManager::requeue(const std::string& lq_key, const QueuedWorkload& wl,
                           RequeueReason reason) {
  PendingQueue* q = queue_for_local(lq_key);
  if (q == nullptr) return false;
  assigned_[wl.key] = lq_key;
  // RequeueIfNotPresent: StrictFIFO puts the head straight back (unless the namespace does not
  // match); BestEffortFIFO only after a failure past nomination or pending preemptions.
  bool immediate = false;
  if (q->strategy == QueueingStrategy::StrictFIFO) {
    immediate = reason != RequeueReason::NamespaceMismatch;
  } else {
    immediate = reason == RequeueReason::FailedAfterNomination ||
                reason == RequeueReason::PendingPreemption ||
                reason == RequeueReason::PreemptionFailed;
  }
  // The preemptor workload (cluster_queue.go requeueIfNotPresent): for BestEffortFIFO it is
  // sticky, so that workloads skipped over meanwhile do not take the head back. No other
  // workload of the queue is in its heap now: the previous sticky one was its head until popped.
  if (reason == RequeueReason::PendingPreemption && q->strategy == QueueingStrategy::BestEffortFIFO)
    q->sticky = wl.key;
  const Order order = order_of(wl);
  const bool pending_flavors =
      last_assignment.contains(wl.key) && last_assignment.at(wl.key).pending_flavors();
  if (wl.backoff_expired &&
      (immediate || q->queue_inadmissible_cycle >= q->pop_cycle || pending_flavors)) {
    if (q->inadmissible.contains(wl.key)) {
      q->inadmissible.erase(wl.key);
      q->push(order);
      return true;
    }
    if (q->in_heap.contains(wl.key)) return false;
    q->push(order);
    return true;
  }
  if (q->inadmissible.contains(wl.key) || q->in_heap.contains(wl.key)) return false;
  q->inadmissible[wl.key] = order;
  return true;
}

void QueueManager::remove(const std::string& key) {
  auto it = assigned_.find(key);
  if (it == assigned_.end()) return;
  for (auto& [name, q] : queues_) {
    q.erase(key);
    // ClusterQueue.delete: a workload that leaves the queue is no longer its preemptor.
    if (q.sticky == key) q.sticky.reset();
  }
  assigned_.erase(it);
  last_assignment.erase(key);
}

void QueueManager::queue_inadmissible(
    const std::set<std::string>& cluster_queues,
    const std::function<bool(const std::string&)>& backoff_expired) {
  for (const std::string& name : cluster_queues) {
    auto it = queues_.find(name);
    if (it == queues_.end()) continue;
    PendingQueue& q = it->second;
    q.queue_inadmissible_cycle = q.pop_cycle;
    std::vector<Order> moved;
    for (auto in = q.inadmissible.begin(); in != q.inadmissible.end();) {
      if (backoff_expired(in->first)) {
        moved.push_back(in->second);
        in = q.inadmissible.erase(in);
      } else {
        ++in;
      }
    }
    for (const Order& order : moved) q.push(order);
  }
}

std::vector<Head> QueueManager::heads(const std::set<std::string>& active) {
  std::vector<Head> out;
  for (auto& [name, q] : queues_) {
    if (!active.contains(name)) continue;
    ++q.pop_cycle;
    if (q.heap.empty()) continue;
    const Order order = *q.heap.begin();
    q.heap.erase(q.heap.begin());
    q.in_heap.erase(order.key);
    out.push_back(Head{order.key, name});
  }
  return out;
}

std::int32_t QueueManager::pending(const std::string& cluster_queue) const {
  auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return 0;
  return static_cast<std::int32_t>(it->second.in_heap.size() + it->second.inadmissible.size());
}

bool QueueManager::queued_in_heap(const std::string& key) const {
  return std::any_of(queues_.begin(), queues_.end(),
                     [&](const auto& entry) { return entry.second.in_heap.contains(key); });
}

}  // namespace gpusched::kueue
