#!/usr/bin/env python3
"""Writes urdf/op3_like.urdf and meshes/*.stl: a ROBOTIS OP3 shaped the way its ROS description
package (op3_description) is shaped, for gapsim's test of loading a published humanoid as a user
would. Written here from published numbers (README.md names the source of each); no file of the
vendor's package is copied. Run from this directory: python3 make_op3_like.py (standard library).

Quirks it carries on purpose, as description packages have them:
  - every link's visual and collision is a package:// mesh (binary STL) of a package found by its
    package.xml (the directory is named op3_like, the package op3_like_description);
  - xmlns:xacro and one <xacro:property> left over from the xacro source;
  - <transmission> per joint, <gazebo> blocks (a plugin, foot friction, materials), <ros2_control>;
  - <dynamics damping="0.1" friction="0.0"/> on every joint, as the vendor's files;
  - massless frames (imu_link, the soles, the camera's optical frame) and a 1 mg camera link, on
    fixed joints that carry <axis xyz="0 0 0"/>;
  - no <gapsim> element: gapsim's defaults (ideal servos holding 0) apply."""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from box_stl import write_stl  # noqa: E402  (the shared box meshes, beside this package)

HEADER = b"op3_like test mesh (gapsim), binary STL, metres"
PI = math.pi

# XM430-W350 (ROBOTIS e-manual, OP3 introduction): stall torque 4.1 N m, no-load speed 46 rev/min.
EFFORT_NM = 4.1
VELOCITY_RAD_S = round(46 * 2 * PI / 60, 4)  # 4.8171 rad/s

# Links of the left side (and body, head). Per link: mass [kg] and COM [m] from ROBOTIS
# op3_kinematics_dynamics.cpp; inertia about the COM [kg m^2] (ixx iyy izz ixy ixz iyz) and the
# collision box (centre, size) [m] from the Webots RobotisOp3.proto; colour: dark = servo housings,
# grey = aluminium frames (the OP3 has no cover skin by default).
DARK, GREY, LIGHT = "op3/dark", "op3/grey", "op3/light"
LINKS = {
    "body_link": (1.3492787, (-0.015014868, 0.00013099, 0.065815797),
                  (0.00340499, 0.00296939, 0.00317331, 5.72e-06, -4.256e-05, -5.9e-07),
                  [((-0.01675, 0.052, 0.08), (0.172, 0.01, 0.063)), ((-0.01675, -0.052, 0.08), (0.172, 0.01, 0.063)),
                   ((-0.01675, 0.0, 0.06825), (0.11, 0.12, 0.135))], DARK),
    "hip_yaw": (0.011813898, (-0.001566062, 0.0, -0.00774017), (1.51e-06, 4.3e-06, 4.12e-06, 0.0, 1e-08, 0.0),
                [((-0.0015, 0.0, -0.0155), (0.045, 0.025, 0.031))], GREY),
    "hip_roll": (0.17885985, (0.00388263, 0.000278863, -0.012138713),
                 (4.661e-05, 0.00012523, 0.00010857, -1.01e-06, -1.31e-06, -6e-08),
                 [((0.003875, 0.0022, -0.012), (0.07975, 0.0424, 0.0465))], DARK),
    "hip_pitch": (0.11543381, (0.000590367, -0.019005093, -0.084075186),
                  (0.00010499, 9.613e-05, 2.493e-05, -1e-08, -7.1e-07, 3.53e-06),
                  [((0.000425, -0.0188, -0.05945), (0.03085, 0.0464, 0.1239))], GREY),
    "knee": (0.040146918, (0.0, -0.021514031, -0.055), (3.715e-05, 2.751e-05, 1.511e-05, 0.0, 0.0, 0.0),
             [((0.0, -0.02, -0.055), (0.03, 0.044, 0.115))], GREY),
    "ank_pitch": (0.17885985, (-0.02021825, -0.018721131, 0.012138988),
                  (4.661e-05, 0.00012523, 0.00010857, -1.01e-06, 1.31e-06, 6e-08),
                  [((-0.0206, -0.0168, 0.012), (0.079, 0.0424, 0.0465))], DARK),
    "ank_roll": (0.069344849, (0.023733194, 0.010370444, -0.027601507),
                 (4.034e-05, 7.874e-05, 0.00011579, -1.9e-07, 1.2e-07, 1.01e-06),
                 [((0.024, 0.0125, -0.0265), (0.127, 0.08, 0.008))], GREY),
    "sho_pitch": (0.011759436, (0.0, 0.008227847, -0.002327479), (1.65e-06, 3.87e-06, 3.97e-06, 0.0, 0.0, 3.1e-07),
                  [((0.0, 0.0155, -0.00375), (0.042, 0.031, 0.0325))], GREY),
    "sho_roll": (0.1775763, (-0.018438243, 0.045143767, 0.000281212),
                 (0.00022804, 3.042e-05, 0.00023474, -1e-08, 3e-08, 5.9e-07),
                 [((-0.0168, 0.0452, 0.0007), (0.0424, 0.1129, 0.0301))], DARK),
    "el": (0.041267974, (-0.018999997, 0.070330391, 0.003800117), (6.196e-05, 1.231e-05, 6.854e-05, 0.0, 0.0, -3.72e-06),
           [((-0.019, 0.072005, 0.0), (0.042, 0.14901, 0.03))], GREY),
    "head_pan": (0.011759436, (0.002327479, 0.0, 0.008227847), (3.97e-06, 1.65e-06, 3.87e-06, 0.0, -3.1e-07, 0.0),
                 [((0.00375, 0.0, 0.0155), (0.0325, 0.042, 0.031))], GREY),
    "head_tilt": (0.13630649, (0.002298411, -0.018634079, 0.027696734),
                  (0.00010612, 8.721e-05, 4.529e-05, 1.1e-07, -9.1e-06, 8.4e-07),
                  [((0.006, -0.019, 0.02775), (0.0445, 0.094, 0.078))], LIGHT),
}

