// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A synthetic MABEL leg experiment on the test stand as a workflow (paper 003, Section V; the
/// simulation itself: synthesizeLegExperiment, calib/mabel_leg_identification.h): the paper's
/// chirp on the actuated motor(s), simulated with known friction mu and biases b, the motor
/// angles measured by an encoder with optional noise, written as the log `identify
/// leg-friction|leg-bias` read. `gapsim-cli excite leg` is its command-line adapter.
///
/// Defaults are the paper's: Table V's mu; b of Table IV in SISO (the stand's preset), of Table V
/// in MIMO; the input offset holds the start pose against gravity and the bias (the paper picks
/// it "to keep the links within the robot's work space"; without it gravity pulls the knee of a
/// SISO mLS leg into its stop within a second).

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calib/mabel_identification.h"

namespace gapsim::calib {

struct LegExciteOptions {
  std::string out;                ///< the log to write: time_s, u_mLA_Nm, u_mLS_Nm, q_mLA_rad, q_mLS_rad
  std::string side = "left";      ///< left or right
  std::string stand;              ///< test-stand robot file ("": robots/mabel/identification/leg_stand.urdf)
  std::vector<std::string> sets;  ///< NAME=VALUE on the leg's transmission (as `params mabel` without mabel/<side>/)
  std::string dof = "mLS";        ///< mLA or mLS (SISO, the other locked) or both (MIMO)
  std::optional<double> mu_mLA_Nms_rad, mu_mLS_Nms_rad;  ///< simulated friction (unset: Table V)
  std::optional<double> b_mLA_Nm, b_mLS_Nm;              ///< simulated bias (unset: Table IV SISO, V MIMO)
  /// The chirp of both motors; its sample time is rounded to a whole number of the stand's dt.
  ChirpOptions chirp;
  std::optional<double> amplitude_mLA_Nm, amplitude_mLS_Nm;  ///< a motor's first-step amplitude (last = 10x)
  std::optional<double> offset_Nm;                           ///< both motors' offset (unset: the hold commands)
  std::optional<double> offset_mLA_Nm, offset_mLS_Nm;        ///< one motor's offset (before offset_Nm)
  double encoder_bits = 0;  ///< encoder resolution 2 pi / 2^bits, 0..40 (0: exact; MABEL: 14)
  double noise_rad = 0;     ///< white Gaussian noise on the motor angles
  std::uint64_t seed = 1;   ///< noise seed

  nlohmann::json toJson() const;
  static LegExciteOptions fromJson(const nlohmann::json& j);
};

struct LegExciteResult {
  int samples = 0;
  double duration_s = 0, sample_time_s = 0;
  bool mimo = false;
  double mu_mLA_Nms_rad = 0, mu_mLS_Nms_rad = 0, b_mLA_Nm = 0, b_mLS_Nm = 0;          ///< as simulated
  double offset_mLA_Nm = 0, offset_mLS_Nm = 0;                                        ///< the inputs' offsets
  double encoder_rad = 0;                                                             ///< quantisation step (0: exact)
  double q_mLA_min_rad = 0, q_mLA_max_rad = 0, q_mLS_min_rad = 0, q_mLS_max_rad = 0;  ///< measured motor angles
  std::string out;                                                                    ///< the log written

  nlohmann::json toJson() const;
  static LegExciteResult fromJson(const nlohmann::json& j);
};

/// Simulates the experiment, calls `before_write` (may be empty; the command claims its output
/// path there), writes options.out and describes it in lines of text to `report` (may be null).
/// InputError naming the option for bad input, std::invalid_argument for a bad chirp,
/// DivergenceError if the physics blows up.
LegExciteResult exciteLeg(const LegExciteOptions& options, std::ostream* report = nullptr,
                          const std::function<void()>& before_write = {});

}  // namespace gapsim::calib
