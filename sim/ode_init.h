// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// ODE's process-wide initialisation (dInitODE2 must run once per process, before any world),
/// and per-thread data allocation. Internal to sim/.

namespace gapsim::detail {

/// Idempotent and thread-safe; also allocates ODE's per-thread data for the calling thread.
void ensureOdeInitialized();

}  // namespace gapsim::detail
