// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// What the simulation thread publishes to the GUI once per logged sample: the body poses for the
/// 3D view and the log row for the plots and panels. Plain data, copied across threads.

#include <array>
#include <vector>

namespace gapsim::gui {

/// A link's world pose in single precision (enough to draw: 0.1 um at 1 m).
struct PoseF {
  std::array<float, 3> p{0, 0, 0};     ///< position (m)
  std::array<float, 4> q{1, 0, 0, 0};  ///< rotation quaternion w, x, y, z
};

struct FootState {
  bool contact = false;
  float force_N = 0;
};

struct Frame {
  double t_s = 0;
  std::vector<PoseF> links;      ///< one per model link
  std::array<float, 3> com_m{};  ///< whole-robot centre of mass (world)
  std::vector<FootState> feet;   ///< one per model foot contact
  std::vector<double> row;       ///< the Recorder's row (Recorder::columns())
};

}  // namespace gapsim::gui
