// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// gapsim-cli identify chirp|bias|transmission|spring: MABEL's transmission identification (paper
// 003; calib/mabel_id_workflow.h).
#include "app/cli/commands.h"

namespace gapsim::cli {

Action addIdentifyChirp(CLI::App& app);         ///< identify chirp: J, mu of eq. (7) by ARX(1,1)
Action addIdentifyBias(CLI::App& app);          ///< identify bias: the amplifier bias, Appendix A
Action addIdentifyTransmission(CLI::App& app);  ///< identify transmission: K_T, alpha, eqs. (10)-(12)
Action addIdentifySpring(CLI::App& app);        ///< identify spring: K_B, eqs. (21)-(24)

}  // namespace gapsim::cli
