#!/usr/bin/env python3
"""Writes urdf/t1_like.urdf and meshes/*.STL: a Booster T1 (23 degrees of freedom) shaped the way
a modern CAD-exported, MuJoCo-era description package is shaped, for gapsim's test of loading a
published humanoid as a user would. Written here from published numbers (README.md names the
source of each); no file of the vendor's package is copied. Run from this directory:
python3 make_t1_like.py (standard library).

Habits it carries on purpose, beyond those of ../op3_like:
  - the SolidWorks exporter's layout: one attribute per line, numbers such as 1.2E-06, an unnamed
    <material name=""> with its colour inline in every visual, two visuals on one link;
  - a <mujoco><compiler .../></mujoco> block for MuJoCo's URDF importer;
  - a floating base declared from a `world` link to a massless `base_link` dummy, which a fixed
    joint ties to the trunk (the root-link-without-inertia habit of KDL-based tools);
  - package:// visual meshes with the upper-case .STL extension, collisions as primitives (box,
    cylinder turned by rpy, sphere) and links with no collision at all;
  - inertias with off-diagonal terms, as the CAD export gives them;
  - a joint origin with a CAD tolerance left in (rpy="0 0.00088113 0" at the shoulders);
  - light sensor links (a 3 g IMU board, 1 g foot force-sensor frames) and a massless camera frame
    on fixed joints;
  - a 73 g ankle cross between the 1.82 kg shank and the 0.685 kg foot on two actuated joints;
  - no <gapsim> element: gapsim's defaults (ideal servos holding 0) apply."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from box_stl import write_stl  # noqa: E402  (the shared box meshes, beside this package)

HEADER = b"t1_like test mesh (gapsim), binary STL, metres"

# Links of the body, head and left side. Per link: mass [kg], COM [m], inertia about the COM
# [kg m^2] (ixx iyy izz ixy ixz iyz), all from BoosterRobotics/booster_assets
# robots/T1/T1_23dof.urdf @45588c7; the visual boxes (centre, size) [m] are this file's own
# drawing of each part, sized from the vendor's collision primitives and joint offsets.
LINKS = {
    "trunk": (11.7, (0.0551365401093076, -1.42058017623659e-06, 0.105062332707657),
              (0.0915287235057927, 0.076778716903413, 0.0556171053368987, -4.25369739206781e-07,
               0.000646360369011163, 5.82340020271393e-07),
              [((0.06, 0.0, 0.12), (0.17, 0.18, 0.29))]),
    "aahead_yaw_link": (0.443910, (-0.000508, -0.001403, 0.057432),
                        (0.000224, 0.000241, 0.000150, 0.000003, 0.000001, -0.000002),
                        [((0.0, 0.0, 0.04), (0.05, 0.05, 0.07))]),
    "aahead_pitch_link": (0.631019, (0.007802, 0.001262, 0.098631),
                          (0.002025, 0.001920, 0.001739, -0.000025, 0.000046, 0.000036),
                          [((0.01, 0.0, 0.11), (0.14, 0.15, 0.14))]),
    "shoulder_pitch_link": (0.53, (-0.000677, 0.044974, 0.0),
                            (0.001293, 0.000293, 0.001367, -0.000017, 0.0, 0.0),
                            [((0.0, 0.047, 0.0), (0.07, 0.06, 0.06))]),
    "shoulder_roll_link": (0.160, (0.003862, 0.037976, 0.0),
                           (0.000345, 0.000177, 0.000401, 0.000008, 0.0, 0.0),
                           [((0.0, 0.035, 0.0), (0.05, 0.05, 0.05))]),
    "elbow_pitch_link": (1.02, (0.0, 0.085353, -0.000099),
                         (0.012869, 0.000621, 0.012798, 0.0, 0.0, -0.000024),
                         [((0.0, 0.075, 0.0), (0.06, 0.17, 0.06))]),
    "elbow_yaw_link": (0.329214, (-0.000107, 0.11022, 0.000587),
                       (0.008159, 0.000215, 0.008131, -0.000003, 0.0, 0.000017),
                       [((0.0, 0.12, 0.0), (0.058, 0.13, 0.058))]),
    "waist_yaw_link": (2.581, (0.002284, 0.000003, 0.007301),
                       (0.005289, 0.005299, 0.004821, 0.0, 0.000207, 0.000001),
                       [((0.0, 0.0, 0.0), (0.12, 0.26, 0.1))]),
    "hip_pitch_link": (1.021, (0.000534, -0.007296, -0.018083),
                       (0.001805, 0.001421, 0.001292, 0.000006, -0.000015, 0.000080),
                       [((-0.002, 0.0, -0.02), (0.085, 0.09, 0.09))]),
    "hip_roll_link": (0.385, (0.001101, 0.000024, -0.053750),
                      (0.001517, 0.001743, 0.000515, 0.0, 0.000017, 0.0),
                      [((0.0, 0.0, -0.06), (0.08, 0.08, 0.08))]),
    "hip_yaw_link": (2.166, (-0.007233, 0.000206, -0.089184),
                     (0.025108, 0.025733, 0.002787, -0.000007, 0.002094, -0.000050),
                     [((-0.01, 0.0, -0.09), (0.1, 0.09, 0.15))]),
    "knee_pitch_link": (1.82, (-0.006012, 0.000259, -0.124318),
                        (0.034618, 0.034539, 0.001934, 0.000011, 0.001561, 0.000197),
                        [((0.0, 0.0, -0.14), (0.08, 0.07, 0.26))]),
    "ankle_pitch_link": (0.073, (-0.003722, 0.0, -0.007981),
                         (0.000012, 0.000029, 0.000025, 0.0, 0.000003, 0.0),
                         [((0.0, 0.0, -0.006), (0.03, 0.05, 0.02))]),
    "ankle_roll_link": (0.685, (-0.000249, 0.0, -0.009140),
                        (0.001738, 0.002385, 0.002671, 0.0, -0.000147, 0.0),
                        [((0.0101079, 0.0, -0.0214208), (0.224868, 0.1, 0.04366))]),
}

# Collision primitives (the vendor's): (kind, origin xyz, rpy, size). None: no collision.
COLLISIONS = {
    "trunk": ("box", (0.06, 0.0, 0.12), (0, 0, 0), (0.17, 0.18, 0.29)),
    "aahead_yaw_link": ("cylinder", (0.0, 0.0, 0.06), (1.5708, 0, 0), (0.025, 0.07)),
    "aahead_pitch_link": ("sphere", (0.01, 0.0, 0.11), (0, 0, 0), (0.08,)),
    "shoulder_pitch_link": ("cylinder", (0.0, 0.047, 0.0), (0, 1.5708, 0), (0.03, 0.07)),
    "shoulder_roll_link": None,
    "elbow_pitch_link": ("cylinder", (0.0, 0.07, 0.0), (1.5708, 0, 0), (0.03, 0.19)),
    "elbow_yaw_link": ("cylinder", (0.0, 0.12, 0.0), (1.5708, 0, 0), (0.029, 0.13)),
    "waist_yaw_link": ("cylinder", (0.0, 0.0, 0.0), (1.5708, 0, 0), (0.06, 0.1)),
    "hip_pitch_link": ("cylinder", (-0.002, 0.0, -0.02), (0, 1.5708, 0), (0.045, 0.085)),
    "hip_roll_link": ("cylinder", (0.0, 0.0, -0.11), (0, 0, 0), (0.045, 0.08)),
    "hip_yaw_link": ("cylinder", (-0.015, 0.0, -0.135), (1.5708, 0, 0), (0.055, 0.09)),
    "knee_pitch_link": ("box", (0.0, 0.0, -0.15), (0, 0, 0), (0.1, 0.08, 0.14)),
    "ankle_pitch_link": None,
    "ankle_roll_link": ("box", (0.0101079, 0.0, -0.0214208), (0, 0, 0), (0.224868, 0.1, 0.04366)),
}

# Joints: name, parent, child, origin xyz [m], rpy, axis, lower/upper [rad], effort [N m],
# velocity [rad/s] (booster_assets T1_23dof.urdf @45588c7). Arms and legs: the left side; the
# right side mirrors y (mirror()).
HEAD_WAIST = [
    ("aahead_yaw_joint", "trunk", "aahead_yaw_link", (0.0625, 0.0, 0.243), (0, 0, 0), (0, 0, 1), (-1.309, 1.309), 7.0, 41.89),
    ("aahead_pitch_joint", "aahead_yaw_link", "aahead_pitch_link", (0.0, 0.0, 0.06185), (0, 0, 0), (0, 1, 0), (-0.35, 0.96), 7.0, 41.89),
    ("waist_yaw_joint", "trunk", "waist_yaw_link", (0.0625, 0.0, -0.1155), (0, 0, 0), (0, 0, 1), (-1.012, 1.012), 68.0, 14.66),
]
LEFT = [
    ("shoulder_pitch", "trunk", "shoulder_pitch_link", (0.0575, 0.1063, 0.219), (0, 0.00088113, 0), (0, 1, 0), (-3.276, 1.196), 38.3, 17.59),
    ("shoulder_roll", "shoulder_pitch_link", "shoulder_roll_link", (0.0, 0.047, 0.0), (0, 0, 0), (1, 0, 0), (-1.623, 1.736), 38.3, 17.59),
    ("elbow_pitch", "shoulder_roll_link", "elbow_pitch_link", (0.00025, 0.0605, 0.0), (0, 0, 0), (0, 1, 0), (-2.235, 2.235), 38.3, 17.59),
    ("elbow_yaw", "elbow_pitch_link", "elbow_yaw_link", (0.0, 0.1471, 0.0), (0, 0, 0), (0, 0, 1), (-2.077, 1.658), 38.3, 17.59),
    ("hip_pitch", "waist_yaw_link", "hip_pitch_link", (0.0, 0.106, 0.0), (0, 0, 0), (0, 1, 0), (-2.967, 2.191), 98.8, 15.29),
    ("hip_roll", "hip_pitch_link", "hip_roll_link", (0.0, 0.0, -0.02), (0, 0, 0), (1, 0, 0), (-0.363, 1.536), 68.0, 14.66),
    ("hip_yaw", "hip_roll_link", "hip_yaw_link", (0.0, 0.0, -0.081854), (0, 0, 0), (0, 0, 1), (-1.076, 1.062), 68.0, 14.66),
    ("knee_pitch", "hip_yaw_link", "knee_pitch_link", (-0.014, 0.0, -0.134), (0, 0, 0), (0, 1, 0), (0.0, 2.145), 130.5, 14.76),
    ("ankle_pitch", "knee_pitch_link", "ankle_pitch_link", (0.0, 0.0, -0.28), (0, 0, 0), (0, 1, 0), (-0.87, 0.35), 73.1, 12.57),
    ("ankle_roll", "ankle_pitch_link", "ankle_roll_link", (0.0, 0.00025, -0.012), (0, 0, 0), (1, 0, 0), (-0.44, 0.44), 17.2, 12.57),
]
SIDED = ("shoulder_pitch_link", "shoulder_roll_link", "elbow_pitch_link", "elbow_yaw_link", "hip_pitch_link",
         "hip_roll_link", "hip_yaw_link", "knee_pitch_link", "ankle_pitch_link", "ankle_roll_link")
# Visual mesh file per link, as the vendor names its parts (upper-case extension).
MESH = {"trunk": "Trunk", "aahead_yaw_link": "H1", "aahead_pitch_link": "H2", "waist_yaw_link": "Waist",
        "shoulder_pitch_link": "A{s}1", "shoulder_roll_link": "A{s}2", "elbow_pitch_link": "A{s}3",
        "elbow_yaw_link": "{side}_hand_link", "hip_pitch_link": "Hip_Pitch_{Side}", "hip_roll_link": "Hip_Roll_{Side}",
        "hip_yaw_link": "Hip_Yaw_{Side}", "knee_pitch_link": "Shank_{Side}", "ankle_pitch_link": "Ankle_Cross_{Side}",
        "ankle_roll_link": "{side}_foot_link"}
GREY, DARK = "0.76 0.76 0.76 1", "0.4 0.4 0.4 1"


def mirror_joint(j):
    """The right joint: y of the origin negated; a roll or yaw range mirrors (the vendor's right
    hip roll is [-1.536, 0.363], elbow yaw [-1.658, 2.077], shoulder roll [-1.736, 1.623]); pitch
    axes and ranges stay (the vendor keeps the same pitch axis on both sides), and so does the hip
    yaw range (the vendor's right hip yaw is [-1.076, 1.062] as the left)."""
    name, parent, child, (x, y, z), rpy, axis, (lo, hi), eff, vel = j
    if axis[1] == 0 and name != "hip_yaw":
        lo, hi = -hi, -lo
    return (name, parent, child, (x, -y, z), rpy, axis, (lo, hi), eff, vel)


def side_link(part, side):
    m, com, (ixx, iyy, izz, ixy, ixz, iyz), boxes = LINKS[part]
    col = COLLISIONS[part]
    if side == "right":
        com = (com[0], -com[1], com[2])
        ixy, iyz = -ixy, -iyz
        boxes = [((c[0], -c[1], c[2]), s) for c, s in boxes]
        if col:
            kind, o, rpy, size = col
            col = (kind, (o[0], -o[1], o[2]), rpy, size)
    return m, com, (ixx, iyy, izz, ixy, ixz, iyz), boxes, col


def sw(x):
    """A number as the SolidWorks exporter writes it: up to 15 significant digits, E exponent."""
    return ("%.15G" % (x + 0.0)) if x != 0 else "0"


def vec(v):
    return " ".join(sw(x) for x in v)


def visual(uri, rgba):
    return ["    <visual>", "      <origin", '        xyz="0 0 0"', '        rpy="0 0 0" />', "      <geometry>",
            "        <mesh", f'          filename="{uri}" />', "      </geometry>", "      <material",
            '        name="">', "        <color", f'          rgba="{rgba}" />', "      </material>", "    </visual>"]


def collision(col):
    kind, o, rpy, size = col
    if kind == "box":
        geo = f'<box size="{vec(size)}" />'
    elif kind == "sphere":
        geo = f'<sphere radius="{sw(size[0])}" />'
    else:
        geo = f'<cylinder radius="{sw(size[0])}" length="{sw(size[1])}" />'
    return ["    <collision>", "      <origin", f'        xyz="{vec(o)}"', f'        rpy="{vec(rpy)}" />',
            "      <geometry>", f"        {geo}", "      </geometry>", "    </collision>"]


def inertial(m, com, I):
    ixx, iyy, izz, ixy, ixz, iyz = I
    return ["    <inertial>", "      <origin", f'        xyz="{vec(com)}"', '        rpy="0 0 0" />', "      <mass",
            f'        value="{sw(m)}" />', "      <inertia", f'        ixx="{sw(ixx)}"', f'        ixy="{sw(ixy)}"',
            f'        ixz="{sw(ixz)}"', f'        iyy="{sw(iyy)}"', f'        iyz="{sw(iyz)}"',
            f'        izz="{sw(izz)}" />', "    </inertial>"]


out = ['<?xml version="1.0" encoding="utf-8"?>',
       "<!-- This URDF was automatically created by SolidWorks to URDF Exporter! (the header such packages",
       "     carry). GENERATED by ../make_t1_like.py for gapsim's tests: a Booster T1",
       "     written from published numbers (../README.md). Not a vendor file. -->",
       "<robot",
       '  name="t1_like">',
       "  <mujoco>",
       '    <compiler meshdir="../meshes/" balanceinertia="true" discardvisual="false" />',
       "  </mujoco>",
       '  <link name="world" />',
       '  <joint name="floating_base_joint" type="floating">',
       '    <origin xyz="0 0 0" rpy="0 0 0" />',
       '    <parent link="world" />',
       '    <child link="base_link" />',
       "  </joint>",
       '  <link name="base_link" />',
       '  <joint name="base_link_to_trunk" type="fixed">',
       '    <origin xyz="0 0 0" rpy="0 0 0" />',
       '    <parent link="base_link" />',
       '    <child link="trunk" />',
       "  </joint>"]
total = 0.0
links = [("", "trunk"), ("", "aahead_yaw_link"), ("", "aahead_pitch_link"), ("", "waist_yaw_link")]
links += [(s, p) for s in ("left", "right") for p in SIDED]
for side, part in links:
    name = f"{side}_{part}" if side else part
    m, com, I, boxes, col = side_link(part, side)
    total += m
    stl = MESH[part].format(s=side[:1].upper(), side=side, Side=side.capitalize()) + ".STL"
    write_stl(os.path.join(HERE, "meshes", stl), boxes, HEADER)
    lines = ["  <link", f'    name="{name}">'] + inertial(m, com, I)
    lines += visual(f"package://t1_like_description/meshes/{stl}", GREY if part == "trunk" else DARK)
    if part == "trunk":  # the chest logo: a second visual, as the vendor's trunk has
        write_stl(os.path.join(HERE, "meshes", "Logo.STL"), [((0.146, 0.0, 0.17), (0.004, 0.08, 0.03))], HEADER)
        lines += visual("package://t1_like_description/meshes/Logo.STL", "0.69804 0.69804 0.69804 1")
    if col:
        lines += collision(col)
    out += lines + ["  </link>"]

joints = list(HEAD_WAIST)
for side in ("left", "right"):
    for j in LEFT:
        js = j if side == "left" else mirror_joint(j)
        name, parent, child, *rest = js
        parent = parent if parent in ("trunk", "waist_yaw_link") else f"{side}_{parent}"
        joints.append((f"{side}_{name}_joint", parent, f"{side}_{child}", *rest))
for name, parent, child, xyz, rpy, axis, (lo, hi), eff, vel in joints:
    out += ["  <joint", f'    name="{name}"', '    type="revolute">', "    <origin", f'      xyz="{vec(xyz)}"',
            f'      rpy="{vec(rpy)}" />', "    <parent", f'      link="{parent}" />', "    <child",
            f'      link="{child}" />', "    <axis", f'      xyz="{vec(axis)}" />', "    <limit",
            f'      lower="{sw(lo)}"', f'      upper="{sw(hi)}"', f'      effort="{sw(eff)}"',
            f'      velocity="{sw(vel)}" />', "  </joint>"]

# Sensor frames on fixed joints: a 3 g IMU board in the trunk, 1 g force-sensor frames under the
# feet (at the sole, 0.0432 m below the ankle-roll axis: the foot box's bottom), the massless
# camera frame of the vendor's file.
SENSORS = [("imu_joint", "trunk", "imu_link", (0.0, 0.0, 0.0), (0, 0, 0), 0.003, 1e-7),
           ("left_foot_sensor_joint", "left_ankle_roll_link", "left_foot_sensor_link", (0.0101079, 0.0, -0.0432508),
            (0, 0, 0), 0.001, 1e-9),
           ("right_foot_sensor_joint", "right_ankle_roll_link", "right_foot_sensor_link", (0.0101079, 0.0, -0.0432508),
            (0, 0, 0), 0.001, 1e-9),
           ("head_realsense_rgb_joint", "aahead_pitch_link", "head_realsense_rgb_link", (0.063961, -0.0115, 0.108406),
            (-1.71042267, 0, -1.570796), None, None)]
for jname, parent, child, xyz, rpy, mass, moment in SENSORS:
    if mass:
        total += mass
        out += [f'  <link name="{child}">'] + inertial(mass, (0, 0, 0), (moment, moment, moment, 0, 0, 0)) + ["  </link>"]
    else:
        out.append(f'  <link name="{child}" />')
    out += [f'  <joint name="{jname}" type="fixed">', f'    <origin xyz="{vec(xyz)}" rpy="{vec(rpy)}" />',
            f'    <parent link="{parent}" />', f'    <child link="{child}" />', "  </joint>"]
out += ["</robot>", ""]
with open(os.path.join(HERE, "urdf", "t1_like.urdf"), "w") as f:
    f.write("\n".join(out))
print(f"{len(joints)} revolute joints, total mass {total:.9f} kg")
