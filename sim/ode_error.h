// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// ODE refused to go on. ODE reports a failed internal check (dIASSERT, dUASSERT: a quaternion
/// that cannot be normalised, an invalid mass) through dDebug and its own errors through dError,
/// and both end the process (abort(), exit(1)) once the handler returns. gapsim installs handlers
/// that throw this instead (sim/ode_init.cpp), so a NaN or a number near the double range that
/// reaches ODE ends that one simulation, not the process. Front ends treat it as a divergence
/// (exit code 3).
///
/// Thrown out of Simulation's constructor or step(). A Simulation whose step threw must not be
/// stepped again; reading its sensors and destroying it are safe.

#include <cmath>
#include <string>

#include "sim/simulation.h"

namespace gapsim {

class OdeError : public DivergenceError {
 public:
  /// `code` is ODE's error number (d_ERR_IASSERT = 1, d_ERR_UASSERT = 2, ...), `ode_message`
  /// ODE's own text. The time is unknown to ODE's handler: time_s() is NaN.
  OdeError(int code, std::string ode_message, const std::string& what)
      : DivergenceError(std::nan(""), "", what), code_(code), ode_message_(std::move(ode_message)) {}
  int code() const { return code_; }
  const std::string& odeMessage() const { return ode_message_; }

 private:
  int code_;
  std::string ode_message_;
};

}  // namespace gapsim
