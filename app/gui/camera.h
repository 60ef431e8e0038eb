// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Orbit camera around a target point, z up (the simulator's world frame): yaw about z measured
/// from +x, pitch above the horizon, distance to the target. Left drag orbits, right or middle
/// drag pans, the wheel zooms (as in MuJoCo's viewer and Webots).

#include <QMatrix4x4>
#include <QVector3D>

namespace gapsim::gui {

class OrbitCamera {
 public:
  float yaw_deg = 35.0f;    ///< 0: looking from +x towards -x (facing the robot's front)
  float pitch_deg = 18.0f;  ///< above the horizon, clamped to [-89, 89]
  float distance_m = 1.5f;
  QVector3D target{0, 0, 0.25f};
  float fov_deg = 40.0f;

  QVector3D eye() const;
  QMatrix4x4 view() const;
  QMatrix4x4 projection(float aspect) const;

  /// Mouse drag in pixels.
  void orbit(float dx_px, float dy_px);
  void pan(float dx_px, float dy_px, int viewport_height_px);
  /// Wheel steps (120 units = 1); positive zooms in.
  void zoom(float steps);
  /// Looks at a robot whose body spans `height_m` above `base` from a default angle.
  void frame(const QVector3D& base, float height_m);
};

}  // namespace gapsim::gui
