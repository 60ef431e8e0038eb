// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What a robot file declares for MABEL (docs/mabel.md, docs/robot-format.md): a cable-differential
/// transmission per leg (motorgear::MabelTransmission) driving a hip and a knee joint, and a
/// compliant ground (motorgear::CompliantGround) acting at named toe points. Part of the immutable
/// RobotModel.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "motorgear/mabel_ground.h"
#include "motorgear/mabel_transmission.h"

namespace gapsim {

/// <mabel_leg name="mabel/left" preset="left|right" hip="hip_L" knee="knee_L"> in <gapsim>.
/// Joint convention (robots/mabel/README.md): q_Th = pi - hip, q_Sh = pi - (hip + knee), so
/// tau_hip = -(tau_Th + tau_Sh) and tau_knee = -tau_Sh (virtual work).
struct MabelLegSpec {
  std::string name;  ///< parameter prefix, e.g. mabel/left
  int hip = -1, knee = -1;
  motorgear::MabelTransmission::Params params = motorgear::MabelTransmission::Params::left();
  /// Built-in motor-side PD used when no controller sets motor commands in a step (the robot's
  /// joint-position mode: u = kp (gamma q_link_target - q_m) - kd qd_m, N m per rad of motor).
  double kp_mLA = 0.5, kd_mLA = 0.02, kp_mLS = 1.0, kd_mLS = 0.03;
  int line = 0;
};

struct ToePoint {
  std::string name;
  int link = -1;
  Eigen::Vector3d point_in_link_m = Eigen::Vector3d::Zero();
};

/// <compliant_ground name="mabel/ground"> <toe name link xyz/> ... </compliant_ground>
struct CompliantGroundSpec {
  std::string name = "ground";
  motorgear::CompliantGround::Params params{};
  std::vector<ToePoint> toes;
  int line = 0;
};

}  // namespace gapsim
