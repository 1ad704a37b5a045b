#pragma once
// Temporary forward while the device layer lands; include the public header.
#include "gpusched/devices/device_plugin_config.hpp"
