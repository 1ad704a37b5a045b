#pragma once
/// gpusched: replay Kubernetes scheduling offline. The umbrella header of the public API.

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/model/node.hpp"
#include "gpusched/model/object.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/quantity.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/workload.hpp"
#include "gpusched/report/result.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/scheduler/config.hpp"
#include "gpusched/scheduler/kubernetes_version.hpp"
#include "gpusched/sim/scenario.hpp"
#include "gpusched/sim/simulator.hpp"
#include "gpusched/sim/time.hpp"
