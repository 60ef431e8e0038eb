// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recording_replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>

#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/recorder.h"
#include "sim/simulation.h"

namespace gapsim::calib {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitPatterns(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string p; std::getline(ss, p, ',');) {
    while (!p.empty() && p.front() == ' ') p.erase(p.begin());
    while (!p.empty() && p.back() == ' ') p.pop_back();
    if (!p.empty()) out.push_back(p);
  }
  return out;
}

/// "0.05-01" -> 0.05 (the step duration in the file name); NaN if the name has no such prefix.
double durationOf(const std::string& stem) {
  const std::size_t dash = stem.rfind('-');
  if (dash == std::string::npos) return std::nan("");
  try {
    std::size_t used = 0;
    const double d = std::stod(stem.substr(0, dash), &used);
    return used == dash && d >= 0 ? d : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

ReplayTrial readTrial(const std::string& root, const std::string& recording_path, const std::string& name,
                      bool power_cable) {
  ReplayTrial t;
  const std::string stem = fs::path(recording_path).stem().string();
  t.name = name;
  t.recording_path = recording_path;
  t.power_cable = power_cable;
  t.step_duration_s = durationOf(stem);
  if (!std::isfinite(t.step_duration_s))
    throw InputError(t.recording_path, 0, "file name", "expected <step duration>-<trial>.csv, e.g. 0.05-01.csv");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", t.step_duration_s);
  t.motion_path = (fs::path(root) / "motions" / "lean-to-stand" / (std::string(buf) + ".csv")).string();
  if (!fs::exists(t.motion_path))
    throw InputError(t.recording_path, 0, "motion", "no commanded motion " + t.motion_path + " for this trial");
  auto rec = std::make_shared<Log>(Log::read(t.recording_path));
  for (const char* c : {"torso/tilt_rad", "torso/rotvec_x", "torso/rotvec_y", "torso/rotvec_z", "torso/x_m",
                        "torso/y_m", "torso/z_m"})
    if (!rec->has(c)) throw InputError(t.recording_path, 1, c, "the recording lacks this column");
  if (rec->rows() < 2) throw InputError(t.recording_path, 0, "", "a recording needs at least two frames");
  t.recording = std::move(rec);
  t.motion = std::make_shared<Motion>(loadMotion(t.motion_path));
  return t;
}

namespace {

void addTrials(ReplaySet& set, const fs::path& dir, const std::string& prefix, bool cable) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".csv") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) set.trials.push_back(readTrial(set.root, f.string(), prefix + f.stem().string(), cable));
}

}  // namespace

bool globMatch(const std::string& p, const std::string& s) {
  // Iterative matcher with one backtrack point for the last '*'.
  std::size_t i = 0, j = 0, star = std::string::npos, mark = 0;
  while (j < s.size()) {
    if (i < p.size() && (p[i] == '?' || p[i] == s[j])) {
      ++i;
      ++j;
    } else if (i < p.size() && p[i] == '*') {
      star = i++;
      mark = j;
    } else if (star != std::string::npos) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < p.size() && p[i] == '*') ++i;
  return i == p.size();
}

ReplaySet ReplaySet::load(const std::string& root) {
  ReplaySet set;
  set.root = root;
  const fs::path dir = fs::path(root) / "rising" / "lean-to-stand";
  if (!fs::is_directory(dir))
    throw InputError(root, 0, "--recordings",
                     "not the BIOLOID data package: no directory rising/lean-to-stand (expected "
                     "../shared/real-data/bioloid)");
  addTrials(set, dir, "", false);
  if (fs::is_directory(dir / "withPowerCable")) addTrials(set, dir / "withPowerCable", "withPowerCable/", true);
  if (set.trials.empty()) throw InputError(dir.string(), 0, "", "no recordings (*.csv)");
  return set;
}

void ReplaySet::select(const std::string& patterns) {
  const auto ps = splitPatterns(patterns);
  for (const auto& p : ps) {
    bool any = false;
    for (const auto& t : trials) any |= globMatch(p, t.name);
    if (!any) throw InputError(root, 0, "--trials", "no trial matches '" + p + "'");
  }
  std::vector<ReplayTrial> kept;
  for (auto& t : trials)
    for (const auto& p : ps)
      if (globMatch(p, t.name)) {
        kept.push_back(std::move(t));
        break;
      }
  trials = std::move(kept);
}

