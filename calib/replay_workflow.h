// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The replay of a recording set as a workflow (`gapsim-cli replay` is its command-line adapter):
/// every trial of a recording manifest (calib/recording_manifest.h) simulated from its initial
/// pose on its robot and scored against the recording (calib/recording_replay.h: RMS and E of
/// the headline signal), optionally on a second parameter file as well, with the simulated log
/// and the headline comparison written per trial.
///
/// One model per (robot, trial parameter file), built in this order: the robot file, the
/// authors' wall (so that a parameter file may move it: scene/wall/x, as calibrate-replay
/// writes), the trial's parameter file, then `params` and `sets`. Every trial of a model is
/// checked (checkReplayable) when the model is first needed, so a bad signal is reported before
/// that model's first replay.

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calib/recording_replay.h"
#include "sim/mtn_reader.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct RecordingReplayOptions {
  /// A recording manifest (a .json file, or a directory holding recordings.json) or the BIOLOID
  /// lean-to-stand data package.
  std::string recordings;
  std::string trials;                   ///< comma-separated globs of trial names ("" all)
  std::string robot = "bioloid";        ///< robot (name or file) of the trials that name none
  bool robot_for_all = false;           ///< `robot` for every trial, whatever the trial names
  std::string params;                   ///< parameter file applied after the trial's own ("" none)
  std::vector<std::string> sets;        ///< name=value assignments applied after `params`, in order
  std::string compare_params;           ///< a second parameter file every trial is replayed on too ("" none)
  bool no_wall = false;                 ///< without the authors' wall even where the manifest has it
  std::optional<double> wall_face_x_m;  ///< x of the wall's front face (m; unset: the manifest's)
  bool continuous_commands = false;     ///< command every step, unquantised (else held as recorded)
  double settle_s = 0.0;                ///< ReplayOptions::settle_s, in [0, 10] s
  std::uint64_t sim_seed = 0;           ///< SimOptions::seed
  std::string out_dir;                  ///< <trial>_sim.csv and <trial>_tilt.csv are written here ("" none; must exist)

  nlohmann::json toJson() const;
  static RecordingReplayOptions fromJson(const nlohmann::json& j);
  /// InputError(option) for a value out of range (the settle time).
  void validate() const;
};

/// One trial's scores, in the headline signal's SI unit (rad for the torso tilt).
struct ReplayTrialRow {
  std::string trial;
  double step_duration_s = -1;                           ///< the lean-to-stand ramp duration (< 0: none)
  std::string error;                                     ///< a divergence or refused parameters: no scores then
  double rms = std::numeric_limits<double>::infinity();  ///< RMS of the headline signal
  double E = std::numeric_limits<double>::infinity();    ///< its E (unit^2 s)
  double max_real = 0, max_sim = 0;                      ///< maxima of the recorded and simulated headline signal
  bool compared = false;  ///< the *_compare fields hold the second parameter file's replay
  double rms_compare = std::numeric_limits<double>::infinity();
  double E_compare = std::numeric_limits<double>::infinity();
  double max_tilt_sim_compare_rad = 0;  ///< the largest simulated torso tilt on the second file
};

struct RecordingReplayResult {
  // What is replayed (known before the first trial runs).
  int trials = 0;
  std::string model_name;  ///< the first trial's model
  double model_mass_kg = 0;
  bool wall = true;           ///< the authors' wall is in the scene
  bool hold_commands = true;  ///< commands held at the recorded frames, whole ticks
  std::string headline;       ///< the first trial's headline signal (column name)
  // The replays.
  std::vector<ReplayTrialRow> rows;                            ///< in set order, failed trials too
  int failed = 0;                                              ///< trials with an error
  double mean_rms = std::numeric_limits<double>::quiet_NaN();  ///< over the trials without error
  double mean_E = std::numeric_limits<double>::quiet_NaN();
  double mean_rms_compare = std::numeric_limits<double>::quiet_NaN();
  double mean_E_compare = std::numeric_limits<double>::quiet_NaN();
  /// 100 (sum rms_compare - sum rms) / sum rms over the trials without error.
  double rms_change_percent = std::numeric_limits<double>::quiet_NaN();

  int replayed() const { return trials - failed; }
  nlohmann::json toJson() const;
  static RecordingReplayResult fromJson(const nlohmann::json& j);
};

/// A replay of a recording set ready to run: the trials read and selected, the options resolved
/// against the manifest (wall, wall position), the first trial's model built and its trials
/// checked. InputError naming file and field for bad options, recordings or parameters.
class RecordingReplay {
 public:
  explicit RecordingReplay(RecordingReplayOptions options);

  /// What will be replayed: the fields of the result known before the first trial runs.
  const RecordingReplayResult& header() const { return header_; }
  const ReplaySet& set() const { return set_; }
  const ReplayOptions& replayOptions() const { return replay_; }

  /// Replays every trial in set order, calling `on_trial` (may be empty) after each, and writes
  /// the files of options.out_dir. A trial that diverges is reported in its row, not thrown;
  /// InputError for a model of a later trial that cannot be built.
  RecordingReplayResult run(const std::function<void(const ReplayTrialRow&)>& on_trial = {});

 private:
  struct Models {
    std::shared_ptr<RobotModel> model, compare;
    MotorMap map;
  };
  std::string robotOf(const ReplayTrial& t) const;
  Models& modelsOf(const ReplayTrial& t);
  ReplayTrialRow replayOne(const ReplayTrial& t);

  RecordingReplayOptions options_;
  ReplaySet set_;
  ReplayOptions replay_;
  RecordingReplayResult header_;
  std::map<std::pair<std::string, std::string>, Models> models_;
};

/// InputError("--settle") unless 0 <= settle_s <= 10 s (a replay's settling time).
void checkSettleTime(double settle_s);

/// Writes <dir>/<trial>_tilt.csv: time and the recorded and simulated headline signal (a '/' in
/// the trial name becomes '_').
void writeHeadlineComparison(const std::string& dir, const std::string& trial, const ReplayResult& r);

}  // namespace gapsim::calib