# Joints of the left side: parent, child, origin xyz [m], axis, lower/upper [rad] (ROBOTIS
# op3_kinematics_dynamics.cpp; the right side mirrors y, see mirror()).
LEFT_JOINTS = [
    ("l_hip_yaw", "body_link", "hip_yaw", (0.0, 0.035, 0.0), (0, 0, -1), (-0.45, 0.45)),
    ("l_hip_roll", "hip_yaw", "hip_roll", (-0.024, 0.0, -0.0285), (-1, 0, 0), (-0.3, 0.3)),
    ("l_hip_pitch", "hip_roll", "hip_pitch", (0.0241, 0.019, 0.0), (0, 1, 0), (-0.4, 0.4)),
    ("l_knee", "hip_pitch", "knee", (0.0001, 0.0, -0.11015), (0, 1, 0), (-0.1, 0.7)),
    ("l_ank_pitch", "knee", "ank_pitch", (0.0, 0.0, -0.11), (0, -1, 0), (-0.45, 0.45)),
    ("l_ank_roll", "ank_pitch", "ank_roll", (-0.0241, -0.019, 0.0), (1, 0, 0), (-0.45, 0.45)),
    ("l_sho_pitch", "body_link", "sho_pitch", (-0.001, 0.06, 0.111), (0, 1, 0), (-0.5, 0.5)),
    ("l_sho_roll", "sho_pitch", "sho_roll", (0.019, 0.0285, -0.01), (-1, 0, 0), (-0.3, 0.5)),
    ("l_el", "sho_roll", "el", (0.0, 0.0904, -0.0001), (1, 0, 0), (-0.5, 0.5)),
]
HEAD_JOINTS = [
    ("head_pan", "body_link", "head_pan", (-0.001, 0.0, 0.1365), (0, 0, 1), (-0.5, 0.5)),
    ("head_tilt", "head_pan", "head_tilt", (0.01, 0.019, 0.0285), (0, -1, 0), (-0.5, 0.5)),
]


def link_name(side, part):
    return part if part == "body_link" else f"{side}{part}_link"


