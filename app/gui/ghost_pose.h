// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The ghost of the real robot: a log that has joint angles (`<joint>/q_rad` columns, e.g. an
/// overlaid recording) posed as a second robot at the cursor time. Each joint the log has takes
/// the log's angle (piecewise-linear between its samples, with the overlay's offset); the others
/// and the root take the simulated robot's, so the ghost differs from the simulated robot only where
/// the log does; it stands beside it, moved by side_m along the simulated robot's left (its y axis
/// on the ground), where neither hides the other. Each link is coloured by the error of the joint
/// that moves it, |q_log - q_sim|: green at 0, red from 0.2 rad; links no log joint moves are grey.

#include <QVector4D>
#include <vector>

#include "app/gui/frame.h"
#include "app/gui/signal_store.h"
#include "sim/robot_model.h"

namespace gapsim::gui {

struct GhostPose {
  std::vector<PoseF> links;       ///< world pose per model link; empty: no ghost
  std::vector<double> q_rad;      ///< per model joint, the angle it was posed with
  std::vector<bool> from_log;     ///< per model joint, whether that angle came from the log
  std::vector<double> error_rad;  ///< per model link, |q_log - q_sim| of the joint moving it (NaN: none)
};

/// The newest overlay with at least one `<joint>/q_rad` column of a movable joint of m; -1 if none.
int ghostSource(const RobotModel& m, const SignalStore& store);

/// The ghost at shown time t_s from overlay `source`, next to the simulated frame (its root pose
/// and the simulated joint angles at t_s for the joints the log lacks). Empty if the frame has no
/// links or the source is unknown.
GhostPose ghostPose(const RobotModel& m, const SignalStore& store, int source, double t_s, const Frame& sim_frame,
                    double side_m = 0.0);

/// The side distance the window uses: the simulated root's height above the ground (about the
/// robot's width for a standing humanoid: 0.33 m on the Nao), at least 0.15 m.
double ghostSide_m(const RobotModel& m, const Frame& sim_frame);

/// The colour of a ghost link with that error (translucent).
QVector4D ghostColor(double error_rad);

}  // namespace gapsim::gui
