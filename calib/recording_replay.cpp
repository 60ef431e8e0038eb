// SPDX-License-Identifier: BSD-3-Clause
#include "calib/recording_replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>

#include "calib/recorded_commands.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/recorder.h"
#include "sim/run_loop.h"
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

/// The comma-separated glob `patterns` of the command-line `option`, each checked to match at
/// least one of `trials`: a pattern that matches none is a typo, not an empty selection.
std::vector<std::string> patternsMatchingTrials(const std::string& patterns, const std::vector<ReplayTrial>& trials,
                                                const std::string& root, const char* option) {
  auto ps = splitPatterns(patterns);
  for (const auto& p : ps) {
    bool any = false;
    for (const auto& t : trials) any |= globMatch(p, t.name);
    if (!any) throw InputError(root, 0, option, "no trial matches '" + p + "'");
  }
  return ps;
}

}  // namespace

ReplayTrial readTrial(const ManifestTrial& spec) {
  ReplayTrial t{.name = spec.name,
                .recording_path = spec.recording,
                .motion_path = spec.commands,
                .step_duration_s = spec.step_duration_s,
                .holdout = spec.role != "train",
                .has_scene = spec.has_scene,
                .scene = spec.scene_boxes,
                .spec = spec};
  auto rec = std::make_shared<Log>(Log::read(t.recording_path));
  if (!rec->has("time_s")) throw InputError(t.recording_path, 1, "time_s", "the recording lacks this column");
  for (const SignalSpec& sp : spec.measured) {
    bool any = false;
    for (const std::string& c : rec->columns()) any |= c != "time_s" && globMatch(sp.column, c);
    if (!any)
      throw InputError(t.recording_path, 1, sp.column,
                       "the recording lacks this column (a measured signal of trial " + spec.name + ")");
  }
  if (spec.initial == InitialPoseSource::kFirstFrame)
    for (const char* s : {"/rotvec_x", "/rotvec_y", "/rotvec_z", "/x_m", "/y_m", "/z_m"})
      if (!rec->has(spec.root_columns + s))
        throw InputError(t.recording_path, 1, spec.root_columns + s,
                         "the recording lacks this column (the initial pose is its first frame)");
  if (rec->rows() < 2) throw InputError(t.recording_path, 0, "", "a recording needs at least two frames");
  t.recording = std::move(rec);
  Motion m = loadMotion(t.motion_path);
  if (spec.command_scale_to_rad != 1.0) {
    // A command file in degrees: every given value to rad (holes stay NaN).
    std::vector<std::vector<double>> v(m.frameCount(), std::vector<double>(m.jointCount()));
    for (std::size_t k = 0; k < m.frameCount(); ++k)
      for (std::size_t j = 0; j < m.jointCount(); ++j) v[k][j] = m.givenValue_rad(k, j) * spec.command_scale_to_rad;
    m = Motion(m.joints(), m.times_s(), std::move(v), m.sourceFile());
  }
  t.motion = std::make_shared<Motion>(std::move(m));
  return t;
}

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

ReplaySet ReplaySet::fromManifest(const RecordingManifest& m) {
  ReplaySet set;
  set.root = m.source;
  set.authors_wall = m.authors_wall;
  set.wall_face_x_m = m.wall_face_x_m;
  for (const ManifestTrial& t : m.trials) set.trials.push_back(readTrial(t));
  return set;
}

ReplaySet ReplaySet::load(const std::string& path) { return fromManifest(loadRecordings(path)); }

