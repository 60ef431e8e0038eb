// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// MABEL's transmission identification as workflows (paper 003; the fits themselves:
/// calib/mabel_identification.h, calib/output_error_fit.h). `gapsim-cli identify
/// chirp|bias|transmission|spring` are their command-line adapters.
///  - first order, eq. (7): J and mu of J omega_dot + mu omega = u from a chirp log by ARX(1,1);
///    with_bias: the amplifier bias by the two-input ARX of Appendix A (eqs. 31-33); refine: the
///    ARX estimate refined by output-error least squares (Ceres), with intervals;
///  - transmission, eqs. (10)-(12): K_T and alpha from the inertias of pulley combinations;
///  - spring, eqs. (21)-(24): the spring stiffness K_B from static tests.
/// Each describes what it finds in lines of text to `report` (may be null; the commands print
/// them) and throws InputError naming the option or file for bad input.

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/mabel_identification.h"
#include "calib/output_error_fit.h"

namespace gapsim::calib {

struct FirstOrderIdOptions {
  std::string log;           ///< time_s, u_Nm (commanded torque), omega_rad_s (motor velocity), uniform
  bool with_bias = false;    ///< the two-input ARX with the amplifier bias (Appendix A)
  bool refine = false;       ///< output-error refinement of the ARX estimate (Ceres)
  double confidence = 0.95;  ///< level of the refinement's intervals

  nlohmann::json toJson() const;
  static FirstOrderIdOptions fromJson(const nlohmann::json& j);
};

struct FirstOrderIdResult {
  int samples = 0;
  double sample_time_s = 0;
  FirstOrderFit arx;     ///< the ARX(1,1) (or two-input ARX) estimate
  bool refined = false;  ///< `refinement` holds the output-error fit
  OutputErrorFit refinement;
  /// The answer: the refinement's when refined, else the ARX's (bias 0 without with_bias).
  double J_kgm2 = 0, mu_Nms = 0, bias_Nm = 0;
  bool converged = true;  ///< the refinement converged (true without one)

  nlohmann::json toJson() const;
  static FirstOrderIdResult fromJson(const nlohmann::json& j);
};

FirstOrderIdResult identifyFirstOrder(const FirstOrderIdOptions& options, std::ostream* report = nullptr);

struct TransmissionIdOptions {
  std::string table;              ///< one row per pulley combination: J_exp_kgm2, J_pulley_kgm2, J_cable_kgm2
  double J_rotor_man_kgm2 = 0.0;  ///< the manufacturer's rotor inertia (> 0)

  nlohmann::json toJson() const;
  static TransmissionIdOptions fromJson(const nlohmann::json& j);
};

struct TransmissionIdResult {
  int combinations = 0;  ///< pulley combinations fitted (>= 2)
  TorqueConstantFit fit;

  nlohmann::json toJson() const;
  static TransmissionIdResult fromJson(const nlohmann::json& j);
};

TransmissionIdResult identifyTransmission(const TransmissionIdOptions& options, std::ostream* report = nullptr);

struct SpringIdOptions {
  std::string table;       ///< one row per static test: q_LS_rad, q_Bsp_rad
  double weight_N = 0.0;   ///< W_robot measured by the scale (> 0)
  double ratio = 5.18043;  ///< constant of eq. (24): 2 x 2.59061 by eq. (23) (> 0)

  nlohmann::json toJson() const;
  static SpringIdOptions fromJson(const nlohmann::json& j);
};

struct SpringIdResult {
  std::vector<SpringTest> tests;
  SpringStiffnessFit fit;

  nlohmann::json toJson() const;
  static SpringIdResult fromJson(const nlohmann::json& j);
};

SpringIdResult identifySpring(const SpringIdOptions& options, std::ostream* report = nullptr);

}  // namespace gapsim::calib
