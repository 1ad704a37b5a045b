#pragma once
/// Kueue's validating pod webhook (vpod.kb.io, Kueue v0.19.2
/// pkg/controller/jobs/pod/pod_webhook.go ValidateCreate): with the pod integration enabled it
/// refuses a pod whose managed label or pod-group metadata is wrong, as the API server would
/// (`admission webhook "vpod.kb.io" denied the request: ...`).

#include <optional>

#include "gpusched/config/kueue_config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Checks `pod`, a Pod's JSON, when `kueue` enables the "pod" integration and the pod's
/// namespace is one the webhook sees (every one but kube-system and kueue-system, the
/// namespaceSelector of config/components/webhook/kustomization.yaml). Throws InputError at the
/// field's place.
void check_kueue_pod(const JsonNode& pod, const std::optional<KueueConfiguration>& kueue);

}  // namespace gpusched::io
