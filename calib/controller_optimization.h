// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Controller optimisation of paper 001 on top of the calibration layer: the keyframes of a
/// KeyframeController (sim/keyframe_controller.h) as a ParameterSpace, so that calib::Calibration
/// runs CMA-ES over them with its parallel evaluators, checkpoints and bit-identical resume.
///
/// Space of n keyframes (entries in this order, k = 1..n):
///   kf<k>/duration_s              free, [min_duration_s, max_duration_s]
///   kf<k>/<stem>_rad              free for the sagittal stems (thigh, shin, heel) of keyframes
///                                 1..n-1, within the right joint's limits; frozen otherwise:
///                                 keyframe n is the final standing pose q_T (given, paper eq. 5),
///                                 and the roll/yaw stems (hip_yaw, hip, foot) keep the standing
///                                 value (the tasks are symmetric rises in the sagittal plane).
/// Free dimensions: 4 (n - 1) + 1. Initial values: those of an initial controller with n
/// keyframes if given (clamped into the bounds), else keyframe k on the straight line from the
/// start pose to the standing pose at k / n, all durations init_duration_s.
/// Fitness (minimised): -V_ctrl (maximise V_ctrl, eq. 6); a diverged run scores +inf.

#include <Eigen/Core>
#include <string>

#include "calib/objective.h"
#include "calib/parameter_space.h"
#include "sim/keyframe_controller.h"
#include "sim/rising_task.h"

namespace gapsim::calib {

struct ControllerSpaceSettings {
  int keyframes = 2;  ///< n, the final standing pose included
  double min_duration_s = 0.1;
  double max_duration_s = 1.5;
  double init_duration_s = 0.6;
  std::vector<std::string> free_stems = {"thigh", "shin", "heel"};
};

/// The space for `task` (InputError naming the option for keyframes < 1 or bad durations, or an
/// initial controller whose keyframe count or joints differ).
ParameterSpace controllerSpace(const RisingTask& task, const ControllerSpaceSettings& s,
                               const KeyframeController* initial = nullptr);

/// The controller of a point of `space` (values of its free dimensions; frozen entries keep theirs).
KeyframeController controllerFromValues(const ParameterSpace& space, const Eigen::VectorXd& values);

/// One evaluation: fitness -V_ctrl; parts = {V_ctrl, upright (0/1), tilt at T+1 (rad), T (s)}.
EvalResult evaluateControllerValues(const RisingTask& task, const ParameterSpace& space, const Eigen::VectorXd& values,
                                    std::uint64_t sim_seed);

}  // namespace gapsim::calib