void ReplaySet::select(const std::string& patterns) {
  const auto ps = patternsMatchingTrials(patterns, trials, root, "--trials");
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
  const auto ps = patternsMatchingTrials(patterns, trials, root, "--holdout");
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

namespace {

Eigen::Matrix3d fromRotvec(const Eigen::Vector3d& rv) {
  const double angle = rv.norm();
  return angle > 0 ? Eigen::AngleAxisd(angle, rv / angle).toRotationMatrix() : Eigen::Matrix3d::Identity();
}

}  // namespace

std::shared_ptr<RobotModel> replayModel(const RobotModel& base, const ReplayTrial& trial, const ReplayOptions& o) {
  auto m = std::make_shared<RobotModel>(base);
  const ManifestTrial& spec = trial.spec;
  if (spec.initial == InitialPoseSource::kFirstFrame) {
    const Log& rec = *trial.recording;
    for (std::size_t j = 0; j < m->joints.size(); ++j) {
      const int c = rec.columnIndex(m->joints[j].name + "/q_rad");
      if (c >= 0) m->initial_q[j] = rec.at(0, static_cast<std::size_t>(c));
    }
    auto col = [&](const char* s) {
      return rec.at(0, static_cast<std::size_t>(rec.columnIndex(spec.root_columns + s)));
    };
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    pose.linear() = fromRotvec(Eigen::Vector3d(col("/rotvec_x"), col("/rotvec_y"), col("/rotvec_z")));
    pose.translation() = Eigen::Vector3d(col("/x_m"), col("/y_m"), col("/z_m"));
    m->initial_root_pose = pose;
    m->has_ground_clearance = true;  // z from the collision boxes (file comment)
  } else if (spec.initial == InitialPoseSource::kExplicit) {
    for (const auto& [name, q] : spec.initial_q_rad) {
      int j = -1;
      for (std::size_t k = 0; k < m->joints.size(); ++k)
        if (m->joints[k].name == name) j = static_cast<int>(k);
      if (j < 0)
        throw InputError(m->source_file, 0, "initial_pose.joints_rad", "'" + name + "': no such joint in the robot");
      m->initial_q[static_cast<std::size_t>(j)] = q;
    }
    if (spec.has_root_pose) {
      Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
      pose.linear() = fromRotvec(spec.root_rotvec_rad);
      pose.translation() = spec.root_xyz_m;
      m->initial_root_pose = pose;
      m->has_ground_clearance = false;  // the given height stands
    }
  }
  if (trial.has_scene) {
    m->scene_boxes = trial.scene;
    return m;
  }
  bool has_wall = false;
  for (const SceneBox& b : m->scene_boxes) has_wall |= b.name == "wall";
  if (o.wall && !has_wall) m->scene_boxes.push_back(authorsWall(o.wall_face_x_m));
  return m;
}

namespace {

/// Where the simulated value of a recorded column comes from.
struct Channel {
  std::size_t rec_col = 0;
  double scale = 1.0;  ///< recorded value x scale = SI
  int joint = -1;      ///< the joint angle of this model joint
  bool tilt = false;   ///< Simulation::imu().tilt_rad
  int log_col = -1;    ///< the Recorder column of its SI name
};

struct SignalGroup {
  std::vector<Channel> channels;
  double weight = 0;
  bool joints = false;  ///< only joint angles: the weight is ReplayOptions::joint_weight when > 0
};

bool hasGlob(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

/// Each signal entry's recorded columns and their simulated counterparts on `model` (InputError
/// naming the recording and the column when a named column has no simulated signal).
std::vector<SignalGroup> resolveSignals(const RobotModel& model, const ReplayTrial& trial, const Recorder& recorder,
                                        const ReplayOptions& o) {
  const Log& rec = *trial.recording;
  const std::string imu = model.imus.empty() ? model.links[model.root_link].name : model.imus.front().name;
  const std::string root = model.links[model.root_link].name;
  std::vector<SignalGroup> out;
  for (const SignalSpec& sp : trial.spec.measured) {
    SignalGroup g;
    for (std::size_t c = 0; c < rec.cols(); ++c) {
      const std::string& name = rec.columns()[c];
      if (name == "time_s" || !globMatch(sp.column, name)) continue;
      Channel ch;
      ch.rec_col = c;
      ch.scale = sp.scale_to_si;
      const std::string si = siColumnName(name);
      const std::size_t slash = si.rfind('/');
      const std::string body = slash == std::string::npos ? "" : si.substr(0, slash);
      const std::string leaf = slash == std::string::npos ? si : si.substr(slash + 1);
      if (leaf == "q_rad")
        for (std::size_t j = 0; j < model.joints.size(); ++j)
          if (model.joints[j].name == body) ch.joint = static_cast<int>(j);
      if (ch.joint < 0 && leaf == "tilt_rad" && (body == imu || body == root)) ch.tilt = true;
      if (ch.joint < 0 && !ch.tilt) {
        const auto& cols = recorder.columns();
        const auto it = std::find(cols.begin(), cols.end(), si);
        if (it != cols.end()) ch.log_col = static_cast<int>(it - cols.begin());
      }
      if (ch.joint < 0 && !ch.tilt && ch.log_col < 0) {
        if (hasGlob(sp.column)) continue;  // a glob takes the columns the model can simulate
        throw InputError(trial.recording_path, 1, name,
                         "no simulated signal " + si + " on " + model.name +
                             " (a joint's q_rad, the IMU's tilt_rad or a column of the simulated log)");
      }
      g.channels.push_back(ch);
    }
    // Joint angles in the model's joint order (the order of the sum in E_q).
    std::stable_sort(g.channels.begin(), g.channels.end(), [](const Channel& a, const Channel& b) {
      return a.joint >= 0 && b.joint >= 0 && a.joint < b.joint;
    });
    g.joints = !g.channels.empty();
    for (const Channel& ch : g.channels) g.joints &= ch.joint >= 0;
    g.weight = g.joints && o.joint_weight > 0 ? o.joint_weight : sp.weight;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

void checkReplayable(const RobotModel& base, const ReplayTrial& trial, const ReplayOptions& o) {
  const auto model = replayModel(base, trial, o);
  Recorder recorder(*model);
  resolveSignals(*model, trial, recorder, o);
}

namespace {

/// The measured signals of a replay sampled at the recording's frames: after every step, each
/// frame the simulation has reached is compared with the states before and after the step,
/// linearly interpolated; the run stops after the last frame.
class FrameSampler : public Observer {
 public:
  FrameSampler(const Log& rec, const std::vector<double>& t_rec, const std::vector<SignalGroup>& groups,
               const Recorder& recorder, ReplayResult& r)
      : rec_(rec), frame_times_s_(t_rec), groups_(groups), recorder_(recorder), r_(r), err2_(groups.size()) {
    std::size_t n_ch = 0;
    for (const auto& g : groups) {
      n_ch += g.channels.size();
      for (const Channel& ch : g.channels) need_row_ |= ch.log_col >= 0;
    }
    prev_v_.resize(n_ch);
    now_v_.resize(n_ch);
  }
  /// Starts the clock at recording time t0_s + simulation time and samples the frames at it.
  void start(const Simulation& sim, double t0_s) {
    t0_s_ = t0_s;
    prev_t_s_ = now_t_s_ = sim.time_s() + t0_s;
    read(sim, prev_v_);
    now_v_ = prev_v_;
    sampleUntil(prev_t_s_);
  }
  void afterStep(const Simulation& sim) override {
    r_.max_tilt_sim_rad = std::max(r_.max_tilt_sim_rad, sim.imu().tilt_rad);
    now_t_s_ = t0_s_ + sim.time_s();
    read(sim, now_v_);
    sampleUntil(now_t_s_);
    prev_t_s_ = now_t_s_;
    prev_v_.swap(now_v_);
  }
  /// After the last frame; a time past the recording by 1 s cannot happen and guards a time base error.
  bool stopRequested() const override {
    return next_ >= frame_times_s_.size() || now_t_s_ > frame_times_s_.back() + 1.0;
  }
  /// Per signal entry, sum_c (real - sim)^2 at each frame sampled.
  const std::vector<std::vector<double>>& squaredErrors() const { return err2_; }

 private:
  void read(const Simulation& sim, std::vector<double>& v) {
    if (need_row_) recorder_.sample(sim, row_);
    std::size_t i = 0;
    for (const auto& g : groups_)
      for (const Channel& ch : g.channels)
        v[i++] = ch.joint >= 0 ? sim.jointAngle_rad(ch.joint)
                 : ch.tilt     ? sim.imu().tilt_rad
                               : row_[static_cast<std::size_t>(ch.log_col)];
  }
  void sampleUntil(double now_t_s) {
    for (; next_ < frame_times_s_.size() && frame_times_s_[next_] <= now_t_s + 1e-12; ++next_) {
      const double w =
          std::clamp(now_t_s > prev_t_s_ ? (frame_times_s_[next_] - prev_t_s_) / (now_t_s - prev_t_s_) : 1.0, 0.0, 1.0);
      std::size_t i = 0;
      for (std::size_t g = 0; g < groups_.size(); ++g) {
        double e2 = 0;
        for (const Channel& ch : groups_[g].channels) {
          const double sim_v = prev_v_[i] + w * (now_v_[i] - prev_v_[i]);
          const double real_v = rec_.at(next_, ch.rec_col) * ch.scale;
          if (i == 0) {
            r_.time_s.push_back(frame_times_s_[next_]);
            r_.tilt_real_rad.push_back(real_v);
            r_.tilt_sim_rad.push_back(sim_v);
          }
          const double d = real_v - sim_v;
          e2 += d * d;
          ++i;
        }
        err2_[g].push_back(e2);
      }
    }
  }

  const Log& rec_;
  const std::vector<double>& frame_times_s_;
  const std::vector<SignalGroup>& groups_;
  const Recorder& recorder_;
  ReplayResult& r_;
  std::vector<std::vector<double>> err2_;
  bool need_row_ = false;
  std::vector<double> row_, prev_v_, now_v_;
  std::size_t next_ = 0;  // next recorded frame to sample
  double t0_s_ = 0.0, prev_t_s_ = 0.0, now_t_s_ = 0.0;
};

/// The scores of the sampled frames: E_g by the trapezoid over the frames, the weighted sum, the
/// headline signal's E and RMS and the joint-angle entry's E_q.
void scoreTrial(const ReplayTrial& trial, const std::vector<SignalGroup>& groups, const std::vector<double>& t_rec,
                const std::vector<std::vector<double>>& err2, ReplayResult& r) {
  r.score = 0;
  r.E_joint_rad2_s = 0;
  bool joints_seen = false;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    double E = 0;
    for (std::size_t k = 1; k < err2[g].size(); ++k)
      E += 0.5 * (err2[g][k - 1] + err2[g][k]) * (t_rec[k] - t_rec[k - 1]);
    SignalScore sc;
    sc.column = trial.spec.measured[g].column;
    sc.columns = static_cast<int>(groups[g].channels.size());
    sc.weight = groups[g].weight;
    sc.E = E;
    r.scores.push_back(sc);
    r.score += groups[g].weight * E;
    if (g == 0) r.E_rad2_s = E;
    if (groups[g].joints && !joints_seen) {
      r.E_joint_rad2_s = E;
      joints_seen = true;
    }
  }
  const Log& rec = *trial.recording;
  r.headline = groups.empty() || groups[0].channels.empty() ? "" : rec.columns()[groups[0].channels[0].rec_col];
  const double span = t_rec.back() - t_rec.front();
  r.rms_rad = span > 0 ? std::sqrt(r.E_rad2_s / span) : 0.0;
}

}  // namespace

ReplayResult replayTrial(const RobotModel& base, const ReplayTrial& trial, const MotorMap& map, const ReplayOptions& o,
                         Log* log) {
  ReplayResult r;
  const auto model = replayModel(base, trial, o);
  const std::vector<double> t_rec = trial.recording->column("time_s");
  RecordedCommands commands(*model, trial, map, o, t_rec);
  SimOptions so;
  so.seed = o.sim_seed;
  Simulation sim(model, so);
  Recorder recorder(*model);
  const std::vector<SignalGroup> groups = resolveSignals(*model, trial, recorder, o);
  for (const auto& g : groups)
    if (g.joints) {
      r.joints_compared = static_cast<int>(g.channels.size());
      break;
    }
  if (log) *log = Log(recorder.columns());
  commands.balanceWith(*model);

  // Settling: the real robot stood at rest (on the wall) before playback started; the recorded
  // pose with zero velocities is not an equilibrium of the model (0.5 mm above the floor, the
  // wall where the model says), so hold the first command for the settle time first.
  commands.applyFirst(sim);
  Hold hold;
  RunConfig settle;
  settle.duration_s = trial.spec.settle_s ? *trial.spec.settle_s : o.settle_s;
  if (const RunSummary s = run(sim, hold, {}, settle, nullptr); s.diverged) {
    r.diverged = true;
    r.error = "diverged while settling: " + s.divergence;
    return r;
  }
  const double t0 = t_rec.front() - sim.time_s();  // recording time = t0 + sim time
  commands.setClockOffset(t0);
  FrameSampler frames(*trial.recording, t_rec, groups, recorder, r);
  frames.start(sim, t0);
  if (!frames.stopRequested()) {
    Observer* observers[] = {&frames};
    RunConfig play;
    play.duration_s = t_rec.back() - t_rec.front() + 2.0;  // past the 1 s guard: the frames end the run
    play.log_period_s = o.log_period_s;
    if (const RunSummary s = run(sim, commands, observers, play, log); s.diverged) {
      r.diverged = true;
      r.error = "diverged: " + s.divergence;
      return r;
    }
  }
  scoreTrial(trial, groups, t_rec, frames.squaredErrors(), r);
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
  for (const auto& t : set_.trials) {
    t.motion->checkJoints(names);
    checkReplayable(*base_, t, options_);  // a signal the model cannot simulate fails now
  }
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
    const double Ek = r.score;
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
