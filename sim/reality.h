// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Reality effects: what a real robot has and the model (and every calibrated parameter space)
/// leaves out. A twin (calib/twin.h) runs with them to make logs that no parameter set of the
/// model can reproduce exactly, the hard case of a calibration. Every effect is off by default;
/// with all off a simulation is bit-identical to one without them.
///
/// Where each effect acts (SI; q the joint angle, + increases q):
///   command_delay_s    every hinge drive sees the target of command_delay_s ago (whole physics
///                      steps; CommandDelayDrive, motorgear/servo_drive.h): q_d(t) = q(t - d).
///   backlash_rad       play of total width b between each hinge drive and its joint
///                      (BacklashDrive, motorgear/servo_drive.h), the encoder on the drive side of
///                      the play: a joint lifted against gravity rests on the flank, b/2 short of
///                      where the drive holds.
///   stribeck_static_ratio, stribeck_velocity_rad_s, stribeck_alpha
///                      the joint's dry (Coulomb) friction tau_c becomes BAM's Stribeck law M2
///                      (motorgear/friction.h, GearFrictionDrive):
///                        tau_f(qd) = tau_c + (r - 1) tau_c exp(-|qd / v_s|^alpha)
///                      static friction r tau_c at rest, tau_c when sliding fast; ratio 1 = off.
///   mass_offset_kg, com_offset_m (per link name), mass_jitter
///                      link masses m' = (m + dm)(1 + j u), u uniform in [-1, 1) from mass_seed
///                      (one draw per link in link order); the inertia tensor scales with the mass
///                      (same radii of gyration); the COM moves by dc in the link frame.
///   imu_bias_rad       added to the IMU's pitch and roll; tilt = acos(cos(pitch) cos(roll)) (the
///                      ZYX Euler identity R_zz = cos(pitch) cos(roll)) from the biased angles.
///   gyro_bias_rad_s    added to each gyro axis. Both IMU biases act in Simulation::imu(), so
///                      whatever reads the IMU sees them (the ankle balance, fall detection, logs).
///   encoder_resolution_rad
///                      replaces every joint's encoder resolution (> 0): the drives and the logs
///                      read round(q / r) r.
///   sensor_delay_s     the logged joint angles and IMU columns show the value of sensor_delay_s
///                      ago (whole log samples; the first value held before): the latency of a
///                      robot's log, not of its joint controllers (applyRealityToLog).

#include <Eigen/Geometry>
#include <cstdint>
#include <map>
#include <string>

#include "sim/log_writer.h"
#include "sim/reality_effects.h"
#include "sim/robot_model.h"

namespace gapsim {

/// The model with the mass, COM and encoder effects applied (InputError for a link name the model
/// does not have, or a mass that would not be > 0).
RobotModel applyRealityToModel(const RobotModel& m, const RealityEffects& r);

/// The log with the sensor delay applied to `<joint>/q_rad` and the IMU columns (`torso/*` angles
/// and gyros); log_period_s is the log's sample period.
Log applyRealityToLog(const Log& log, const RealityEffects& r, double log_period_s);

/// Parses "link=value[;link=value...]" (mass offsets, kg) and "link=x:y:z[;...]" (COM offsets, m).
/// InputError(option, the item, why) for a malformed item.
std::map<std::string, double> parseLinkValues(const std::string& text, const std::string& option);
std::map<std::string, Eigen::Vector3d> parseLinkVectors(const std::string& text, const std::string& option);

}  // namespace gapsim
