// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// ODE's process-wide initialisation (dInitODE2 must run once per process, before any world),
/// per-thread data allocation, and the error handlers that turn ODE's abort() into an OdeError
/// (sim/ode_error.h). Internal to sim/.

#include <ode/ode.h>

namespace gapsim::detail {

/// Idempotent and thread-safe; also allocates ODE's per-thread data for the calling thread.
/// The first call installs ODE's error, debug and message handlers (process-wide): errors and
/// failed assertions throw OdeError; messages are printed as ODE prints them and the last one of
/// the thread is quoted by the next OdeError.
void ensureOdeInitialized();

/// The threading functions to give dWorldSetStepThreadingImplementation for `impl`, a
/// self-threaded implementation: ODE's own, except that post_call and wait_call (which run the
/// step's jobs) note an exception leaving a step through them.
const dThreadingFunctionsInfo* guardedThreadingFunctions(dThreadingImplementationID impl);

/// dThreadingFreeImplementation(impl), unless an OdeError left a step while `impl` ran its jobs:
/// ODE's job list then still holds that step's jobs, and the list's destructor asserts that it is
/// empty, from a destructor, where the handler's exception can only end in std::terminate. Such an
/// implementation is kept instead, for the life of the process (a job list and a few call waits,
/// a few kB; later worlds are unaffected: nothing of it is shared).
void freeThreading(dThreadingImplementationID impl);

}  // namespace gapsim::detail
