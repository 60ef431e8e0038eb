// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// ROBOTIS RoboPlus motion files (`.mtn`, the BIOLOID's own format) as gapsim Motions.
///
/// Format (../shared/real-data/bioloid/mtn/MTN_FORMAT.md, from jietan/bioGP `Motion::loadMTN`):
/// header lines `key=values`, then pages `page_begin` / `name=` / `compliance=` /
/// `play_param=<next> <exit> <repeat> <speed_rate> <ctrl_inertial_force>` / `step=` ... /
/// `page_end`. A step line holds 26 goal positions in Dynamixel ticks (index = Dynamixel id
/// 0..25, 512 = centre, 1024 ticks = 300 deg) followed by `<pause_s> <time_s>`. Anything after
/// the last `page_end` (a two-byte checksum in the real files) is ignored; a UTF-8 BOM is skipped.
///
/// Ticks -> joint angles with a motor map (robots/bioloid/motor_map.csv, bioGP MotorMap.cpp):
///   q_rad = s (tick - 512) (5 pi / 3) / 1024 + offset_rad,   s = -1 where swap = 1, else +1.
///
/// Playback (bioGP `Motion::targetPose`): from the initial pose at t = 0, step k ramps linearly
/// from the previous target to its own over time_k / speed_rate, then holds it for
/// pause_k / speed_rate; the last target is held. A step with time 0 is a jump (Motion's equal
/// times: the new value applies from the knot time on, bioGP's from just after it).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/motion.h"

namespace gapsim {

/// One Dynamixel id mapped to a joint.
struct MotorMapEntry {
  std::string joint;
  int dynamixel_id = 0;  ///< 1-based, as on the bus and as the index in a `.mtn` step line
  double offset_rad = 0.0;
  bool swap = false;  ///< direction reversed (s = -1)
};

/// Dynamixel id -> joint table.
struct MotorMap {
  std::vector<MotorMapEntry> entries;
  std::string source_file;

  /// Reads a CSV with columns urdf_joint, dynamixel_id, offset_rad, swap (others ignored, `#`
  /// lines are comments). Throws InputError(file, line, field, ...) on bad input, duplicate ids
  /// or joints, ids outside 1..25, swap not 0/1.
  static MotorMap read(const std::string& path);

  /// q_rad = s (tick - 512) (5 pi / 3) / 1024 + offset_rad.
  static double tickToRad(const MotorMapEntry& e, double tick);
  /// The inverse: tick = 512 + s (q - offset) 1024 / (5 pi / 3) (not rounded).
  static double radToTick(const MotorMapEntry& e, double q_rad);
};

/// One page of a `.mtn` file, as written (ticks, seconds before speed_rate scaling).
struct MtnStep {
  std::vector<int> ticks;  ///< 26 values, index = Dynamixel id 0..25
  double pause_s = 0.0;
  double time_s = 0.0;
  int line = 0;
};

struct MtnPage {
  int number = 0;  ///< 1-based position in the file
  std::string name;
  double speed_rate = 1.0;
  int line = 0;  ///< line of `page_begin`
  std::vector<MtnStep> steps;
};

struct MtnFile {
  std::string path;
  std::vector<MtnPage> pages;

  /// Parses and validates the whole file. Throws InputError(path, line, field, what) for a
  /// malformed page (missing page_end, a step outside a page, a step with the wrong count),
  /// a bad tick (not an integer in 0..1023), a bad pause/time/speed_rate.
  static MtnFile read(const std::string& path);

  /// The page named `name`; if none has that name and `name` is a number, the page with that
  /// 1-based number. Throws InputError(path, 0, "page", ...) listing the named pages otherwise.
  const MtnPage& page(const std::string& name) const;
  /// Names of the non-empty-named pages in file order.
  std::vector<std::string> pageNames() const;
};

/// Builds the Motion of one page for the joints of `map` (in map order). `initial_pose_rad`
/// (joint name -> angle) is the pose at t = 0 that the first step ramps from; joints it lacks, or
/// all joints if it is empty, start at the first step's target (the ramp becomes a hold). Throws
/// InputError for an unknown page or a page without steps.
Motion mtnPageMotion(const MtnFile& file, const std::string& page_name, const MotorMap& map,
                     const std::map<std::string, double>& initial_pose_rad = {});

/// True if `path` ends in `.mtn` (any case).
bool isMtnPath(const std::string& path);

}  // namespace gapsim
