// Kueue's queues (lib/kueue/queue_manager.cpp): the heap order and the sticky preemptor, ported
// from Kueue v0.19.2 pkg/cache/queue/cluster_queue_test.go (TestBestEffortFIFORequeueIfNotPresent,
// its wantSticky column, and TestFIFOClusterQueue's order).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kueue/queue_manager.hpp"

namespace gpusched::kueue {
namespace {

QueuedWorkload queued(const std::string& key, std::int32_t priority, TimeMs timestamp) {
  return QueuedWorkload{key, priority, timestamp, "uid-" + key, true};
}

/// The keys popped from `cq`, one cycle each, until its heap is empty.
std::vector<std::string> drain(QueueManager& queues, const std::string& cq) {
  std::vector<std::string> out;
  for (;;) {
    const std::vector<Head> heads = queues.heads({cq});
    if (heads.empty()) return out;
    out.push_back(heads.front().key);
  }
}

QueueManager with_queue(QueueingStrategy strategy) {
  QueueManager queues;
  queues.set_cluster_queue("cq", strategy);
  queues.set_local_queue("ns/lq", "cq");
  return queues;
}

}  // namespace

TEST_CASE("The heap pops by priority, then queue-order time, then UID", "[kueue][queue-manager]") {
  QueueManager queues = with_queue(QueueingStrategy::BestEffortFIFO);
  queues.add_or_update("ns/lq", queued("ns/late", 0, 2'000));
  queues.add_or_update("ns/lq", queued("ns/high", 10, 3'000));
  queues.add_or_update("ns/lq", queued("ns/b", 0, 1'000));
  queues.add_or_update("ns/lq", queued("ns/a", 0, 1'000));
  CHECK(drain(queues, "cq") == std::vector<std::string>{"ns/high", "ns/a", "ns/b", "ns/late"});
}

TEST_CASE("A BestEffortFIFO preemptor stays at the head until it leaves the queue",
          "[kueue][queue-manager]") {
  QueueManager queues = with_queue(QueueingStrategy::BestEffortFIFO);
  queues.add_or_update("ns/lq", queued("ns/preemptor", 0, 1'000));
  REQUIRE(queues.heads({"cq"}).front().key == "ns/preemptor");
  // Its preemptions are issued: requeued at once, and sticky.
  CHECK(
      queues.requeue("ns/lq", queued("ns/preemptor", 0, 1'000), RequeueReason::PendingPreemption));
  CHECK(queues.queued_in_heap("ns/preemptor"));
  // Requeued again while present: not added twice (RequeueIfNotPresent).
  CHECK_FALSE(
      queues.requeue("ns/lq", queued("ns/preemptor", 0, 1'000), RequeueReason::PendingPreemption));
  // A higher-priority workload arrives meanwhile: the preemptor still comes first, every cycle.
  queues.add_or_update("ns/lq", queued("ns/urgent", 100, 2'000));
  CHECK(queues.heads({"cq"}).front().key == "ns/preemptor");
  queues.requeue("ns/lq", queued("ns/preemptor", 0, 1'000), RequeueReason::PendingPreemption);
  CHECK(queues.heads({"cq"}).front().key == "ns/preemptor");
  // Requeued for another reason after a pop, it is still the preemptor (only a delete clears it).
  queues.requeue("ns/lq", queued("ns/preemptor", 0, 1'000), RequeueReason::FailedAfterNomination);
  CHECK(queues.heads({"cq"}).front().key == "ns/preemptor");
  // Admitted: it leaves the queue, and priority orders again.
  queues.remove("ns/preemptor");
  queues.add_or_update("ns/lq", queued("ns/other", 0, 500));
  CHECK(drain(queues, "cq") == std::vector<std::string>{"ns/urgent", "ns/other"});
}

TEST_CASE("Only a BestEffortFIFO workload with pending preemptions is sticky",
          "[kueue][queue-manager]") {
  // TestBestEffortFIFORequeueIfNotPresent: wantSticky only for RequeueReasonPendingPreemption;
  // requeueIfNotPresent sets the preemptor with isSticky only for BestEffortFIFO.
  struct Row {
    QueueingStrategy strategy;
    RequeueReason reason;
  };
  for (const Row& row :
       {Row{QueueingStrategy::BestEffortFIFO, RequeueReason::FailedAfterNomination},
        Row{QueueingStrategy::BestEffortFIFO, RequeueReason::PreemptionFailed},
        Row{QueueingStrategy::StrictFIFO, RequeueReason::PendingPreemption}}) {
    QueueManager queues = with_queue(row.strategy);
    queues.add_or_update("ns/lq", queued("ns/low", 0, 1'000));
    REQUIRE(queues.heads({"cq"}).front().key == "ns/low");
    CHECK(queues.requeue("ns/lq", queued("ns/low", 0, 1'000), row.reason));
    queues.add_or_update("ns/lq", queued("ns/high", 5, 2'000));
    CHECK(drain(queues, "cq") == std::vector<std::string>{"ns/high", "ns/low"});
  }
}

TEST_CASE("A deleted preemptor is no longer sticky when it comes back", "[kueue][queue-manager]") {
  QueueManager queues = with_queue(QueueingStrategy::BestEffortFIFO);
  queues.add_or_update("ns/lq", queued("ns/low", 0, 1'000));
  REQUIRE(queues.heads({"cq"}).front().key == "ns/low");
  queues.requeue("ns/lq", queued("ns/low", 0, 1'000), RequeueReason::PendingPreemption);
  queues.remove("ns/low");
  queues.add_or_update("ns/lq", queued("ns/low", 0, 1'000));
  queues.add_or_update("ns/lq", queued("ns/high", 5, 2'000));
  CHECK(drain(queues, "cq") == std::vector<std::string>{"ns/high", "ns/low"});
}

}  // namespace gpusched::kueue