void ReplaySet::markHoldout(const std::string& patterns) {
  const auto ps = splitPatterns(patterns);
  for (const auto& p : ps) {
    bool any = false;
    for (const auto& t : trials) any |= globMatch(p, t.name);
    if (!any) throw InputError(root, 0, "--holdout", "no trial matches '" + p + "'");
  }
  for (auto& t : trials) {
    t.holdout = false;
    for (const auto& p : ps) t.holdout |= globMatch(p, t.name);
  }
}

int ReplaySet::count(bool holdout) const {
  int n = 0;
  for (const auto& t : trials) n += t.holdout == holdout;
  return n;
}

SceneBox authorsWall(double face_x_m) {
  SceneBox b;
  b.name = "wall";
  b.size_m = Eigen::Vector3d(0.05, 0.5, 0.5);
  b.pose = Eigen::Isometry3d(Eigen::Translation3d(face_x_m - 0.025, 0.0, 0.3));
  return b;
}

std::shared_ptr<RobotModel> replayModel(const RobotModel& base, const ReplayTrial& trial, const ReplayOptions& o) {
  auto m = std::make_shared<RobotModel>(base);
  const Log& rec = *trial.recording;
  for (std::size_t j = 0; j < m->joints.size(); ++j) {
    const int c = rec.columnIndex(m->joints[j].name + "/q_rad");
    if (c >= 0) m->initial_q[j] = rec.at(0, static_cast<std::size_t>(c));
  }
  auto col = [&](const char* name) { return rec.at(0, static_cast<std::size_t>(rec.columnIndex(name))); };
  const Eigen::Vector3d rv(col("torso/rotvec_x"), col("torso/rotvec_y"), col("torso/rotvec_z"));
  const double angle = rv.norm();
  const Eigen::Matrix3d R =
      angle > 0 ? Eigen::AngleAxisd(angle, rv / angle).toRotationMatrix() : Eigen::Matrix3d::Identity();
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  pose.linear() = R;
  pose.translation() = Eigen::Vector3d(col("torso/x_m"), col("torso/y_m"), col("torso/z_m"));
  m->initial_root_pose = pose;
  m->has_ground_clearance = true;  // z from the collision boxes (file comment)
  if (trial.has_scene) {
    m->scene_boxes = trial.scene;
    return m;
  }
  bool has_wall = false;
  for (const SceneBox& b : m->scene_boxes) has_wall |= b.name == "wall";
  if (o.wall && !has_wall) m->scene_boxes.push_back(authorsWall(o.wall_face_x_m));
  return m;
}

