// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// MABEL's leg identification on the test stand as a workflow (paper 003, Section V; the fits
/// themselves: calib/mabel_leg_identification.h). `gapsim-cli identify leg-friction|leg-bias` is
/// its command-line adapter.
///  - friction, eq. (19): the viscous friction mu of the actuated motor of a SISO experiment (the
///    other motor and B_Spring locked), optionally with its bias b; the start is Table III's mu
///    (mu_3 / K_T) unless given;
///  - bias, eq. (20): the biases b of both motors from a MIMO experiment with the friction fixed
///    (the stand's, Table V, unless given); the start is the static estimate (the hold command of
///    the mean pose minus the mean command) unless given.
/// Both fit by simulating the stand experiment, also fit the start angle as a nuisance unless
/// fixed_start, and write <log stem>_<leg_friction|leg_bias>.csv (measured against simulated
/// motor angles, at the start and at the estimate) and .png into out_dir (created if missing).

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calib/gnuplot_figure.h"
#include "calib/mabel_leg_identification.h"

namespace gapsim::calib {

struct LegIdOptions {
  enum class Fit { kFriction, kBias };
  Fit fit = Fit::kFriction;
  std::string log;                ///< time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad (motor angles)
  std::string stand;              ///< test-stand robot file ("": robots/mabel/identification/leg_stand.urdf)
  std::string side = "left";      ///< left or right
  std::vector<std::string> sets;  ///< NAME=VALUE on the leg's transmission (as `params mabel` without mabel/<side>/)
  std::string dof = "mLS";        ///< friction: the actuated motor, mLA or mLS
  std::optional<double> mu_start_Nms_rad;                ///< friction: start (unset: Table III)
  bool fit_bias = false;                                 ///< friction: fit the motor's b as well
  std::optional<double> mu_mLA_Nms_rad, mu_mLS_Nms_rad;  ///< bias: fixed friction (unset: the stand's)
  std::optional<double> b_start_mLA_Nm, b_start_mLS_Nm;  ///< bias: start (unset: the static estimate)
  std::string out_dir = ".";
  double confidence = 0.95;  ///< level of the intervals
  bool fixed_start = false;  ///< start exactly at the first logged sample instead of fitting it

  /// "leg_friction" or "leg_bias": the suffix of the files written.
  std::string what() const { return fit == Fit::kFriction ? "leg_friction" : "leg_bias"; }
  /// The CSV and PNG this fit writes into out_dir (file names only).
  std::vector<std::string> outputNames() const;
  nlohmann::json toJson() const;
  static LegIdOptions fromJson(const nlohmann::json& j);
};

struct LegIdEstimate {
  std::string param;  ///< legParamName: mu_mLA, mu_mLS (N m s/rad), b_mLA, b_mLS (N m)
  double value = 0, half_width = 0, start = 0;
  double table_v = 0;  ///< the paper's Table V value of the parameter
};

struct LegIdResult {
  // The experiment (known before the fit).
  int samples = 0;
  double sample_time_s = 0;
  std::string stand_source;
  bool actuated_mLA = false, actuated_mLS = false;
  double b_Nm = 0, K_T = 0, J_kgm2 = 0;           ///< friction: the actuated motor's b (start), K_T and inertia
  double mu_mLA_Nms_rad = 0, mu_mLS_Nms_rad = 0;  ///< bias: the fixed friction
  // The fit.
  std::vector<LegIdEstimate> estimates;
  int iterations = 0, simulations = 0, residuals = 0;
  bool converged = false;
  double start_offset_mLA_rad = 0, start_offset_mLS_rad = 0;  ///< fitted start minus the first sample
  double cost_J_rad = 0, initial_cost_J_rad = 0, rms_rad = 0;
  // What was written.
  std::string csv, png;
  FigureStatus figure = FigureStatus::kNoGnuplot;

  nlohmann::json toJson() const;
  static LegIdResult fromJson(const nlohmann::json& j);
};

/// The pieces the stand workflows share (InputError naming the option):
/// "left" or "right" (--side);
LegSide parseLegSide(const std::string& side);
/// the stand robot file ("": the shipped one);
RobotModel loadLegStand(const std::string& stand);
/// the stand's transmission of `side` with the NAME=VALUE overrides applied, validated (--set);
motorgear::MabelTransmission::Params legWithOverrides(const RobotModel& stand, LegSide side,
                                                      const std::vector<std::string>& sets);
/// the actuated motors of "mLA", "mLS" (SISO, the other locked) or "both" (MIMO) (--dof).
LegExperiment legExperiment(LegSide side, const std::string& dof);

/// The fit of `options.fit`; what it finds is described as it goes in lines of text to `report`
/// (may be null; `gapsim-cli identify leg-*` prints them). InputError naming the option or file
/// for bad input.
LegIdResult identifyLeg(const LegIdOptions& options, std::ostream* report = nullptr);

}  // namespace gapsim::calib
