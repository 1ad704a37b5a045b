#pragma once
// What NVIDIA's DRA driver for GPUs publishes for a GPU node gpusched models (NodeDevices): the
// DeviceClasses its Helm chart installs and the ResourceSlices its GPU kubelet plugin writes.
//
// Pinned: github.com/NVIDIA/k8s-dra-driver-gpu (now kubernetes-sigs/dra-driver-nvidia-gpu) tag
// v0.4.0 (May 2026, the newest release; it follows v25.12.0, the last calendar-named one, which
// still dropped unhealthy devices instead of tainting them and, on dynamic-resource-allocation
// v0.34, named slices "<node>-gpu.nvidia.com-<random>"), with the
// k8s.io/dynamic-resource-allocation v0.36.0-rc.0 it vendors. Files followed:
// - cmd/gpu-kubelet-plugin/main.go (DriverName), driver.go (publishResources,
//   generateSplitResourceSlices, generateCombinedResourceSlices, deviceHealthEvents),
//   nvlib.go (GetPerGpuAllocatableDevices, getGpuInfo, inspectMigProfilesAndPlacements,
//   isDynamicMIGCapable, supportsMIGModeToggle), deviceinfo.go (CanonicalName, Attributes,
//   GetDevice), mig.go (ToCanonicalName, CommonAttributesMig, CommonCapacitiesMig),
//   partitions.go (PartGetDevice, PartSharedCounterSets, PartConsumesCounters),
//   device_health.go (taint keys, healthEventToTaint, xidsToSkip), allocatable.go, types.go;
// - pkg/featuregates/featuregates.go (DynamicMIG, NVMLDeviceHealthCheck: alpha, off);
// - deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-*.yaml, kubeletplugin.yaml,
//   values.yaml;
// - vendor/k8s.io/dynamic-resource-allocation/resourceslice/resourceslicecontroller.go (slice
//   names, pool generation) and deviceattribute/ (resource.kubernetes.io/pcieRoot).
//
// Modes. By default (DynamicMIG off) the plugin publishes one ResourceSlice with every full GPU
// ("gpu-<minor>") and, on MIG-enabled GPUs, the MIG devices mig-parted created
// ("gpu-<minor>-mig-<profile>-<GI profile id>-<placement start>"), with memorySlice<i>
// capacities; a MIG-enabled GPU's full device is not published. With DynamicMIG on
// (partitionable devices, KEP 4815) every possible MIG placement of each MIG-capable GPU is a
// device consuming counters from a per-GPU CounterSet "gpu-<minor>-counter-set"; Hopper GPUs
// and Ampere GPUs with MIG off also publish the full GPU (consuming every counter), Ampere GPUs
// with MIG on do not; Ampere GPUs with MIG off are not DynamicMIG-capable and publish only the
// full GPU with its memory. From Kubernetes 1.35 the counters go in a slice of their own
// followed by one slice per GPU; before, each GPU's slice carries its counter set.
//
// Health. The plugin drops no device. Only with its NVMLDeviceHealthCheck gate (off by default)
// does it taint devices: gpusched stands an unhealthy GPU in for a critical XID on it, XID 48
// (double-bit ECC error, not in xidsToSkip), and taints every device published for that GPU
// with gpu.nvidia.com/xid=48:NoSchedule. Without the gate an unhealthy GPU is published as a
// healthy one.
//
// What NVML would tell the plugin and gpusched cannot know:
// - minor number: the GPU index (the usual order: both follow the PCI bus ID);
// - productName: nvidia.com/gpu.product with GFD's '-' turned back into spaces, except in the
//   A100/A800 SXM4/PCIE names NVML writes with hyphens ("NVIDIA A100-SXM4-80GB");
// - brand: "Nvidia" (NVML_BRAND_NVIDIA, what data-center GPUs report);
// - cudaComputeCapability: GFD's nvidia.com/gpu.compute.major/minor when the node has them,
//   else gpusched's product table (A100 8.0, H100/H200 9.0, L4/L40 8.9, B200 10.0, ...);
//   architecture follows from it as NVML names it ("Ampere", "Ada Lovelace", "Hopper", ...);
//   both are left out for a product gpusched does not know;
// - driverVersion, cudaDriverVersion: from GFD's nvidia.com/cuda.driver.* and
//   nvidia.com/cuda.runtime.* labels when the node has them (as Masterminds semver prints them:
//   "550.90.07" -> "550.90.7", "12.4" -> "12.4.0"), else left out;
// - resource.kubernetes.io/pciBusID and addressingMode: left out (no bus IDs; no coherent
//   Grace systems);
// - resource.kubernetes.io/pcieRoot: GPUs whose topology link is PHB, PXB, PIX or same-board
//   share a root, NODE and SYS do not (nvidia-smi's legend); roots are numbered by their lowest
//   GPU, "pci0000:00", "pci0000:01", ...;
// - full GPU memory: nvidia.com/gpu.memory MiB (NVML's total), left out when unknown;
// - MIG GPU-instance profiles (nvidia-smi mig -lgip): ids 0 (7g), 5 (4g), 9 (3g), 14 (2g),
//   15 (1g with two memory slices), 19 (1g), 20 (1g+me); placements as NVML lists them (1g
//   0-6, 1g with two slices 0/2/4/6, 2g 0/2/4, 3g 0/4, 4g 0, 7g 0:8); SMs, engines and memory
//   per product in the .cpp. Products gpusched has no MIG table for are not MIG-capable;
// - which placement each statically created MIG device got: NVML chooses; gpusched takes the
//   lowest free placements in mig-parted's creation order with backtracking (for all-balanced
//   this gives 3g at 4:4 and 2g at 0:2, as NVML does).
//
// Names. A slice is named as the resourceslice controller's generateName
// "<index as %05x>-gpu.nvidia.com-<node>-" (cut to 58 characters as the API server does) plus
// five characters from the API server's alphabet, drawn from the FNV-1a hash of that prefix
// instead of at random. Pool: the node's name, generation 1 (a first publication), nodeName
// set, owned by the Node. Devices within a slice are in name order and GPUs in index order, as
// the DynamicMIG path sorts them (the default path iterates Go maps; gpusched uses the same
// order).