ReplayResult replayTrial(const RobotModel& base, const ReplayTrial& trial, const MotorMap& map,
                         const ReplayOptions& o, Log* log) {
  ReplayResult r;
  const auto model = replayModel(base, trial, o);
  const Log& rec = *trial.recording;
  const std::vector<double> t_rec = rec.column("time_s");
  const std::vector<double> tilt_rec = rec.column("torso/tilt_rad");

  std::vector<std::string> names;
  for (const Joint& j : model->joints) names.push_back(j.name);
  const std::vector<int> to_joint = trial.motion->mapJoints(names);
  // Motion column -> motor map entry (null: not a Dynamixel of the map, command unquantised).
  std::vector<const MotorMapEntry*> entry(to_joint.size(), nullptr);
  for (std::size_t c = 0; c < to_joint.size(); ++c)
    for (const auto& e : map.entries)
      if (e.joint == trial.motion->joints()[c]) entry[c] = &e;

  std::vector<double> target = model->initial_q, values;
  MotionCursor cursor;
  auto command = [&](double t, bool quantise) {
    // At a jump (two rows with one time) the authors' Motion.cpp applies the earlier row for t
    // equal to that time (data README); gapsim's Motion the later one. Sampling one ulp earlier
    // gives the data's rule: the 0.00 ramp's frame 0 (t = 0) commands the start pose, not the end.
    trial.motion->sampleAll(std::nextafter(t, -std::numeric_limits<double>::infinity()), values, cursor);
    for (std::size_t c = 0; c < to_joint.size(); ++c) {
      double q = values[c];
      if (quantise && entry[c]) {
        // C++ int() of the tick value; + 1e-3 tick undoes the 6-decimal rounding of the motion
        // CSVs (<= 1e-4 tick), so a knot at a whole tick stays that tick.
        const double tick = std::trunc(MotorMap::radToTick(*entry[c], q) + 1e-3);
        q = MotorMap::tickToRad(*entry[c], tick);
      }
      target[static_cast<std::size_t>(to_joint[c])] = q;
    }
  };

  // Encoder columns: (model joint, recording column) for the E_q term.
  std::vector<std::pair<int, std::size_t>> enc;
  for (std::size_t j = 0; j < model->joints.size(); ++j) {
    const int c = rec.columnIndex(model->joints[j].name + "/q_rad");
    if (c >= 0) enc.emplace_back(static_cast<int>(j), static_cast<std::size_t>(c));
  }
  r.joints_compared = static_cast<int>(enc.size());
  std::vector<double> q_err2;  // sum_j (q_real_j - q_sim_j)^2 at the sampled frames

  SimOptions so;
  so.seed = o.sim_seed;
  Simulation sim(model, so);
  Recorder recorder(*model);
  std::vector<double> row;
  if (log) *log = Log(recorder.columns());
  const long log_every = std::max(1L, std::lround(o.log_period_s / sim.dt_s()));

  // Settling: the real robot stood at rest on the wall before playback started; the recorded
  // pose with zero velocities is not an equilibrium of the model (0.5 mm above the floor, the
  // wall where the model says), so hold the first frame's command for o.settle_s first.
  if (o.hold_commands) command(t_rec[0], true);
  else command(t_rec.front(), false);
  sim.setTargets(target);
  try {
    for (long k = std::lround(o.settle_s / sim.dt_s()); k > 0; --k) sim.step();
  } catch (const DivergenceError& e) {
    r.diverged = true;
    r.error = std::string("diverged while settling: ") + e.what();
    return r;
  }
  const double t0 = t_rec.front() - sim.time_s(), t_end = t_rec.back();  // recording time = t0 + sim time
  std::size_t next = 0;        // next recorded frame to sample
  std::size_t cmd_frame = 0;   // frame whose command is held
  double prev_t = sim.time_s() + t0, prev_tilt = sim.imu().tilt_rad;
  std::vector<double> prev_q(enc.size()), now_q(enc.size());
  auto read_q = [&](std::vector<double>& q) {
    for (std::size_t i = 0; i < enc.size(); ++i) q[i] = sim.jointAngle_rad(enc[i].first);
  };
  read_q(prev_q);
  auto sample_until = [&](double now_t, double now_tilt) {
    while (next < t_rec.size() && t_rec[next] <= now_t + 1e-12) {
      const double w = std::clamp(now_t > prev_t ? (t_rec[next] - prev_t) / (now_t - prev_t) : 1.0, 0.0, 1.0);
      r.time_s.push_back(t_rec[next]);
      r.tilt_real_rad.push_back(tilt_rec[next]);
      r.tilt_sim_rad.push_back(prev_tilt + w * (now_tilt - prev_tilt));
      double e2 = 0;
      for (std::size_t i = 0; i < enc.size(); ++i) {
        const double d = rec.at(next, enc[i].second) - (prev_q[i] + w * (now_q[i] - prev_q[i]));
        e2 += d * d;
      }
      q_err2.push_back(e2);
      ++next;
    }
  };
  now_q = prev_q;
  sample_until(prev_t, prev_tilt);
  if (log) {
    recorder.sample(sim, row);
    log->appendRow(row);
  }
  try {
    while (next < t_rec.size()) {
      const double t = t0 + sim.time_s();
      if (o.hold_commands) {
        // The command of frame k applies from time_s[k] on.
        bool changed = false;
        while (cmd_frame + 1 < t_rec.size() && t_rec[cmd_frame + 1] <= t + 1e-12) {
          ++cmd_frame;
          changed = true;
        }
        if (changed) command(t_rec[cmd_frame], true);
      } else {
        command(t, false);
      }
      sim.setTargets(target);
      sim.step();
      const double tilt = sim.imu().tilt_rad;
      r.max_tilt_sim_rad = std::max(r.max_tilt_sim_rad, tilt);
      const double now = t0 + sim.time_s();
      read_q(now_q);
      sample_until(now, tilt);
      prev_t = now;
      prev_tilt = tilt;
      prev_q.swap(now_q);
      if (log && sim.stepCount() % log_every == 0) {
        recorder.sample(sim, row);
        log->appendRow(row);
      }
      if (now > t_end + 1.0) break;  // cannot happen; guards a time base error
    }
  } catch (const DivergenceError& e) {
    r.diverged = true;
    r.error = std::string("diverged: ") + e.what();
    return r;
  }
  double E = 0;
  for (std::size_t k = 1; k < r.time_s.size(); ++k) {
    const double a = r.tilt_real_rad[k - 1] - r.tilt_sim_rad[k - 1], b = r.tilt_real_rad[k] - r.tilt_sim_rad[k];
    E += 0.5 * (a * a + b * b) * (r.time_s[k] - r.time_s[k - 1]);
  }
  r.E_rad2_s = E;
  double Eq = 0;
  for (std::size_t k = 1; k < r.time_s.size(); ++k) Eq += 0.5 * (q_err2[k - 1] + q_err2[k]) * (r.time_s[k] - r.time_s[k - 1]);
  r.E_joint_rad2_s = Eq;
  const double span = r.time_s.back() - r.time_s.front();
  r.rms_rad = span > 0 ? std::sqrt(E / span) : 0.0;
  return r;
}

