#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Anti-aliased grid lines (fwidth): 0.1 m minor, 1 m major, x axis red, y axis green; fades out
// with distance so the horizon does not alias.
in vec2 v_xy;

uniform vec3 u_eye;
uniform float u_extent;

out vec4 fragColor;

float gridLine(vec2 coord) {
  vec2 g = abs(fract(coord - 0.5) - 0.5) / fwidth(coord);
  return 1.0 - min(min(g.x, g.y), 1.0);
}

void main() {
  vec3 base = vec3(0.80, 0.81, 0.80);
  float minor = gridLine(v_xy / 0.1);
  float major = gridLine(v_xy);
  vec3 c = mix(base, vec3(0.62, 0.63, 0.64), minor * 0.6);
  c = mix(c, vec3(0.45, 0.46, 0.48), major * 0.8);
  vec2 axisW = fwidth(v_xy) * 1.5;
  if (abs(v_xy.y) < axisW.y && v_xy.x > 0.0) c = vec3(0.80, 0.25, 0.22);  // +x
  if (abs(v_xy.x) < axisW.x && v_xy.y > 0.0) c = vec3(0.25, 0.65, 0.28);  // +y
  float d = length(vec3(v_xy, 0.0) - u_eye);
  float fade = 1.0 - smoothstep(0.45 * u_extent, u_extent, d);
  fragColor = vec4(c, fade);
}
