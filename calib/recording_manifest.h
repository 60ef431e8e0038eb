// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A recording manifest: a set of recorded trials of any robot on any task, described in one JSON
/// file (docs/recordings.md), read into plain structs that the replay (calib/recording_replay.h)
/// plays. Every front end (`replay`, `calibrate-replay`, `loop --recordings`, the GUI's Replay
/// Real Recording) reads recordings through loadRecordings(), so there is one code path after
/// reading; the BIOLOID data package's lean-to-stand layout (`<dir>/rising/lean-to-stand`) is
/// read by legacyLeanToStandManifest() (calib/lean_to_stand_layout.h) into the same structs.
///
/// Per trial: the recording CSV; the robot and parameter file; the initial pose (the recording's
/// first frame, the robot file's pose, or explicit joint values and root pose, then an optional
/// settle on the ground); scene boxes; the command stream (motion file, how it was sent: held at
/// the recording's frames, at the command file's rows, at a fixed rate, or continuous; its units;
/// whether it reached the servos as whole Dynamixel ticks; whether the ankle balance ran); the
/// measured signals (column or glob, unit, weight), converted to SI at read time; the role
/// (train, validate, test) and free tags. A `defaults` object gives values every trial inherits
/// (objects merged key by key, a trial's key wins).
///
/// Errors name `file:line: field` and the bad value: a syntax error at nlohmann's byte position,
/// a semantic error at the line of the key (or of the inherited default that supplied it).

#include <Eigen/Geometry>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/robot_model.h"

namespace gapsim::calib {

/// Where a trial's simulation starts.
enum class InitialPoseSource {
  kFirstFrame,  ///< the recording's first frame: `<joint>/q_rad` and the root pose columns
  kRobotFile,   ///< the robot file's initial pose, unchanged
  kExplicit,    ///< joint values and (optionally) a root pose given in the manifest
};

/// When a new command reaches the servos.
enum class CommandHold {
  kFrames,      ///< at each recorded frame the command file sampled at that frame's time, held
  kRows,        ///< at each row of the command file that row's value, held
  kRate,        ///< every 1/rate_hz s from the recording's first frame, held
  kContinuous,  ///< the command file sampled at every simulation step (linear between rows)
};

/// A measured signal: one recording column, or a glob over the recording's columns. Every matched
/// column is compared with the simulated signal of its SI name (the unit suffix replaced:
/// `_deg` -> `_rad`, `_mm` -> `_m`, ...) and scored as weight x integral sum (real - sim)^2 dt.
struct SignalSpec {
  std::string column;        ///< e.g. "torso/tilt_rad", "*/q_rad", "l_foot/contact"
  std::string unit;          ///< the column's unit; must be the column name's suffix ("1": no unit)
  double scale_to_si = 1.0;  ///< SI value = file value x scale_to_si
  double weight = 1.0;       ///< >= 0; 0: reported, not scored
};

/// One trial as the manifest states it; paths are absolute after reading.
struct ManifestTrial {
  std::string name;       ///< unique within the manifest; `--trials` globs match it
  std::string recording;  ///< the recording CSV (time_s first)
  std::string robot;      ///< robot name or file; "" = the command's --robot
  std::string params;     ///< parameter file applied to the robot; "" = none

  InitialPoseSource initial = InitialPoseSource::kFirstFrame;
  std::string root_columns = "torso";           ///< kFirstFrame: prefix of <p>/rotvec_{x,y,z}, <p>/{x,y}_m
  std::map<std::string, double> initial_q_rad;  ///< kExplicit: joint -> angle
  bool has_root_pose = false;                   ///< kExplicit: a root pose was given
  Eigen::Vector3d root_xyz_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d root_rotvec_rad = Eigen::Vector3d::Zero();
  std::optional<double> settle_s;  ///< unset: the command's --settle

  bool has_scene = false;  ///< true: `scene_boxes` replace the robot file's scene
  std::vector<SceneBox> scene_boxes;

  std::string commands;  ///< the commanded motion (time_s, one column per joint)
  CommandHold hold = CommandHold::kFrames;
  double rate_hz = 0;                 ///< kRate
  double command_scale_to_rad = 1.0;  ///< the command file's units: rad 1, deg pi/180
  bool whole_ticks = false;           ///< the servos received int(ticks) of the robot's motor map
  std::string balance;                ///< "" open loop, else an ankle-balance spec (sim/ankle_balance.h)

  std::vector<SignalSpec> measured;  ///< "signals": the first is the trial's headline signal (printed RMS)
  std::string role = "train";        ///< train, validate or test
  std::vector<std::string> tags;
  double step_duration_s = -1;  ///< the lean-to-stand ramp duration (printed); < 0: none
  int line = 0;                 ///< the manifest line of the trial (error messages)
};

struct RecordingManifest {
  std::string source;             ///< the manifest file, or the legacy package directory
  std::string dir;                ///< directory relative paths are resolved against
  bool authors_wall = false;      ///< the BIOLOID authors' wall behind the robot (calib/recording_replay.h)
  double wall_face_x_m = -0.087;  ///< x of its front face
  std::vector<ManifestTrial> trials;
};

/// The signals of the real lean-to-stand data: the torso tilt (weight 1, paper 002's E) then
/// every `*/q_rad` encoder (weight 0: the encoder term's weight comes from ReplayOptions).
std::vector<SignalSpec> leanToStandSignals();

/// Parses manifest text; `file` names it in errors and its directory resolves relative paths.
/// InputError(file, line, field, "'value': what is expected") for any malformed entry.
RecordingManifest parseRecordingManifest(const std::string& text, const std::string& file);

/// A manifest from `path`: a .json file, a directory holding recordings.json, or a directory in
/// the lean-to-stand layout. InputError naming the path otherwise.
RecordingManifest loadRecordings(const std::string& path);

/// The manifest of one recording (the GUI opens a file): a .json manifest as a whole; a CSV
/// named by a recordings.json in its directory or above (that trial alone); a CSV inside the
/// lean-to-stand layout (that trial alone). InputError naming the path otherwise.
RecordingManifest loadRecordingOf(const std::string& recording_path);

/// Unit of a column name's suffix ("torso/tilt_deg" -> "deg"; "" if it names none) and the
/// factor to SI (NaN for an unknown unit).
std::string unitOfColumn(const std::string& column);
double unitScaleToSi(const std::string& unit);
/// The SI name of a column: its unit suffix replaced by the SI one (`_deg` -> `_rad`).
std::string siColumnName(const std::string& column);

}  // namespace gapsim::calib
