// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// MABEL's legs in a running simulation: the coupled drives that are motorgear::MabelLegDrive, in
/// the order the robot file declares its <mabel_leg> elements. Controllers set each leg's motor
/// commands for the next step through them; recorders and identification read their transmission.

#include "motorgear/mabel_leg_drive.h"
#include "sim/simulation.h"

namespace gapsim {

int mabelLegCount(const Simulation& sim);
/// Leg `leg` (0-based among the MABEL legs); std::out_of_range if there is no such leg.
motorgear::MabelLegDrive& mabelLeg(Simulation& sim, int leg);
const motorgear::MabelLegDrive& mabelLeg(const Simulation& sim, int leg);

}  // namespace gapsim
