// SPDX-License-Identifier: BSD-3-Clause
#include "sim/reality.h"

#include <cmath>
#include <random>
#include <sstream>

#include "sim/input_error.h"
#include "sim/text.h"

namespace gapsim {
namespace {

std::string num(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

/// |v| finite and within [lo, hi], else InputError naming the option and the range.
void inRange(double v, double lo, double hi, const std::string& option, const std::string& unit) {
  if (!(v >= lo && v <= hi))
    throw InputError("", 0, option,
                     "'" + num(v) + "' is outside the accepted range [" + num(lo) + ", " + num(hi) + "] " + unit);
}

double parseNumber(const std::string& t, const std::string& option, const std::string& item) {
  double v = 0;
  if (!readFinite(t, v)) throw InputError("", 0, option, "'" + item + "': '" + t + "' is not a finite number");
  return v;
}

std::vector<std::pair<std::string, std::string>> items(const std::string& text, const std::string& option) {
  std::vector<std::pair<std::string, std::string>> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ';');) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw InputError("", 0, option, "'" + item + "': expected link=value");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

bool endsWith(const std::string& s, const char* suffix) {
  const std::string x(suffix);
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

}  // namespace

namespace {

using R = RealityEffects;

// Upper bounds: far beyond any robot (a second of dead time, a radian of play), so that an absurd
// number is refused before it reaches ODE. Lower bounds > 0 where the law divides by the value.
const RealityScalar kScalars[] = {
    {"command_delay_s", "--command-delay", "s", 0, 1, &R::command_delay_s,
     "every hinge drive sees the target of this long ago (whole steps)", true},
    {"sensor_delay_s", "--sensor-delay", "s", 0, 1, &R::sensor_delay_s,
     "logged joint angles and IMU columns lag by this (whole log samples)", false},
    {"backlash_rad", "--backlash", "rad", 0, 1, &R::backlash_rad, "play of this total width between drive and joint",
     true},
    {"backlash_drive_inertia_kgm2", "--backlash-inertia", "kg m^2", 1e-9, 1e3, &R::backlash_drive_inertia_kgm2,
     "inertia of the drive side in the play", true},
    {"stribeck_static_ratio", "--stribeck-ratio", "-", 1, 100, &R::stribeck_static_ratio,
     "static / Coulomb dry friction of the Stribeck law (1: off)", true},
    {"stribeck_velocity_rad_s", "--stribeck-velocity", "rad/s", 1e-6, 1e3, &R::stribeck_velocity_rad_s,
     "Stribeck velocity v_s", true},
    {"stribeck_alpha", "--stribeck-alpha", "-", 0.1, 10, &R::stribeck_alpha, "Stribeck exponent", true},
    {"mass_jitter", "--mass-jitter", "-", 0, 0.9, &R::mass_jitter, "relative half-width of the link mass jitter",
     false},
    {"imu_bias_rad", "--imu-bias", "rad", -1, 1, &R::imu_bias_rad, "added to the IMU's pitch and roll", true},
    {"gyro_bias_rad_s", "--gyro-bias", "rad/s", -10, 10, &R::gyro_bias_rad_s, "added to each gyro axis", true},
    {"encoder_resolution_rad", "--encoder-resolution", "rad", 0, 1, &R::encoder_resolution_rad,
     "every joint's encoder resolution (0: the robot file's)", false},
};

}  // namespace

std::span<const RealityScalar> realityScalars() { return kScalars; }

void RealityEffects::validate() const {
  for (const RealityScalar& r : kScalars) inRange(this->*r.field, r.lo, r.hi, r.option, r.unit);
  for (const auto& [link, dm] : mass_offset_kg) inRange(dm, -1e3, 1e3, "--mass-offset " + link, "kg");
  for (const auto& [link, dc] : com_offset_m)
    for (int k = 0; k < 3; ++k) inRange(dc[k], -1, 1, "--com-offset " + link, "m");
}

RealityEffects combinedEffects(const RealityEffects& model, const RealityEffects& options) {
  RealityEffects r = options;
  r.command_delay_s = options.command_delay_s + model.command_delay_s;
  r.backlash_rad = options.backlash_rad + model.backlash_rad;
  if (!(options.backlash_rad > 0)) r.backlash_drive_inertia_kgm2 = model.backlash_drive_inertia_kgm2;
  if (!(options.stribeck_static_ratio > 1)) {
    r.stribeck_static_ratio = model.stribeck_static_ratio;
    r.stribeck_velocity_rad_s = model.stribeck_velocity_rad_s;
    r.stribeck_alpha = model.stribeck_alpha;
  }
  r.imu_bias_rad = options.imu_bias_rad + model.imu_bias_rad;
  r.gyro_bias_rad_s = options.gyro_bias_rad_s + model.gyro_bias_rad_s;
  return r;
}

bool RealityEffects::changesModel() const {
  return !mass_offset_kg.empty() || !com_offset_m.empty() || mass_jitter > 0 || encoder_resolution_rad > 0;
}

bool RealityEffects::changesDrives() const {
  return command_delay_s > 0 || backlash_rad > 0 || stribeck_static_ratio > 1;
}

bool RealityEffects::any() const {
  return changesModel() || changesDrives() || sensor_delay_s > 0 || imu_bias_rad != 0 || gyro_bias_rad_s != 0;
}

std::string RealityEffects::describe() const {
  std::string s;
  auto line = [&](const std::string& t) { s += "  " + t + "\n"; };
  if (command_delay_s > 0) line("command delay " + num(command_delay_s) + " s");
  if (sensor_delay_s > 0) line("sensor delay " + num(sensor_delay_s) + " s (logged joint angles and IMU)");
  if (backlash_rad > 0) line("backlash " + num(backlash_rad) + " rad at every driven hinge");
  if (stribeck_static_ratio > 1)
    line("Stribeck friction: static " + num(stribeck_static_ratio) + " x Coulomb, v_s " + num(stribeck_velocity_rad_s) +
         " rad/s, alpha " + num(stribeck_alpha));
  for (const auto& [link, dm] : mass_offset_kg) line("mass offset " + link + " " + num(dm) + " kg");
  for (const auto& [link, dc] : com_offset_m)
    line("COM offset " + link + " (" + num(dc.x()) + ", " + num(dc.y()) + ", " + num(dc.z()) + ") m");
  if (mass_jitter > 0) line("mass jitter +-" + num(100 * mass_jitter) + " % (seed " + std::to_string(mass_seed) + ")");
  if (imu_bias_rad != 0) line("IMU angle bias " + num(imu_bias_rad) + " rad");
  if (gyro_bias_rad_s != 0) line("gyro bias " + num(gyro_bias_rad_s) + " rad/s");
  if (encoder_resolution_rad > 0) line("encoder resolution " + num(encoder_resolution_rad) + " rad");
  return s;
}

RobotModel applyRealityToModel(const RobotModel& m, const RealityEffects& r) {
  r.validate();
  RobotModel out = m;
  auto link = [&](const std::string& name, const std::string& option) -> Link& {
    const int i = out.linkIndex(name);
    if (i < 0) throw InputError("", 0, option, "the robot has no link '" + name + "'");
    return out.links[static_cast<std::size_t>(i)];
  };
  auto scaleMass = [](Link& l, double mass_kg, const std::string& option) {
    if (!(mass_kg > 0))
      throw InputError("", 0, option, l.name + ": the mass would be " + num(mass_kg) + " kg (must stay > 0)");
    // Same radii of gyration: the tensor about the COM scales with the mass.
    if (l.inertial.mass_kg > 0) l.inertial.inertia_kgm2 *= mass_kg / l.inertial.mass_kg;
    l.inertial.mass_kg = mass_kg;
    l.has_inertial = true;
  };
  for (const auto& [name, dm] : r.mass_offset_kg) {
    Link& l = link(name, "--mass-offset");
    scaleMass(l, l.inertial.mass_kg + dm, "--mass-offset");
  }
  for (const auto& [name, dc] : r.com_offset_m) link(name, "--com-offset").inertial.origin.translation() += dc;
  if (r.mass_jitter > 0) {
    // mt19937_64 is specified bit for bit by the standard; the uniform is its top 53 bits.
    std::mt19937_64 gen(r.mass_seed);
    for (Link& l : out.links) {
      const double u = 2.0 * static_cast<double>(gen() >> 11) * 0x1.0p-53 - 1.0;
      if (l.inertial.mass_kg > 0) scaleMass(l, l.inertial.mass_kg * (1.0 + r.mass_jitter * u), "--mass-jitter");
    }
  }
  if (r.encoder_resolution_rad > 0)
    for (Joint& j : out.joints) j.encoder_resolution_rad = r.encoder_resolution_rad;
  return out;
}

Log applyRealityToLog(const Log& log, const RealityEffects& r, double log_period_s) {
  if (!(r.sensor_delay_s > 0)) return log;
  if (!(log_period_s > 0)) throw InputError("", 0, "log_period_s", "must be > 0");
  std::vector<std::size_t> delayed;
  for (std::size_t c = 0; c < log.columns().size(); ++c) {
    const std::string& n = log.columns()[c];
    if (endsWith(n, "/q_rad") || endsWith(n, "/pitch_rad") || endsWith(n, "/roll_rad") || endsWith(n, "/tilt_rad") ||
        endsWith(n, "/gyro_x_rad_s") || endsWith(n, "/gyro_y_rad_s") || endsWith(n, "/gyro_z_rad_s"))
      delayed.push_back(c);
  }
  const auto n = static_cast<std::size_t>(std::lround(r.sensor_delay_s / log_period_s));
  Log out(log.columns());
  out.reserveRows(log.rows());
  std::vector<double> row;
  for (std::size_t k = 0; k < log.rows(); ++k) {
    const auto src = log.row(k);
    row.assign(src.begin(), src.end());
    const std::size_t from = k >= n ? k - n : 0;
    for (std::size_t c : delayed) row[c] = log.at(from, c);
    out.appendRow(row);
  }
  return out;
}

std::map<std::string, double> parseLinkValues(const std::string& text, const std::string& option) {
  std::map<std::string, double> out;
  for (const auto& [link, v] : items(text, option)) out[link] = parseNumber(v, option, link + "=" + v);
  return out;
}

std::map<std::string, Eigen::Vector3d> parseLinkVectors(const std::string& text, const std::string& option) {
  std::map<std::string, Eigen::Vector3d> out;
  for (const auto& [link, v] : items(text, option)) {
    std::vector<double> xyz;
    std::stringstream ss(v);
    for (std::string c; std::getline(ss, c, ':');) xyz.push_back(parseNumber(c, option, link + "=" + v));
    if (xyz.size() != 3) throw InputError("", 0, option, "'" + link + "=" + v + "': expected link=x:y:z (m)");
    out[link] = Eigen::Vector3d(xyz[0], xyz[1], xyz[2]);
  }
  return out;
}

}  // namespace gapsim
