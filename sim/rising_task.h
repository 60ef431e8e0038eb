// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The BIOLOID rising tasks of paper 001: rise from leaning (against a wall), sitting (on a seat)
/// and kneeling to standing, each a scene (static boxes) plus an initial pose, and the fitness of
/// a keyframe controller on it:
///   V_ctrl = integral over [0, T + 1] of 1 / (alpha(t) + eps) dt,   eps = 0.1,
/// alpha = torso tilt (angle between the torso's up axis and world up, Simulation::imu().tilt_rad),
/// t = 0 when the controller starts. The integral is the right-endpoint sum over the 1 ms steps
/// (alpha after each step), the last step weighted by what is left of T + 1, so a constant alpha
/// gives exactly (T + 1) / (alpha + eps).
///
/// Before t = 0 the robot is settled: `settle_s` of simulation holding the initial targets, so the
/// controller starts from rest on the wall, seat or knees, not from the placed pose.
/// Success (paper: "whether the robot remains upright at the end of its motion"): at t = T + 1
/// the torso tilt is below `upright_tilt_rad` (0.2 rad = 11.5 deg; the real standing trials end
/// at <= 0.06 rad) and the torso origin is above `upright_height_m` (0.25 m; 0.30 m standing,
/// <= 0.24 m on the seat or knees), so a robot still sitting upright does not count.
///
/// Scenes and initial poses are those of the authors' simulator (jietan/bioGP @936fb3a,
/// robot/WorldConstructor.cpp, data/sdf/*.urdf; LGPL-3.0), converted to gapsim's Z-up frame with
/// (x, y, z)_zup = (z, x, y)_yup (real-data/bioloid/README.md): joint ticks through the motor map,
/// the root from the DART free-joint "first6Dofs" (exp-map rotation, then translation of the
/// torso frame) as R_zup = P R_yup, t_zup = P t_yup. Numbers and reasoning: docs/bioloid.md.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/keyframe_controller.h"
#include "sim/log_writer.h"
#include "sim/robot_model.h"

namespace gapsim {

struct RisingTask {
  std::string name;                         ///< lean, sit or kneel
  std::shared_ptr<const RobotModel> model;  ///< the robot with the scene boxes and initial pose
  LegMirror legs;
  std::vector<double> start_q;  ///< targets held while settling (the initial pose)
  std::vector<double> stand_q;  ///< the final standing pose q_T (model's standing pose)
  double settle_s = 1.0;
  double epsilon = 0.1;  ///< eps of V_ctrl (paper: 0.1)
  double upright_tilt_rad = 0.2;
  double upright_height_m = 0.25;
  std::string description;  ///< one line for the CLI
};

/// The task names: lean, sit, kneel.
const std::vector<std::string>& risingTaskNames();

/// Builds a task on a BIOLOID model (any parameter set: a calibrated copy works too). The motor
/// map is read from motor_map.csv next to the robot file. InputError for an unknown task name
/// (listing the names) or a model without the BIOLOID joints.
RisingTask makeRisingTask(const std::string& name, const RobotModel& bioloid);

struct RiseResult {
  double V_ctrl = 0.0;
  double T_s = 0.0;
  double tilt_end_rad = 0.0;  ///< torso tilt at T + 1
  double height_end_m = 0.0;  ///< torso origin z at T + 1
  double max_tilt_rad = 0.0;  ///< over [0, T + 1]
  bool upright = false;
  bool diverged = false;
  std::string error;  ///< the divergence message
};

struct RiseOptions {
  std::uint64_t seed = 0;  ///< SimOptions::seed
  Log* log = nullptr;      ///< if set, Recorder rows every log_period_s (settling included)
  double log_period_s = 0.01;
};

/// Settles the task's robot, plays the controller for T + 1 s and scores it. A divergence ends
/// the run: diverged = true, V_ctrl = 0, upright = false (never thrown). A pure function of its
/// arguments (each call builds its own Simulation), so any process may evaluate any controller.
RiseResult evaluateRise(const RisingTask& task, const KeyframeController& ctrl, const RiseOptions& opt = {});

}  // namespace gapsim
