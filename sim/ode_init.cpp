// SPDX-License-Identifier: BSD-3-Clause
#include "sim/ode_init.h"

#include <ode/ode.h>

#include <mutex>
#include <stdexcept>

namespace gapsim::detail {

void ensureOdeInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!dInitODE2(0)) throw std::runtime_error("ODE initialisation (dInitODE2) failed");
    if (!dCheckConfiguration("ODE_double_precision"))
      throw std::runtime_error("this ODE library is not built in double precision; gapsim needs libode-dev's double build");
  });
  thread_local bool thread_ready = false;
  if (!thread_ready) {
    dAllocateODEDataForThread(dAllocateMaskAll);
    thread_ready = true;
  }
}

}  // namespace gapsim::detail