def mirror(j):
    """The right joint as ROBOTIS defines it: y of the origin negated; a pitch axis (along y)
    flips, so that a knee bend is positive on the left and negative on the right; the range of the
    knee and the shoulder roll, which are not symmetric, mirrors too."""
    name, parent, child, (x, y, z), (ax, ay, az), (lo, hi) = j
    axis = (ax, -ay, az) if ay else (ax, ay, az)
    if name in ("l_sho_roll", "l_knee"):
        lo, hi = -hi, -lo
    return ("r" + name[1:], parent, child, (x, -y, z), axis, (lo, hi))


def fmt(v):
    return " ".join("%.10g" % (x + 0.0) for x in v)


def side_data(part, side):
    """Mass, COM, inertia, boxes, colour of `part` on `side` ('l_', 'r_' or '' for body/head)."""
    m, com, (ixx, iyy, izz, ixy, ixz, iyz), boxes, col = LINKS[part]
    if side == "r_":
        com = (com[0], -com[1], com[2])
        ixy, iyz = -ixy, -iyz
        boxes = [((c[0], -c[1], c[2]), s) for c, s in boxes]
    return m, com, (ixx, iyy, izz, ixy, ixz, iyz), boxes, col


out = ['<?xml version="1.0" ?>',
       "<!-- =================================================================================== -->",
       "<!-- |    This document was autogenerated by xacro from op3_like.urdf.xacro              | -->",
       "<!-- |    EDITING THIS FILE BY HAND IS NOT RECOMMENDED                                 | -->",
       "<!-- =================================================================================== -->",
       "<!-- GENERATED by ../make_op3_like.py for gapsim's tests: a ROBOTIS OP3 written as its ROS",
       "     description package writes it, from published numbers (../README.md). Not a vendor file. -->",
       '<robot name="op3_like" xmlns:xacro="http://ros.org/wiki/xacro">',
       '  <xacro:property name="pi" value="3.141592654"/>',
       f'  <material name="{DARK}"><color rgba="0.12 0.12 0.13 1.0"/></material>',
       f'  <material name="{GREY}"><color rgba="0.62 0.64 0.67 1.0"/></material>',
       f'  <material name="{LIGHT}"><color rgba="0.85 0.86 0.88 1.0"/></material>']
total = 0.0
links = [("", "body_link")] + [(s, p) for s in ("l_", "r_") for p in LINKS if p not in ("body_link", "head_pan", "head_tilt")] \
    + [("", "head_pan"), ("", "head_tilt")]
for side, part in links:
    name = link_name(side, part)
    m, com, I, boxes, col = side_data(part, side)
    total += m
    stl = name.replace("_link", "") + ".stl" if part != "body_link" else "body.stl"
    write_stl(os.path.join(HERE, "meshes", stl), boxes, HEADER)
    uri = f"package://op3_like_description/meshes/{stl}"
    out += [f'  <link name="{name}">',
            f'    <visual>\n      <origin xyz="0 0 0" rpy="0 0 0"/>\n      <geometry><mesh filename="{uri}" scale="1 1 1"/></geometry>',
            f'      <material name="{col}"/>\n    </visual>',
            f'    <collision>\n      <origin xyz="0 0 0" rpy="0 0 0"/>\n      <geometry><mesh filename="{uri}" scale="1 1 1"/></geometry>\n    </collision>',
            "    <inertial>",
            f'      <origin xyz="{fmt(com)}" rpy="0 0 0"/>',
            f'      <mass value="{m:.10g}"/>',
            '      <inertia ixx="%.6g" ixy="%.6g" ixz="%.6g" iyy="%.6g" iyz="%.6g" izz="%.6g"/>'
            % (I[0], I[3], I[4], I[1], I[5], I[2]),
            "    </inertial>",
            "  </link>"]

joints = []
for j in LEFT_JOINTS:
    joints.append(("l_", j))
    joints.append(("r_", mirror(j)))
