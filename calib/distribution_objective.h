// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The gait-cycle distribution distance (`--objective gait_w1`): how far apart the joint angles'
/// value distributions of the simulated and the reference run are, with no time alignment. A gait
/// that matches the reference in shape and range but drifts in phase (a step early, a delay the
/// model lacks) scores near zero, where a pointwise error such as F grows with the phase drift.
///
///   W1 of two empirical 1-D distributions a (n samples), b (m samples), in the unit of the samples:
///       W1(a, b) = integral_0^1 |Fa^-1(u) - Fb^-1(u)| du
///     with F^-1 the quantile function (the sorted samples as a step function of u); evaluated
///     exactly on the merged breakpoints u = i/n and j/m, so n != m needs no resampling.
///     Closed forms the tests check: a constant offset d gives d; q = A sin(w t) sampled over whole
///     periods against A' sin(w t + phi) gives |A - A'| * 2/pi for any phase phi (E|sin| = 2/pi).
///   Per scenario s (rad):
///       D_s = (1/J) sum_j [ (T/N) W1(q_sim,j[settle, fall), q_ref,j[settle, end]) + (1 - T/N) P ]
///     j over the joints of F (the `<joint>/q_rad` columns both logs have, or the motion's joints
///     with f_motion_joints_only), N the simulated log's samples in [settle, end], T those before
///     the fall (T = N without a fall). The fallen part's samples are not compared: they are counted
///     at the fall penalty P (ObjectiveSettings::fall_penalty_rad), so a run that falls half way
///     scores at least P/2 whatever its joints do on the floor (their servos keep tracking the
///     targets there, so their values alone would hardly show the fall).
///   gait_w1 = (1/n) sum_s w_s D_s (rad).

#include <string>
#include <vector>

#include "sim/log_writer.h"

namespace gapsim::calib {

/// W1 of the empirical distributions of `a` and `b` (the formula above; the vectors are taken by
/// value and sorted). Either empty: NaN. Non-finite samples: NaN.
double wasserstein1(std::vector<double> a, std::vector<double> b);

/// D_s of a simulated log against a reference (the formula above). `fall_time_s` < 0: no fall.
/// `joints`: if given, only these joints' `<joint>/q_rad` columns. NaN when no joint column is
/// shared or no sample lies after `settle_s`.
double distributionDistance(const Log& sim, const Log& ref, double fall_time_s, double settle_s,
                            double fall_penalty_rad, const std::vector<std::string>* joints = nullptr);

}  // namespace gapsim::calib
