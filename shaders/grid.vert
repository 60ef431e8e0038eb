#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// The ground: one large quad in the plane z = 0 around u_center; the grid is drawn per fragment.
layout(location = 0) in vec2 a_corner;  // (-1,-1) .. (1,1)

uniform mat4 u_viewProj;
uniform vec2 u_center;
uniform float u_extent;

out vec2 v_xy;

void main() {
  v_xy = u_center + a_corner * u_extent;
  gl_Position = u_viewProj * vec4(v_xy, 0.0, 1.0);
}
