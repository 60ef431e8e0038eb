// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The reality effects as a value (what each does: sim/reality.h). A twin sets them in
/// SimOptions::reality; a robot model carries the drive and IMU ones as parameters
/// (`reality/<name>`, sim/param_tree.h) so a calibration can fit them; a simulation runs with both
/// (combinedEffects).

#include <Eigen/Geometry>
#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace gapsim {

struct RealityEffects {
  double command_delay_s = 0.0;
  double sensor_delay_s = 0.0;
  double backlash_rad = 0.0;
  double backlash_drive_inertia_kgm2 = 1e-3;  ///< J_m of the drive side in the play
  double stribeck_static_ratio = 1.0;         ///< static / Coulomb friction (>= 1; 1: off)
  double stribeck_velocity_rad_s = 0.1;       ///< v_s
  double stribeck_alpha = 2.0;                ///< exponent (2: Gaussian Stribeck curve)
  std::map<std::string, double> mass_offset_kg;
  std::map<std::string, Eigen::Vector3d> com_offset_m;
  double mass_jitter = 0.0;  ///< relative half-width j of the uniform jitter (0: none)
  std::uint64_t mass_seed = 1;
  double imu_bias_rad = 0.0;
  double gyro_bias_rad_s = 0.0;
  double encoder_resolution_rad = 0.0;  ///< 0: the robot file's

  /// Throws InputError naming the option (--command-delay, ...) and its valid range.
  void validate() const;
  bool changesModel() const;   ///< masses, COMs or encoder resolution
  bool changesDrives() const;  ///< command delay, backlash or Stribeck friction
  bool any() const;
  /// One line per active effect, for the twin's report ("command delay 0.02 s", ...).
  std::string describe() const;
};

/// One scalar effect with its accepted range: RealityEffects::validate checks these, and the
/// parameter registry sets them by `name` (sim/param_tree.cpp).
struct RealityScalar {
  const char* name;    ///< parameter leaf: reality/<name>
  const char* option;  ///< the command-line option that sets it (gapsim-cli twin, calibrate --twin)
  const char* unit;
  double lo, hi;  ///< accepted range, inclusive
  double RealityEffects::*field;
  const char* meaning;
  bool model_parameter;  ///< settable on a robot model (drive and IMU effects)
};

/// Every scalar effect, in RealityEffects' order.
std::span<const RealityScalar> realityScalars();

/// The effects a simulation runs with: the model's (robot file, parameter file, calibration) and
/// the options' (a twin's) together. Delays, play and biases add; the Stribeck law and the play's
/// drive inertia are the options' where the options switch them on, else the model's. The mass,
/// COM, sensor-delay and encoder effects are the options' alone (a model's masses and COMs are its
/// `link/...` parameters).
RealityEffects combinedEffects(const RealityEffects& model, const RealityEffects& options);

}  // namespace gapsim
