#pragma once
/// The ResourceClaims of pods a snapshot does not hold: the terminated pods it leaves out, and
/// pods deleted between the dumps of claims and of pods.

#include "gpusched/io/snapshot.hpp"

namespace gpusched::io {

/// Does at the snapshot's instant what the resourceclaim controller and the garbage collector
/// do within moments of such a pod ending: its reservations are removed (a claim left without
/// one deallocated), and a claim it controlled is left out. Each change is a note. Runs on the
/// snapshot's own objects, before the additions are placed after them.
void release_claims_of_absent_pods(Snapshot& snapshot);

}  // namespace gpusched::io
