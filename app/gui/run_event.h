// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// What happened to a run that the user must not miss: the robot fell (Simulation::fallTime_s(),
/// the IMU tilt above the model's fall threshold; the run goes on recording) or the physics
/// diverged (DivergenceError; the run stops). The SimWorker notes them, the SimSession keeps them
/// until the next reset or load, and the window shows them as a banner above the 3D view and as a
/// marker on every plot's time axis and on the playback scrubber. Plain data, copied across threads.

#include <QColor>
#include <string>

namespace gapsim::gui {

struct RunEvent {
  enum class Kind { kFall, kDivergence };
  Kind kind = Kind::kFall;
  double t_s = 0;    ///< simulated time of the event (the step that detected it)
  std::string what;  ///< the rest of the banner: "torso tilt 60.03 deg > 60 deg fall threshold", or
                     ///< "body 'LTibia' moves at 73 m/s (bound 50 m/s)"
};

/// The banner line: "fell at 4.64 s: torso tilt 60.03 deg > 60 deg fall threshold" or
/// "diverged at 2.31 s: body 'LTibia' moves at 73 m/s (bound 50 m/s)".
std::string bannerText(const RunEvent& e);

/// The colour of the banner, plot markers and scrubber tick: orange for a fall, red for a divergence.
QColor eventColor(RunEvent::Kind kind);

}  // namespace gapsim::gui