ReplayProblem::ReplayProblem(std::shared_ptr<const RobotModel> base, ParameterSpace space, ReplaySet set, MotorMap map,
                             ReplayOptions options)
    : space_(std::move(space)), set_(std::move(set)), map_(std::move(map)), options_(options) {
  // The wall is part of the calibrated model, so scene/wall/{x,y,z} can be parameters.
  auto m = std::make_shared<RobotModel>(*base);
  bool has_wall = false;
  for (const SceneBox& b : m->scene_boxes) has_wall |= b.name == "wall";
  if (options_.wall && !has_wall) m->scene_boxes.push_back(authorsWall(options_.wall_face_x_m));
  base_ = std::move(m);
  space_.checkAgainst(*base_);
  std::vector<std::string> names;
  for (const Joint& j : base_->joints) names.push_back(j.name);
  for (const auto& t : set_.trials) t.motion->checkJoints(names);
}

ReplayResult ReplayProblem::runTrial(const Eigen::VectorXd& values, int k, Log* log) const {
  RobotModel m = *base_;
  try {
    space_.apply(m, values);
  } catch (const std::exception& e) {
    ReplayResult r;
    r.error = std::string("refused: ") + e.what();
    return r;
  }
  return replayTrial(m, set_.trials[static_cast<std::size_t>(k)], map_, options_, log);
}

EvalResult ReplayProblem::evaluate(const Eigen::VectorXd& values, bool holdout) const {
  EvalResult res;
  double E = 0;
  int n = 0;
  std::vector<double> per;
  for (std::size_t k = 0; k < set_.trials.size(); ++k) {
    if (set_.trials[k].holdout != holdout) continue;
    const ReplayResult r = runTrial(values, static_cast<int>(k));
    if (!r.error.empty()) {
      res.error = set_.trials[k].name + ": " + r.error;
      return res;
    }
    const double Ek = r.E_rad2_s + (options_.joint_weight > 0 ? options_.joint_weight * r.E_joint_rad2_s : 0.0);
    E += Ek;
    per.push_back(Ek);
    ++n;
  }
  if (n == 0) return res;
  res.fitness = E / n;
  res.parts = {res.fitness};
  res.parts.insert(res.parts.end(), per.begin(), per.end());
  return res;
}

}  // namespace gapsim::calib
