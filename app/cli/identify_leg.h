// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// gapsim-cli identify leg-friction|leg-bias and excite leg: MABEL's leg identification through
// simulation (paper 003, Section V, eqs. 19-20; calib/mabel_leg_identification.h).
#include "app/cli/commands.h"

namespace gapsim::cli {

Action addLegFriction(CLI::App& app);  ///< identify leg-friction: eq. (19) from a SISO log
Action addLegBias(CLI::App& app);      ///< identify leg-bias: eq. (20) from a MIMO log
Action addExciteLeg(CLI::App& app);    ///< excite leg: a synthetic stand experiment with known mu, b

}  // namespace gapsim::cli