joints += [("", j) for j in HEAD_JOINTS]
for side, (name, parent, child, xyz, axis, (lo, hi)) in joints:
    p = link_name(side, parent) if parent != "body_link" else "body_link"
    c = link_name(side, child)
    out += [f'  <joint name="{name}" type="revolute">',
            f'    <parent link="{p}"/>',
            f'    <child link="{c}"/>',
            f'    <origin xyz="{fmt(xyz)}" rpy="0 0 0"/>',
            f'    <axis xyz="{fmt(axis)}"/>',
            f'    <limit effort="{EFFORT_NM}" velocity="{VELOCITY_RAD_S}" lower="{lo * PI:.6f}" upper="{hi * PI:.6f}"/>',
            '    <dynamics damping="0.1" friction="0.0"/>',
            "  </joint>",
            f'  <transmission name="{name}_tran">',
            "    <type>transmission_interface/SimpleTransmission</type>",
            f'    <joint name="{name}"><hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface></joint>',
            f'    <actuator name="{name}_motor"><hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>'
            "<mechanicalReduction>1</mechanicalReduction></actuator>",
            "  </transmission>"]

# Sensor and tool frames: massless, or 1 mg (the camera), fixed with a zero axis. The soles are
# 0.0305 m below the ankle-roll axis and 0.024 m in front of it (op3_kinematics_dynamics.cpp, l_leg_end).
frames = [("imu_joint", "body_link", "imu_link", (-0.01, 0.0, 0.0643), None),
          ("cam_joint", "head_tilt_link", "cam_link", (0.0153, -0.019, 0.0498), 1e-6),
          ("cam_optical_joint", "cam_link", "cam_optical_link", (0.0, 0.0, 0.0), None),
          ("l_leg_end_joint", "l_ank_roll_link", "l_leg_end_link", (0.024, 0.0, -0.0305), None),
          ("r_leg_end_joint", "r_ank_roll_link", "r_leg_end_link", (0.024, 0.0, -0.0305), None)]
for jname, parent, child, xyz, mass in frames:
    if mass:
        total += mass
        out += [f'  <link name="{child}">', "    <inertial>", '      <origin xyz="0 0 0" rpy="0 0 0"/>',
                f'      <mass value="{mass:g}"/>',
                '      <inertia ixx="1e-12" ixy="0" ixz="0" iyy="1e-12" iyz="0" izz="1e-12"/>',
                "    </inertial>", "  </link>"]
    else:
        out.append(f'  <link name="{child}"/>')
    rpy = "-1.5708 0 -1.5708" if child == "cam_optical_link" else "0 0 0"
    out += [f'  <joint name="{jname}" type="fixed">', f'    <parent link="{parent}"/>', f'    <child link="{child}"/>',
            f'    <origin xyz="{fmt(xyz)}" rpy="{rpy}"/>', '    <axis xyz="0 0 0"/>', "  </joint>"]

names = [n for _, (n, *_r) in joints]
out += ['  <gazebo>',
        '    <plugin name="gazebo_ros_control" filename="libgazebo_ros_control.so">',
        "      <robotNamespace>/robotis_op3</robotNamespace>",
        "    </plugin>",
        "  </gazebo>"]
for foot in ("l_ank_roll_link", "r_ank_roll_link"):
    out += [f'  <gazebo reference="{foot}">', "    <mu1>9000</mu1>", "    <mu2>9000</mu2>", "    <kp>1000000.0</kp>",
            "    <kd>100.0</kd>", "    <material>Gazebo/Grey</material>", "  </gazebo>"]
out += ['  <ros2_control name="op3_like_system" type="system">',
        "    <hardware><plugin>gazebo_ros2_control/GazeboSystem</plugin></hardware>"]
for n in names:
    out.append(f'    <joint name="{n}"><command_interface name="position"/><state_interface name="position"/></joint>')
out += ["  </ros2_control>", "</robot>", ""]
with open(os.path.join(HERE, "urdf", "op3_like.urdf"), "w") as f:
    f.write("\n".join(out))
print(f"{len(names)} revolute joints, total mass {total:.9f} kg")
