// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The servo identification workflows (`gapsim-cli identify servo` is their command-line
/// adapter), each an options struct, a result struct and one function:
///  - the paper's method (BIOLOID paper 000, calib/servo_identification.h): kp, kd, kc of one
///    square-wave step test by linear least squares for an inertia I (given, or the model's
///    inertia beyond the joint), the gains again for I/2 and 2 I, the experiment simulated with
///    the identified gains on a one-joint rig, and the data of the paper's Fig. 2 written as
///    <log stem>_servo_id.csv and .png;
///  - the voltage-domain models M1..M6 fitted by simulation (calib/servo_model_fit.h): every
///    held-out permutation of the step tests per model (M2..M6 start from the M1 fits), the model
///    whose worst held-out RMS is lowest chosen, its held-out predictions written as
///    servo_models_heldout.csv and .png, and it fitted again on every log, as drivetrain
///    parameters of the robot file.
/// Both write into out_dir (created if missing), describe what they find as they go in lines of
/// text to `report` (may be null; `gapsim-cli identify servo` prints them) and throw InputError
/// naming the option or file for bad input.

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calib/gnuplot_figure.h"
#include "calib/servo_identification.h"
#include "motorgear/friction.h"

namespace gapsim::calib {

// ---- the paper's method ----------------------------------------------------------------------

struct ServoPaperIdOptions {
  std::string log;                     ///< step-test log: time_s, q_target_rad, q_rad
  std::optional<double> inertia_kgm2;  ///< I of the moving link (unset: the model's, beyond `joint`)
  std::string robot = "bioloid";       ///< robot whose inertia beyond `joint` is I when not given
  std::string joint = "r_foot";        ///< the joint of the step test
  std::string replay_robot;            ///< fixed-base one-joint robot file of the check ("": the BIOLOID ankle rig)
  std::string out_dir = ".";
  int degree = 4;        ///< degree of the smoothing polynomials, 2..10 (the paper: 4)
  double piece_s = 0.0;  ///< one polynomial per piece of ~this length (0: per segment, the paper)

  nlohmann::json toJson() const;
  static ServoPaperIdOptions fromJson(const nlohmann::json& j);
  /// InputError(option) for an inertia <= 0, a degree outside 2..10 or a negative piece length.
  void validate() const;
};

/// The gains identified again for the inertia I x factor.
struct ServoInertiaRow {
  double factor = 1, inertia_kgm2 = 0, kp_Nm_rad = 0, kd_Nm_s_rad = 0, kc_Nm = 0;
};

struct ServoPaperIdResult {
  // The inertia.
  double inertia_kgm2 = 0;        ///< I the gains are identified for
  double model_inertia_kgm2 = 0;  ///< the model's inertia beyond the joint
  bool inertia_given = false;     ///< I was given, not the model's
  std::string model_source;       ///< the robot file of model_inertia_kgm2
  // The fit (ServoIdResult without its samples).
  int switches = 0, pieces = 0, samples = 0;
  double smoothing_rms_rad = 0;
  GainEstimate kp_Nm_rad, kd_Nm_s_rad, kc_Nm;
  bool clustered = false;
  int interval_dof = 0;
  double t_quantile = 0;
  double residual_rms_Nm = 0, measured_rms_Nm = 0, r_squared = 0;
  std::array<double, 3> term_rms_Nm{};
  std::vector<ServoInertiaRow> inertia_sweep;  ///< I/2, I, 2 I
  // The simulated experiment.
  std::string replay_robot;  ///< the rig's robot file
  double replay_inertia_kgm2 = 0;
  double replay_rms_rad = 0;  ///< rms(q_sim - q) from the first switch on
  int replay_samples = 0;
  std::vector<std::string> replay_notes;
  // What was written.
  std::string csv, png;
  FigureStatus figure = FigureStatus::kNoGnuplot;

  nlohmann::json toJson() const;
  static ServoPaperIdResult fromJson(const nlohmann::json& j);
};

/// The paper's method.
ServoPaperIdResult identifyServoByPaper(const ServoPaperIdOptions& options, std::ostream* report = nullptr);

// ---- the models M1..M6 fitted by simulation ---------------------------------------------------

struct ServoModelsOptions {
  /// Step-test logs; the AX compliance slope of each is read from "slope<N>" in its file name.
  std::vector<std::string> logs;
  std::vector<std::string> models{"M1", "M2", "M3", "M4", "M5", "M6"};  ///< friction models to fit
  int evaluations = 0;            ///< CMA-ES simulations per fit (0: 400 per free parameter)
  bool polish = true;             ///< Ceres after CMA-ES
  std::uint64_t seed = 1;         ///< CMA-ES seed
  double time_scale = 1.0;        ///< true seconds per logged second, in (0.5, 2)
  std::string robot = "bioloid";  ///< the robot whose link beyond `joint` the armature excludes
  std::string joint = "r_foot";
  std::string out_dir = ".";

  nlohmann::json toJson() const;
  static ServoModelsOptions fromJson(const nlohmann::json& j);
};

/// One held-out permutation: fitted on every log but test_log.
struct ServoHeldOutRow {
  std::string test_log;
  std::vector<double> values;  ///< the fitted parameters, in ServoModelSummary::params order
  double train_mae_rad = 0, train_rms_rad = 0, test_mae_rad = 0, test_rms_rad = 0;
};

struct ServoModelSummary {
  motorgear::FrictionModel model{};
  std::vector<std::string> params;  ///< names of the fitted parameters
  std::vector<ServoHeldOutRow> runs;
  double train_rms_rad = 0, test_rms_rad = 0;  ///< means over the permutations
  double worst_test_rms_rad = 0;
};

struct ServoModelsResult {
  std::vector<std::pair<std::string, int>> logs;  ///< name (slope<N>) and samples of each log
  std::vector<ServoModelSummary> models;          ///< sorted, each once
  int best = -1;                                  ///< index of the lowest worst held-out RMS
  std::string csv, png;                           ///< the best model's held-out predictions
  FigureStatus figure = FigureStatus::kNoGnuplot;
  // The best model fitted on every log.
  double all_logs_rms_rad = 0;
  double link_inertia_kgm2 = 0;  ///< inertia beyond the joint in robot_source, not in the armature
  std::string robot_source;
  std::vector<std::pair<std::string, double>> drivetrain;  ///< robot-file parameters servo/<name>

  const ServoModelSummary& bestModel() const { return models.at(static_cast<std::size_t>(best)); }
  nlohmann::json toJson() const;
  static ServoModelsResult fromJson(const nlohmann::json& j);
};

/// The models fitted by simulation. `on_logs_read` (may be empty; the command line claims its
/// output directory there) is called when the options are checked and the logs read, before
/// anything is reported, fitted or written.
ServoModelsResult identifyServoModels(const ServoModelsOptions& options, std::ostream* report = nullptr,
                                      const std::function<void(const ServoModelsResult&)>& on_logs_read = {});

}  // namespace gapsim::calib
