#pragma once
// Kueue's queues (Kueue v0.19.2 pkg/cache/queue/manager.go, cluster_queue.go): a heap of pending
// workloads per ClusterQueue, ordered by priority then queue-order time then UID, and the
// workloads found inadmissible, which wait until an event may help them (a workload finished,
// quota changed) or their requeue backoff ends. StrictFIFO keeps a failed head at the front;
// BestEffortFIFO keeps a preemptor whose preemptions are pending at the front, and otherwise moves
// on to the next.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::kueue {

/// RequeueReason.
enum class RequeueReason : std::uint8_t {
  Generic,
  FailedAfterNomination,
  NoFit,
  NamespaceMismatch,
  PendingPreemption,
  PreemptionNoCandidates,
  PreemptionFailed,
};

/// A workload popped from its ClusterQueue for a scheduling cycle.
struct Head {
  std::string key;
  std::string cluster_queue;
};

/// What a queue needs to order a workload.
struct QueuedWorkload {
  std::string key;
  std::int32_t priority = 0;
  TimeMs timestamp = 0;  ///< the queue-order timestamp
  std::string uid;
  /// Whether its requeue backoff (Requeued=False, or requeueAt in the future) is over.
  bool backoff_expired = true;
};

class QueueManager {
 public:
  /// AddClusterQueue / UpdateClusterQueue.
  void set_cluster_queue(const std::string& name, QueueingStrategy strategy);
  void delete_cluster_queue(const std::string& name);
  /// AddLocalQueue / UpdateLocalQueue: the LocalQueue "ns/name" points at `cluster_queue`.
  void set_local_queue(const std::string& key, const std::string& cluster_queue);
  void delete_local_queue(const std::string& key);
  [[nodiscard]] bool local_queue_exists(const std::string& key) const {
    return local_queues_.contains(key);
  }
  /// The ClusterQueue the LocalQueue "ns/name" points at, if the LocalQueue exists.
  [[nodiscard]] std::optional<std::string> cluster_queue_of(const std::string& lq_key) const;
  [[nodiscard]] bool cluster_queue_exists(const std::string& name) const {
    return queues_.contains(name);
  }

  /// AddOrUpdateWorkload of an admissible workload of the LocalQueue `lq_key`; false when the
  /// LocalQueue or its ClusterQueue does not exist (it is remembered and queued once they do).
  bool add_or_update(const std::string& lq_key, const QueuedWorkload& wl);
  /// RequeueWorkload after a cycle that did not admit it.
  bool requeue(const std::string& lq_key, const QueuedWorkload& wl, RequeueReason reason);
  /// DeleteWorkload: the workload leaves its queue (admitted, finished, deleted).
  void remove(const std::string& key);
  /// QueueInadmissibleWorkloads: the inadmissible workloads of these ClusterQueues whose backoff
  /// is over go back to their heaps.
  void queue_inadmissible(const std::set<std::string>& cluster_queues,
                          const std::function<bool(const std::string&)>& backoff_expired);
  /// Heads: one workload popped from each ClusterQueue in `active`, by ClusterQueue name.
  [[nodiscard]] std::vector<Head> heads(const std::set<std::string>& active);

  /// Pending workloads of a ClusterQueue (heap and inadmissible).
  [[nodiscard]] std::int32_t pending(const std::string& cluster_queue) const;
  /// Whether the workload waits in a queue, in its heap or inadmissible.
  [[nodiscard]] bool queued(const std::string& key) const { return assigned_.contains(key); }
  /// Whether the workload waits in its ClusterQueue's heap (not inadmissible).
  [[nodiscard]] bool queued_in_heap(const std::string& key) const;
  /// Flavor scan progress kept between cycles (FlavorFungibilityPreserveScanProgress).
  std::map<std::string, AssignmentState> last_assignment;

 private:
  struct Order {
    std::int32_t priority;
    TimeMs timestamp;
    std::string uid;
    std::string key;
    /// The ClusterQueue's sticky preemptor (baseCompareFunc): first, whatever its priority.
    bool sticky = false;
    friend bool operator<(const Order& a, const Order& b) {
      if (a.sticky != b.sticky) return a.sticky;
      if (a.priority != b.priority) return a.priority > b.priority;
      if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
      if (a.uid != b.uid) return a.uid < b.uid;
      return a.key < b.key;
    }
  };
  struct PendingQueue {
    QueueingStrategy strategy = QueueingStrategy::BestEffortFIFO;
    std::set<Order> heap;
    std::map<std::string, Order> in_heap;
    std::map<std::string, Order> inadmissible;
    std::int64_t pop_cycle = 0;
    std::int64_t queue_inadmissible_cycle = -1;
    /// preemptorWorkload of a BestEffortFIFO queue: the workload last requeued while its
    /// preemptions are pending, kept at the head until it leaves the queue (Kueue#6929, #7101).
    std::optional<std::string> sticky;
    void push(Order order);
    void erase(const std::string& key);
  };
  static Order order_of(const QueuedWorkload& wl) {
    return Order{wl.priority, wl.timestamp, wl.uid, wl.key};
  }
  PendingQueue* queue_for_local(const std::string& lq_key);

  std::map<std::string, PendingQueue> queues_;
  std::map<std::string, std::string> local_queues_;  // "ns/name" -> ClusterQueue
  std::map<std::string, std::string> assigned_;      // workload key -> LocalQueue key
};

}  // namespace gpusched::kueue
