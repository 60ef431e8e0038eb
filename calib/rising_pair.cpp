// SPDX-License-Identifier: BSD-3-Clause
#include "calib/rising_pair.h"

#include <cmath>
#include <cstdio>

#include "sim/input_error.h"
#include "sim/motion_readers.h"

namespace gapsim::calib {

const std::vector<std::string>& realDataJoints() {
  static const std::vector<std::string> j = {"l_hip",   "l_thigh",    "l_shin", "l_heel", "l_foot",     "r_hip",
                                             "r_thigh", "r_shin",     "r_heel", "r_foot", "l_shoulder", "l_arm",
                                             "l_hand",  "r_shoulder", "r_arm",  "r_hand"};
  return j;
}

std::vector<std::string> realRecordingColumns() {
  std::vector<std::string> c = {"time_s"};
  for (const auto& j : realDataJoints()) c.push_back(j + "/q_rad");
  for (const char* s : {"torso/tilt_rad", "torso/pitch_signed_rad", "torso/rotvec_x", "torso/rotvec_y",
                        "torso/rotvec_z", "torso/x_m", "torso/y_m", "torso/z_m"})
    c.push_back(s);
  return c;
}

std::string commandedMotionCsv(const RisingTask& task, const KeyframeController& ctrl) {
  const RobotModel& m = *task.model;
  std::vector<int> idx;
  std::string text = "time_s";
  for (const auto& j : realDataJoints()) {
    const int k = m.jointIndex(j);
    if (k < 0) throw InputError(m.source_file, 0, j, "the robot lacks this BIOLOID joint");
    idx.push_back(k);
    text += "," + j;
  }
  text += "\n";
  std::vector<double> knots = {0.0}, q;
  for (const Keyframe& kf : ctrl.keyframes()) knots.push_back(knots.back() + kf.duration_s);
  char buf[64];
  for (std::size_t k = 0; k < knots.size(); ++k) {
    // At the knot itself the controller's value is the keyframe's (interpolation reaches it there).
    ctrl.targets(task.legs, task.start_q, knots[k], q);
    std::snprintf(buf, sizeof buf, "%.9f", knots[k]);
    text += buf;
    for (int i : idx) {
      std::snprintf(buf, sizeof buf, ",%.9f", q[static_cast<std::size_t>(i)] + 0.0);  // + 0.0: no "-0.000"
      text += buf;
    }
    text += "\n";
  }
  return text;
}

std::shared_ptr<const Log> readRisingRecording(const std::string& path) {
  auto rec = std::make_shared<Log>(Log::read(path));
  for (const std::string& c : realRecordingColumns()) {
    if (c.find("/q_rad") != std::string::npos) continue;  // joints the recording lacks start at the model's values
    if (!rec->has(c))
      throw InputError(path, 1, c, "the recording lacks this column (real-data dialect, docs/bioloid.md)");
  }
  if (rec->rows() < 2) throw InputError(path, 0, "", "a recording needs at least two frames");
  const int tc = rec->columnIndex("time_s");
  for (std::size_t r = 0; r < rec->rows(); ++r) {
    for (std::size_t c = 0; c < rec->cols(); ++c)
      if (!std::isfinite(rec->at(r, c)))
        throw InputError(path, static_cast<int>(r) + 2, rec->columns()[c], "not a finite number");
    if (r > 0 && !(rec->at(r, static_cast<std::size_t>(tc)) > rec->at(r - 1, static_cast<std::size_t>(tc))))
      throw InputError(path, static_cast<int>(r) + 2, "time_s", "time must increase from frame to frame");
  }
  return rec;
}

ReplayTrial risingPairTrial(const std::string& name, const RisingTask& task, const std::string& motion_path,
                            const std::string& recording_path) {
  ReplayTrial t;
  t.name = name;
  t.recording_path = recording_path;
  t.motion_path = motion_path;
  t.recording = readRisingRecording(recording_path);
  t.motion = std::make_shared<Motion>(loadMotion(motion_path));
  t.has_scene = true;
  t.scene = task.model->scene_boxes;
  // Played and measured as the real lean-to-stand trials: whole ticks at the recorded frames.
  t.spec.name = name;
  t.spec.recording = recording_path;
  t.spec.commands = motion_path;
  t.spec.whole_ticks = true;
  t.spec.measured = leanToStandSignals();
  t.step_duration_s = -1;
  return t;
}

RealityOutcome realityOutcome(const Log& rec, const RisingTask& task, double T_s) {
  RealityOutcome o;
  const std::size_t last = rec.rows() - 1;
  o.t_end_s = rec.at(last, static_cast<std::size_t>(rec.columnIndex("time_s")));
  o.tilt_end_rad = rec.at(last, static_cast<std::size_t>(rec.columnIndex("torso/tilt_rad")));
  o.height_end_m = rec.at(last, static_cast<std::size_t>(rec.columnIndex("torso/z_m")));
  for (double a : rec.column("torso/tilt_rad")) o.max_tilt_rad = std::max(o.max_tilt_rad, a);
  o.upright = o.tilt_end_rad < task.upright_tilt_rad && o.height_end_m > task.upright_height_m;
  o.complete = o.t_end_s >= T_s + 1.0 - 0.05;
  return o;
}

}  // namespace gapsim::calib