#include <string>
#include <string_view>
#include <vector>

#include "devices/node_devices.hpp"
#include "gpusched/model/dra.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched::devices {

/// The driver's name (DriverName), the domain of its bare attribute and capacity names.
inline constexpr std::string_view kNvidiaDraDriverName = "gpu.nvidia.com";

/// The node label NVIDIA's installation guide (GPU Operator docs, "DRA Driver for NVIDIA GPUs")
/// puts in the chart's kubeletPlugin.nodeSelector: the GPU kubelet plugin runs where it is
/// "true", and the device plugin is to be disabled on those nodes
/// (nvidia.com/gpu.deploy.device-plugin=false). The chart's own affinity (NFD's
/// pci-10de.present or the operator's nvidia.com/gpu.present) holds on every node that
/// declares GPUs.
inline constexpr std::string_view kDraKubeletPluginLabel = "nvidia.com/dra-kubelet-plugin";

/// Whether NVIDIA's DRA kubelet plugin runs on the node, so that its GPUs are published as
/// ResourceSlices and not advertised by the device plugin: label
/// nvidia.com/dra-kubelet-plugin=true (a nodeSelector matches the value exactly).
[[nodiscard]] bool serves_gpus_with_dra(const Node& node);

/// The DeviceClasses the chart installs with its default values (resources.gpus.enabled and
/// resources.computeDomains.enabled both true), by name: compute-domain-daemon.nvidia.com,
/// compute-domain-default-channel.nvidia.com, gpu.nvidia.com (with extendedResourceName
/// nvidia.com/gpu, rendered for resource.k8s.io/v1), mig.nvidia.com, vfio.gpu.nvidia.com.
[[nodiscard]] std::vector<dra::DeviceClass> nvidia_device_classes();

/// The plugin's settings that change what it publishes.
struct NvidiaDraOptions {
  /// The DynamicMIG feature gate (alpha, off by default): partitionable devices.
  bool dynamic_mig = false;
  /// The NVMLDeviceHealthCheck feature gate (alpha, off by default): health taints.
  bool nvml_device_health_check = false;
  /// The API server's minor version (1.<minor>): with DynamicMIG, 35 and later get the
  /// counters in a slice of their own.
  int kubernetes_minor = 36;
};

/// The slices the plugin publishes for one node.
struct NvidiaResourceSlices {
  std::vector<dra::ResourceSlice> slices;
  /// Why the plugin exits at startup and publishes nothing, in its words (empty when it runs).
  std::string error;
};

/// The slices the driver publishes for `node`, whose hardware is `devices`: none when the
/// plugin does not run there (serves_gpus_with_dra false) or exits at startup (`error`: a
/// statically created MIG device whose compute instance is smaller than its GPU instance, such
/// as 1c.2g.20gb, which the plugin cannot match to a profile; DynamicMIG with
/// NVMLDeviceHealthCheck). Health is each PhysicalGpu's `healthy`.
[[nodiscard]] NvidiaResourceSlices nvidia_resource_slices(const Node& node,
                                                          const NodeDevices& devices,
                                                          const NvidiaDraOptions& options = {});

}  // namespace gpusched::devices
