// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Identification of a voltage-domain servo model (motorgear/servo_drive.h: firmware law -> duty
/// -> DC motor -> gear -> friction M1..M6) from position logs, by simulation: the model drives one
/// link (motorgear/joint_rig.h) with the log's goal positions and the parameters minimise the
/// position error. CMA-ES (cma_es.h) searches globally; Ceres (Levenberg-Marquardt, numeric
/// central differences) polishes the best point. Held-out validation fits on some logs and
/// reports the error on the others.
///
/// Cost of a parameter vector over the training logs L (each log weighs the same, whatever its
/// length):  J = sqrt( (1/|L|) sum_l (1/n_l) sum_i (q_sim,l(t_i) - q_l(t_i))^2 )     [rad]
/// q_sim(t_i) is the simulated angle at the sample's time stamp plus `stamp_offset_s` (the real
/// logs' 1 ms stamps are truncated: the sample lies on average half a millisecond later),
/// interpolated linearly between physics steps. A log starts at rest at its first sample.
///
/// Parameters are addressed by name (getServoParam / setServoParam):
///   inertia        J of the rig (link + reflected rotor) [kg m^2]
///   stall_torque   N K_t V / R at the firmware's supply V [N m]   (sets K_t; R, V kept)
///   no_load_speed  V / (N K_e) [rad/s]                            (sets K_e)
///   delay          goal dead time [s] (whole steps of dt)
///   punch          AX punch [1/1023]
///   margin         AX compliance margin, both sides [ticks]
///   gravity        rig load m g l [N m];  load: constant rig torque [N m]
///   friction/<n>   GearFriction parameter <n> (friction.h: tau_c, tau_s, v_s, alpha, k_l, ...)
/// Each free parameter has a box [lo, hi], searched on a linear or a log scale: the optimisers
/// work on u in R with value = box(tri(u)), tri the unit triangle wave (a reflection at the box
/// walls), so every trial is feasible and the map is the identity inside the box.

#include <cstdint>
#include <string>
#include <vector>

#include "calib/servo_identification.h"
#include "motorgear/friction.h"
#include "motorgear/joint_rig.h"
#include "motorgear/servo_drive.h"

namespace gapsim::calib {

/// A step test and the firmware settings it ran with.
struct ServoTestLog {
  ServoStepLog log;
  std::string name;                 ///< label in tables (e.g. "slope32")
  double slope = 32;                ///< AX compliance slope register of the test (both sides)
  double moving_speed_rad_s = 0.0;  ///< moving-speed register of the test (0: none, as the BIOLOID logs)
  double time_scale = 1.0;          ///< true seconds per logged second (the AX logs: 1.0042, README)
  /// The slope from a file name containing "slope<N>" (0 if none).
  static double slopeFromName(const std::string& path);
};

/// The whole model: servo (drive, friction, play) and the rig it drives.
struct ServoModelSpec {
  motorgear::DynamixelServoModel servo;
  motorgear::JointRig::Params rig;
};

double getServoParam(const ServoModelSpec& s, const std::string& name);
/// Throws std::invalid_argument for an unknown name.
void setServoParam(ServoModelSpec& s, const std::string& name, double value);

struct ServoSimOptions {
  double dt_s = 0.001;
  double stamp_offset_s = 0.0005;
};

struct ServoSimulation {
  std::vector<double> time_s, q_rad, q_sim_rad, q_target_rad;
  double rms_rad = 0.0, mae_rad = 0.0;
  bool finite = true;
};
ServoSimulation simulateServoLog(const ServoModelSpec& spec, const ServoTestLog& log, const ServoSimOptions& o = {});

struct ServoFitParam {
  std::string name;
  double value = 0.0;  ///< start (in) / result (out)
  double lo = 0.0, hi = 1.0;
  bool log_scale = false;
};

struct ServoFitOptions {
  ServoSimOptions sim;
  int max_evaluations = 4000;  ///< CMA-ES budget
  int ipop_restarts = 1;
  double sigma0 = 0.15;  ///< initial step in u (fractions of each box)
  std::uint64_t seed = 1;
  bool polish = true;  ///< Ceres after CMA-ES
  int polish_iterations = 40;
};

struct ServoFitResult {
  ServoModelSpec spec;                ///< start spec with the fitted values set
  std::vector<ServoFitParam> params;  ///< fitted values
  double cost_rad = 0.0;              ///< J after the fit (training logs)
  double cost_cma_rad = 0.0;          ///< J after CMA-ES, before the polish
  long evaluations = 0;               ///< simulations of the whole training set
  bool polished = false;
};

/// Fits `free` (start values and boxes) on `train`. Throws std::invalid_argument for an unknown
/// name, an empty training set or a start outside its box.
ServoFitResult fitServoModel(const ServoModelSpec& start, const std::vector<ServoFitParam>& free,
                             const std::vector<const ServoTestLog*>& train, const ServoFitOptions& o);

/// The cost J of `spec` on `logs` (the quantity fitServoModel minimises).
double servoCost_rad(const ServoModelSpec& spec, const std::vector<const ServoTestLog*>& logs,
                     const ServoSimOptions& o);

/// The AX-18 step-test start: preset AX-18, friction model m with BAM-like start values, rig
/// inertia 2e-3 kg m^2, no load.
ServoModelSpec ax18StepTestSpec(motorgear::FrictionModel m);
/// Free parameters for a step test with friction model m: inertia, no_load_speed, delay and the
/// model's friction parameters (friction.h) except b_v, with physical boxes. Three things stay
/// fixed because a step test of an unloaded link cannot tell them apart from the others:
///  - stall_torque (the datasheet's): with no known load, scaling J and every torque by one factor
///    gives the same motion, so the data fix torques only relative to J;
///  - b_v: under a voltage drive the back-EMF damping N^2 K_t K_e / R and b_v are one viscous
///    term, so the fitted no-load speed is the effective one, viscous friction included;
///  - punch (the register default 32): a constant duty at the margin's edge and the Coulomb
///    friction trade off almost exactly.
std::vector<ServoFitParam> defaultServoFitParams(motorgear::FrictionModel m, const ServoModelSpec& start);

/// One held-out experiment: fit on every log but `test`, predict `test`.
struct HeldOutResult {
  motorgear::FrictionModel model{};
  std::string test_log;
  std::vector<std::string> train_logs;
  ServoFitResult fit;
  double train_rms_rad = 0.0, train_mae_rad = 0.0;  ///< over the training samples (log-weighted)
  double test_rms_rad = 0.0, test_mae_rad = 0.0;
};
/// Every permutation "fit on all but one, predict that one" for model m. `warm` (optional, one per
/// permutation): start specs, e.g. the M1 fits, whose friction is carried over with the model
/// switched to m and its extra coefficients 0, so the richer model starts where the simpler
/// one ended (a nested start: its training cost can only go down). CMA-ES gets
/// `evaluations_per_param` x (free parameters) simulations when o.max_evaluations is 0.
std::vector<HeldOutResult> heldOutValidation(motorgear::FrictionModel m, const std::vector<ServoTestLog>& logs,
                                             const ServoFitOptions& o,
                                             const std::vector<ServoModelSpec>* warm = nullptr,
                                             int evaluations_per_param = 400);
/// `spec` with its friction switched to model m; the coefficients m adds over spec's model are 0
/// (v_s, alpha keep their values).
ServoModelSpec nestedStart(const ServoModelSpec& spec, motorgear::FrictionModel m);

}  // namespace gapsim::calib
