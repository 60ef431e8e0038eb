// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Motion file readers. All of them throw InputError(file, 1-based line, field, what) on bad
/// input, where field is the joint/column name (or "time_s", "time", "frame_period_s").
///
/// Joint columns of the CSV formats: a column named `J` is the target of joint J in radians;
/// `J/q_target_rad` is the same (so a gapsim log can be replayed as a motion). If any
/// `.../q_target_rad` column exists, the other columns with a `/` (measured signals of a log) are
/// ignored; otherwise a column with a `/` is an error. An empty cell means "not given at this
/// frame" (interpolated, see motion.h).

#include <optional>
#include <string>

#include "sim/motion.h"

namespace gapsim {

/// CSV keyframes: a `time_s` column (non-decreasing; equal times are a step) plus joint target
/// columns in radians. `,` or `;` delimited (see csv_table.h for the syntax).
Motion readMotionCsv(const std::string& path);
/// The `# controller: SPEC` comment among the comment lines that open a CSV motion, with its
/// 1-based line (sim/motion.h, Motion::controller); nullopt if there is none.
std::optional<std::pair<std::string, int>> findControllerLine(const std::string& path);

/// Joint-angle table without a time column (the MoToFlex walk files: `;`-separated, one frame
/// every 20 ms): a header of joint names, frame k (0-based) at t = k * frame_period_s. Values in
/// radians. Errors: frame_period_s not finite and > 0; the table has a time_s column (it is a
/// keyframe CSV, load it without a frame period).
Motion readJointTable(const std::string& path, double frame_period_s);

/// Webots `.motion` file:
///   #WEBOTS_MOTION,V1.0,Joint1,Joint2,...
///   MM:SS:mmm,PoseName,v1,v2,...        (values in radians, `*` = not given)
/// Minutes any number of digits, seconds 0..59, exactly three millisecond digits. Times must not
/// decrease. Blank lines are skipped.
Motion readWebotsMotion(const std::string& path);

/// Picks the reader: a `.motion` extension (any case) or a first line starting with
/// `#WEBOTS_MOTION` -> readWebotsMotion (a frame period is then an error); a frame period given ->
/// readJointTable; otherwise readMotionCsv (whose missing time_s error hints at the frame period).
Motion loadMotion(const std::string& path, std::optional<double> frame_period_s = std::nullopt);

}  // namespace gapsim
