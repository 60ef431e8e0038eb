// SPDX-License-Identifier: BSD-3-Clause
#include "sim/motion_speed_check.h"

#include <algorithm>
#include <cmath>

#include "sim/drive_registry.h"

namespace gapsim {

std::vector<JointTooFast> jointsFasterThanTheirDrives(const RobotModel& model, const GeneratedMotion& motion) {
  std::vector<JointTooFast> out;
  const std::vector<double>& t = motion.frame_times_s;
  for (std::size_t c = 0; c < motion.joints.size(); ++c) {
    const int ji = model.jointIndex(motion.joints[c]);
    if (ji < 0) continue;
    const std::optional<double> no_load_rad_s =
        noLoadJointSpeed_rad_s(model.joints[static_cast<std::size_t>(ji)].drive);
    if (!no_load_rad_s) continue;
    JointTooFast fastest{motion.joints[c], 0.0, 0.0, *no_load_rad_s};
    for (std::size_t k = 1; k < t.size(); ++k) {
      const double rate = std::abs(motion.frames_rad[k][c] - motion.frames_rad[k - 1][c]) / (t[k] - t[k - 1]);
      if (rate > fastest.peak_rad_s) {
        fastest.peak_rad_s = rate;
        fastest.at_s = t[k];
      }
    }
    if (fastest.peak_rad_s > *no_load_rad_s) out.push_back(fastest);
  }
  std::sort(out.begin(), out.end(), [](const JointTooFast& a, const JointTooFast& b) {
    return a.peak_rad_s / a.no_load_rad_s > b.peak_rad_s / b.no_load_rad_s;
  });
  return out;
}

}  // namespace gapsim
