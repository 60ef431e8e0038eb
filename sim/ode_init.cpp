// SPDX-License-Identifier: BSD-3-Clause
#include "sim/ode_init.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/ode_error.h"

namespace gapsim::detail {
namespace {

// ODE's last dMessage on this thread, quoted by the next OdeError (dMassCheck says why a mass is
// invalid in a message, then dBodySetMass asserts "invalid mass parameters").
thread_local std::string t_last_message;

std::string formatOde(const char* fmt, va_list ap) {
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  return buf;
}

// ODE's dError and dDebug call the handler and then exit(1) or abort(): the handler must not
// return. Throwing works: Debian's libode is C++ built with exceptions (.eh_frame,
// .gcc_except_table, __gxx_personality_v0), so the exception unwinds through ODE's frames, running
// their destructors. It can leave ODE's per-world state half-updated (a step's queued jobs, the
// bodies): the world must not be stepped again, and freeThreading() keeps its job list from being
// destroyed. Nothing process-wide is left behind: a later world steps bit-identically.
[[noreturn]] void throwOdeError(int num, const char* kind, const char* fmt, va_list ap) {
  const std::string msg = formatOde(fmt, ap);
  std::string what = "ODE " + std::string(kind) + (num ? " " + std::to_string(num) : std::string()) + ": " + msg +
                     " (a value ODE cannot handle reached the physics: NaN, infinity or a number near the double "
                     "range; this simulation stops here)";
  if (!t_last_message.empty()) what += "; ODE's last message: " + t_last_message;
  t_last_message.clear();
  throw OdeError(num, msg, what);
}

void onOdeError(int num, const char* msg, va_list ap) { throwOdeError(num, "error", msg, ap); }
void onOdeDebug(int num, const char* msg, va_list ap) { throwOdeError(num, "internal error", msg, ap); }

// Messages are warnings ODE goes on after: printed exactly as ODE's default handler prints them.
void onOdeMessage(int num, const char* msg, va_list ap) {
  t_last_message = formatOde(msg, ap);
  std::fflush(stderr);
  std::fflush(stdout);
  if (num)
    std::fprintf(stderr, "\nODE Message %d: %s\n", num, t_last_message.c_str());
  else
    std::fprintf(stderr, "\nODE Message: %s\n", t_last_message.c_str());
  std::fflush(stderr);
}

// --- threading implementations a step left by an exception ---

std::mutex g_threading_mutex;
const dThreadingFunctionsInfo* g_ode_functions = nullptr;  // ODE's table for self-threaded implementations
dThreadingFunctionsInfo g_guarded_functions;
std::unordered_set<dThreadingImplementationID> g_interrupted;
// Kept, never freed: reachable from here until the process ends (never destroyed itself, so
// also when LeakSanitizer looks, after static destructors), so they are not reported as leaks.
std::vector<dThreadingImplementationID>* const g_kept = new std::vector<dThreadingImplementationID>();

void markInterrupted(dThreadingImplementationID impl) {
  std::lock_guard<std::mutex> lock(g_threading_mutex);
  g_interrupted.insert(impl);
}

// The self-threaded implementation runs a step's jobs inside these calls (wait_call above all).
void guardedPost(dThreadingImplementationID impl, int* out_summary_fault, dCallReleaseeID* out_post_releasee,
                 ddependencycount_t dependencies_count, dCallReleaseeID dependent_releasee, dCallWaitID call_wait,
                 dThreadedCallFunction* call_func, void* call_context, dcallindex_t instance_index,
                 const char* call_name) {
  try {
    g_ode_functions->post_call(impl, out_summary_fault, out_post_releasee, dependencies_count, dependent_releasee,
                               call_wait, call_func, call_context, instance_index, call_name);
  } catch (...) {
    markInterrupted(impl);
    throw;
  }
}

void guardedAlter(dThreadingImplementationID impl, dCallReleaseeID target_releasee,
                  ddependencychange_t dependencies_count_change) {
  try {
    g_ode_functions->alter_call_dependencies_count(impl, target_releasee, dependencies_count_change);
  } catch (...) {
    markInterrupted(impl);
    throw;
  }
}

void guardedWait(dThreadingImplementationID impl, int* out_wait_status, dCallWaitID call_wait,
                 const dThreadedWaitTime* timeout_time_ptr, const char* wait_name) {
  try {
    g_ode_functions->wait_call(impl, out_wait_status, call_wait, timeout_time_ptr, wait_name);
  } catch (...) {
    markInterrupted(impl);
    throw;
  }
}

}  // namespace

void ensureOdeInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!dInitODE2(0)) throw std::runtime_error("ODE initialisation (dInitODE2) failed");
    if (!dCheckConfiguration("ODE_double_precision"))
      throw std::runtime_error(
          "this ODE library is not built in double precision; gapsim needs libode-dev's double build");
    dSetErrorHandler(&onOdeError);
    dSetDebugHandler(&onOdeDebug);
    dSetMessageHandler(&onOdeMessage);
  });
  thread_local bool thread_ready = false;
  if (!thread_ready) {
    dAllocateODEDataForThread(dAllocateMaskAll);
    thread_ready = true;
  }
}

const dThreadingFunctionsInfo* guardedThreadingFunctions(dThreadingImplementationID impl) {
  const dThreadingFunctionsInfo* f = dThreadingImplementationGetFunctions(impl);
  std::lock_guard<std::mutex> lock(g_threading_mutex);
  if (!g_ode_functions) {
    g_ode_functions = f;
    g_guarded_functions = *f;
    g_guarded_functions.post_call = &guardedPost;
    g_guarded_functions.alter_call_dependencies_count = &guardedAlter;
    g_guarded_functions.wait_call = &guardedWait;
  }
  // ODE gives every self-threaded implementation the same static table.
  if (f != g_ode_functions) throw std::logic_error("guardedThreadingFunctions: a second ODE threading function table");
  return &g_guarded_functions;
}

void freeThreading(dThreadingImplementationID impl) {
  {
    std::lock_guard<std::mutex> lock(g_threading_mutex);
    if (g_interrupted.erase(impl)) {  // not freed on purpose, see the header
      g_kept->push_back(impl);
      return;
    }
  }
  dThreadingFreeImplementation(impl);
}

}  // namespace gapsim::detail
