#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generate robots/mabel/mabel.urdf and robots/mabel/motions/*.csv, then validate them.

Source of every number: H.-W. Park, K. Sreenath, J. W. Hurst, J. W. Grizzle, "Identification of a
bipedal robot with a compliant drivetrain: parameter estimation for control design" (MABEL
internal report), shared/papers/003_f4b2b50a90a37802.txt (shared/ is the data set that sits
beside the repository, ../shared). Table VIII (masses, COMs, inertias from CAD), Fig. 1 caption
(thigh and shin 0.5 m), Sec. II-B (gear ratios), eq. (1) (q_LA, q_LS). Choices where the paper is silent are marked CHOICE and listed in
robots/mabel/README.md.

Usage: python3 scripts/gen_mabel.py          (writes the files, then checks them)
       python3 scripts/gen_mabel.py --check  (only checks the existing files)
"""

import math
import os
import sys
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO, "robots", "mabel")
URDF = os.path.join(OUT_DIR, "mabel.urdf")
MOTIONS = os.path.join(OUT_DIR, "motions")

# ---------------------------------------------------------------------------------------------
# Table VIII: mass (kg), COM [r_x, r_y] (m, r_y along the link from its joint axis), moment of
# inertia (kg m^2) about the axis perpendicular to the sagittal plane. The inertia is read as
# being about the link's JOINT axis (pivot), not the COM: for the boom, I_COM would have to be
# 20.5 kg m^2 with the COM 1.485 m from the pivot (a 5.8 m uniform rod), whereas about the pivot
# 20.4951 ~ m L^2 / 3 of a uniform 2.91 m rod; for the shin, 0.08813 about the COM would need a
# radius of gyration of 0.242 m, more than the 0.232 m of the extreme case (all mass at the two
# ends of the 0.5 m link with the COM 0.157 m from the knee). So I_COM = I - m (r_x^2 + r_y^2).
TABLE8 = {
    #        mass     r_x        r_y          I (about the joint axis)
    "Csp":   (1.8987, 0.0009406, 0.1181,      0.04377),
    "T":     (40.8953, 0.01229,  0.18337,     2.3727),
    "Csh":   (1.6987, 0.0004345, 0.08684,     0.03223),
    "Th":    (3.2818, 0.0003110, 0.1978,      0.1986),
    "Sh":    (1.5007, 0.0009671, 0.1570,      0.08813),
    "Boom":  (7.2575, 0.0,       1.48494153,  20.4951),
}


def i_com(key):
    m, rx, ry, i_pivot = TABLE8[key]
    return i_pivot - m * (rx * rx + ry * ry)


L_THIGH = 0.5  # Fig. 1 caption
L_SHIN = 0.5   # Fig. 1 caption
# CHOICE: boom radius (pivot axis to the robot's centre plane). The paper gives no boom length;
# a boom of uniform section with its COM at 1.48494 m is 2.97 m long (and I_pivot = m L^2/3
# gives 2.91 m, consistent). The boom ends at the hip axis.
BOOM_R = 2.0 * TABLE8["Boom"][2]  # 2.96988 m
HIP_HALF_WIDTH = 0.10  # CHOICE: hips at +-0.10 m from the centre plane (paper silent)
TOE_R = 0.02           # CHOICE: toe sphere radius; sphere bottom at 0.5 m from the knee
YOKE_MASS = 0.01       # CHOICE: massless-ish boom yoke between boom_yaw and boom_pitch
YOKE_I = 1e-4
EFFORT = 300.0         # N m, see README (8 N m mLS motor torque x 31.42 ~ 250 N m)
VEL = 8.0              # rad/s servo speed limit (CHOICE)
CLEARANCE = 0.0005
# CHOICE: motor-side PD of the joint-position mode (used when no controller commands the motors),
# N m per rad and N m s per rad of motor angle: 0.5 x 23.53^2 = 277 N m/rad on q_LA, 3 x 31.42^2 =
# 2960 N m/rad on q_LS (in series with the cable and the spring).
KP_MLA, KD_MLA, KP_MLS, KD_MLS = 4.0, 0.1, 20.0, 0.3

# Standing pose (CHOICE): both toes on the ground, virtual legs +-0.2 rad from vertical, knees
# bent 0.50 rad (29 deg, q_LS = 14 deg). Left leg forward, right leg back; torso upright.
KNEE0 = 0.50
PSI0 = 0.20


# ---------------------------------------------------------------------------------------------
# Planar kinematics in the sagittal plane (x forward, z up), hip at the origin, torso upright.
# A joint angle q about +y turns the downward direction (0,-1) into (-sin q, -cos q): positive
# hip = thigh backward, positive knee = knee flexion (shin backward relative to the thigh).
def toe_centre(hip, knee):
    x = -L_THIGH * math.sin(hip) - (L_SHIN - TOE_R) * math.sin(hip + knee)
    z = -L_THIGH * math.cos(hip) - (L_SHIN - TOE_R) * math.cos(hip + knee)
    return x, z


def leg_ik(x, z):
    """hip, knee (knee >= 0) putting the toe-sphere centre at (x, z) relative to the hip."""
    a, b = L_THIGH, L_SHIN - TOE_R
    d2 = x * x + z * z
    c = (d2 - a * a - b * b) / (2 * a * b)
    c = max(-1.0, min(1.0, c))
    knee = math.acos(c)
    # direction of the toe measured as angle about +y from straight down: toe = (-sin g, -cos g)*d
    g = math.atan2(-x, -z)
    # the angle between the thigh and the hip-toe line
    beta = math.atan2(b * math.sin(knee), a + b * math.cos(knee))
    hip = g - beta
    return hip, knee


def stand_pose():
    hip_l = -PSI0 - KNEE0 / 2.0
    hip_r = PSI0 - KNEE0 / 2.0
    return {"hip_L": hip_l, "knee_L": KNEE0, "hip_R": hip_r, "knee_R": KNEE0}


def hip_height(pose):
    zl = toe_centre(pose["hip_L"], pose["knee_L"])[1]
    zr = toe_centre(pose["hip_R"], pose["knee_R"])[1]
    # lowest point of the toe spheres at CLEARANCE
    return -min(zl, zr) + TOE_R + CLEARANCE


# ---------------------------------------------------------------------------------------------
def f(v):
    s = "%.6f" % v
    s = s.rstrip("0").rstrip(".") if "." in s else s
    return "0" if s in ("-0", "") else s


def inertial(mass, com, ixx, iyy, izz):
    return ('    <inertial>\n'
            '      <origin xyz="%s %s %s" rpy="0 0 0"/>\n'
            '      <mass value="%s"/>\n'
            '      <inertia ixx="%s" ixy="0" ixz="0" iyy="%s" iyz="0" izz="%s"/>\n'
            '    </inertial>\n') % (f(com[0]), f(com[1]), f(com[2]), f(mass), f(ixx), f(iyy), f(izz))


def build_urdf():
    pose = stand_pose()
    H = hip_height(pose)  # tower pivot height = hip height in the standing pose, boom level
    m_t, rx_t, ry_t, _ = TABLE8["T"]
    m_th, rx_th, ry_th, _ = TABLE8["Th"]
    m_sh, rx_sh, ry_sh, _ = TABLE8["Sh"]
    m_b, _, ry_b, _ = TABLE8["Boom"]
    m_csp, rx_csp, ry_csp, _ = TABLE8["Csp"]
    m_csh, rx_csh, ry_csh, _ = TABLE8["Csh"]
    iT, iTh, iSh, iB, iCsp, iCsh = (i_com(k) for k in ("T", "Th", "Sh", "Boom", "Csp", "Csh"))
    total_table = m_t + 2 * (m_th + m_sh + m_csp + m_csh) + m_b
    total_model = total_table + YOKE_MASS

    o = []
    o.append('<?xml version="1.0"?>\n')
    o.append('''<!--
  MABEL, planar five-link biped (torso, two thighs, two shins) on its boom.
  GENERATED by scripts/gen_mabel.py - edit the generator, not this file.

  Source: Park, Sreenath, Hurst, Grizzle, "Identification of a bipedal robot with a compliant
  drivetrain" (MABEL), shared/papers/003_f4b2b50a90a37802.txt:
    Table VIII  masses, COMs [r_x, r_y], moments of inertia of T, Th, Sh, Csp, Csh, Boom (CAD)
    Fig. 1      thigh and shin 0.5 m each; robot about 60 kg without the boom
    Sec. II     torso + 2 thighs + 2 shins, point feet, boom constrains the robot to a sphere
    eq. (1)     q_LA = (q_Th + q_Sh)/2, q_LS = (q_Th - q_Sh)/2
  Everything else (boom radius, hip width, toe radius, tower height, off-plane inertias, servo
  limits) is a documented CHOICE: see robots/mabel/README.md.

  Table VIII inertias are taken as about the joint axis (the boom value only fits "about the
  pivot"), so I_COM = I - m (r_x^2 + r_y^2) on the hinge axis (y here). The other two principal
  moments: see README (legs: equal bending moment about x, small about the long axis; torso: box
  0.3 x 0.2 x 0.5 m; boom: equal about both perpendicular axes, 0.02 about its long axis).

  TOTAL MASS of the loaded model = %.4f kg =
      Table VIII robot + boom %.4f kg
        (torso 40.8953 + 2 x (thigh 3.2818 + shin 1.5007 + Csp 1.8987 + Csh 1.6987) + boom 7.2575)
      + boom yoke %.2f kg (the tiny intermediate link between boom_yaw and boom_pitch).
    The robot alone (no boom, no yoke) is %.4f kg (paper Fig. 1: about 60 kg incl. wiring).
    The tower is static and massless (no <inertial>; fixed to world).
  Csp and Csh (C pulleys of the spring and shin cable differentials, one each per side) are
  housed in the torso at the hip; they are lumped into the torso as fixed links (csp_L, csh_L,
  csp_R, csh_R) with their COM r_y below the hip axis (their pose with the leg straight down).

  Joints (torso and leg axes are +y of the robot = left, parallel to the boom's long axis;
  right-hand rule, so positive = the distal end moves backward):
    boom_yaw     tower -> boom_yoke  about world z at the tower top; positive (counter-
                                     clockwise from above) moves the robot forward  PASSIVE
    boom_pitch   boom_yoke -> boom   about x (horizontal, perpendicular to the boom);
                                     positive lowers the robot end         PASSIVE (fmax 0)
    torso_pitch  boom -> torso       about the boom long axis (y) at the hip; positive = torso
                                     leans forward                         PASSIVE (fmax 0)
    hip_L/R      torso -> thigh      positive = thigh backward, 0 = thigh along the torso axis
    knee_L/R     thigh -> shin       positive = knee flexion, 0 = straight leg
  Relation to the paper (Fig. 2: angles from the torso axis, counter-clockwise positive, robot
  facing +x seen from its right side): q_Th = pi - hip, q_Sh = pi - (hip + knee), so
    q_LA = (q_Th + q_Sh)/2 = pi - hip - knee/2,   q_LS = (q_Th - q_Sh)/2 = knee/2,
    knee = 2 q_LS,  hip = pi - q_LA - q_LS.
  (q_LS > 0 for a bent knee, matching the paper's leg-shape range 10..30 deg.)

  Layout: the tower stands at world (0, %s, 0); its pivot is %s m high (= hip height standing,
  boom level); the boom (radius %s m, pivot to the robot's centre plane) points along -y, so
  the robot starts at the world origin facing +x and walks counter-clockwise around the tower
  (left side = +y = towards the tower).
-->
''' % (total_model, total_table, YOKE_MASS, total_table - m_b, f(BOOM_R), f(H), f(BOOM_R)))
    o.append('<robot name="mabel">\n')
    # Colours for the GUI (physics ignores visuals), approximate: a dark torso housing, aluminium
    # boom and legs, rubber toes, a grey tower.
    for name, rgba in (("torso_dark", "0.2 0.23 0.29 1"), ("aluminium", "0.74 0.76 0.8 1"),
                       ("hub_dark", "0.14 0.14 0.16 1"), ("rubber", "0.07 0.07 0.08 1"),
                       ("tower_grey", "0.42 0.44 0.47 1")):
        o.append('  <material name="%s"><color rgba="%s"/></material>\n' % (name, rgba))
    o.append('\n')

    # world, tower
    o.append('  <link name="world"/>\n\n')
    o.append('  <!-- Static tower: no inertial (massless, merged into the environment). -->\n')
    o.append('  <link name="tower">\n'
             '    <visual>\n'
             '      <origin xyz="0 0 %s" rpy="0 0 0"/>\n'
             '      <geometry><cylinder radius="0.08" length="%s"/></geometry>\n'
             '      <material name="tower_grey"/>\n'
             '    </visual>\n'
             '    <visual>\n'
             '      <origin xyz="0 0 0.015" rpy="0 0 0"/>\n'
             '      <geometry><cylinder radius="0.35" length="0.03"/></geometry>\n'
             '      <material name="hub_dark"/>\n'
             '    </visual>\n'
             '    <visual>\n'
             '      <origin xyz="0 0 %s" rpy="0 0 0"/>\n'
             '      <geometry><cylinder radius="0.1" length="0.08"/></geometry>\n'
             '      <material name="hub_dark"/>\n'
             '    </visual>\n'
             '  </link>\n' % (f(H / 2), f(H), f(H - 0.04)))
    o.append('  <joint name="tower_fixed" type="fixed">\n'
             '    <parent link="world"/><child link="tower"/>\n'
             '    <origin xyz="0 %s 0" rpy="0 0 0"/>\n'
             '  </joint>\n\n' % f(BOOM_R))

    # yoke
    o.append('  <!-- Boom yoke: an almost massless intermediate link (%s kg, CHOICE) so that the boom\n'
             '       can turn about two axes at the pivot (every movable joint needs a massive child). -->\n'
             % f(YOKE_MASS))
    o.append('  <link name="boom_yoke">\n' + inertial(YOKE_MASS, (0, 0, 0), YOKE_I, YOKE_I, YOKE_I)
             + '  </link>\n')
    o.append('  <joint name="boom_yaw" type="continuous">\n'
             '    <parent link="tower"/><child link="boom_yoke"/>\n'
             '    <origin xyz="0 0 %s" rpy="0 0 0"/>\n'
             '    <axis xyz="0 0 1"/>\n'
             '    <limit effort="0" velocity="%s"/>\n'
             '  </joint>\n\n' % (f(H), f(VEL)))

    # boom
    o.append('  <!-- Boom (Table VIII): 7.2575 kg, COM 1.48494153 m from the pivot, 20.4951 kg m^2 about\n'
             '       the pivot => %s kg m^2 about the COM about both perpendicular axes (x, z);\n'
             '       0.02 about its long axis (CHOICE). -->\n' % f(iB))
    o.append('  <link name="boom">\n' + inertial(m_b, (0, -ry_b, 0), iB, 0.02, iB)
             + '    <visual>\n'
               '      <origin xyz="0 %s 0" rpy="1.570796 0 0"/>\n'
               '      <geometry><cylinder radius="0.025" length="%s"/></geometry>\n'
               '      <material name="aluminium"/>\n'
               '    </visual>\n'
               '  </link>\n' % (f(-BOOM_R / 2), f(BOOM_R)))
    o.append('  <joint name="boom_pitch" type="revolute">\n'
             '    <parent link="boom_yoke"/><child link="boom"/>\n'
             '    <origin xyz="0 0 0" rpy="0 0 0"/>\n'
             '    <axis xyz="1 0 0"/>\n'
             '    <limit lower="-0.5" upper="0.5" effort="0" velocity="%s"/>\n'
             '  </joint>\n\n' % f(VEL))

    # torso
    o.append('  <!-- Torso (Table VIII T): frame at the hip axis, centre plane of the robot, z up along\n'
             '       the torso, x forward. COM r_y = 0.18337 above the hip, r_x = 0.01229 taken as\n'
             '       forward (sign not given in the text). I_hinge(COM) = %s; ixx = iyy (box\n'
             '       0.3 x 0.2 x 0.5 m of 40.9 kg gives 0.99 about x), izz = 0.45. -->\n' % f(iT))
    o.append('  <link name="torso">\n' + inertial(m_t, (rx_t, 0, ry_t), iT, iT, 0.45)
             + '    <collision>\n'
               '      <origin xyz="0 0 0.2" rpy="0 0 0"/>\n'
               '      <geometry><box size="0.3 0.16 0.5"/></geometry>\n'
               '    </collision>\n'
               '    <visual>\n'
               '      <origin xyz="0 0 0.2" rpy="0 0 0"/>\n'
               '      <geometry><box size="0.3 0.16 0.5"/></geometry>\n'
               '      <material name="torso_dark"/>\n'
               '    </visual>\n'
               '    <visual>\n'
               '      <origin xyz="0 0 0.455" rpy="0 0 0"/>\n'
               '      <geometry><box size="0.31 0.17 0.02"/></geometry>\n'
               '      <material name="aluminium"/>\n'
               '    </visual>\n'
               '    <visual>\n'
               '      <origin xyz="0 0.09 0" rpy="1.570796 0 0"/>\n'
               '      <geometry><cylinder radius="0.05" length="0.03"/></geometry>\n'
               '      <material name="aluminium"/>\n'
               '    </visual>\n'
               '  </link>\n')
    o.append('  <joint name="torso_pitch" type="continuous">\n'
             '    <parent link="boom"/><child link="torso"/>\n'
             '    <origin xyz="0 %s 0" rpy="0 0 0"/>\n'
             '    <axis xyz="0 1 0"/>\n'
             '    <limit effort="0" velocity="%s"/>\n'
             '  </joint>\n\n' % (f(-BOOM_R), f(VEL)))

    # Csp/Csh lumped into the torso
    for side, sy in (("L", 1), ("R", -1)):
        y = sy * HIP_HALF_WIDTH
        for name, m, rx, ry, ic in (("csp", m_csp, rx_csp, ry_csp, iCsp),
                                    ("csh", m_csh, rx_csh, ry_csh, iCsh)):
            o.append('  <!-- %s_%s (Table VIII %s): pulley of the %s differential, in the torso at the hip;\n'
                     '       lumped into the torso (fixed). I_hinge(COM) = %s; 0.6 x that about x, z. -->\n'
                     % (name, side, "Csp" if name == "csp" else "Csh",
                        "spring" if name == "csp" else "shin", f(ic)))
            o.append('  <link name="%s_%s">\n' % (name, side)
                     + inertial(m, (rx, 0, -ry), 0.6 * ic, ic, 0.6 * ic) + '  </link>\n')
            o.append('  <joint name="%s_%s_fixed" type="fixed">\n'
                     '    <parent link="torso"/><child link="%s_%s"/>\n'
                     '    <origin xyz="0 %s 0" rpy="0 0 0"/>\n'
                     '  </joint>\n\n' % (name, side, name, side, f(y)))

    # legs
    for side, sy in (("L", 1), ("R", -1)):
        y = sy * HIP_HALF_WIDTH
        o.append('  <!-- %s leg. Thigh (Table VIII Th): COM 0.1978 below the hip, I_hinge(COM) = %s;\n'
                 '       shin (Table VIII Sh): COM 0.157 below the knee, I_hinge(COM) = %s. -->\n'
                 % ("Left" if side == "L" else "Right", f(iTh), f(iSh)))
        o.append('  <link name="thigh_%s">\n' % side
                 + inertial(m_th, (rx_th, 0, -ry_th), iTh, iTh, 0.003)
                 + '    <collision>\n'
                   '      <origin xyz="0 0 -0.25" rpy="0 0 0"/>\n'
                   '      <geometry><capsule radius="0.025" length="0.35"/></geometry>\n'
                   '    </collision>\n'
                   '    <visual>\n'
                   '      <origin xyz="0 0 -0.25" rpy="0 0 0"/>\n'
                   '      <geometry><cylinder radius="0.025" length="0.5"/></geometry>\n'
                   '      <material name="aluminium"/>\n'
                   '    </visual>\n'
                   '    <visual>\n'
                   '      <origin xyz="0 0 0" rpy="1.570796 0 0"/>\n'
                   '      <geometry><cylinder radius="0.06" length="0.04"/></geometry>\n'
                   '      <material name="hub_dark"/>\n'
                   '    </visual>\n'
                   '  </link>\n')
        o.append('  <joint name="hip_%s" type="revolute">\n'
                 '    <parent link="torso"/><child link="thigh_%s"/>\n'
                 '    <origin xyz="0 %s 0" rpy="0 0 0"/>\n'
                 '    <axis xyz="0 1 0"/>\n'
                 '    <limit lower="-1.2" upper="1.0" effort="%s" velocity="%s"/>\n'
                 '  </joint>\n' % (side, side, f(y), f(EFFORT), f(VEL)))
        o.append('  <link name="shin_%s">\n' % side
                 + inertial(m_sh, (rx_sh, 0, -ry_sh), iSh, iSh, 0.001)
                 + '    <collision>\n'
                   '      <origin xyz="0 0 -0.2" rpy="0 0 0"/>\n'
                   '      <geometry><capsule radius="0.02" length="0.3"/></geometry>\n'
                   '    </collision>\n'
                   '    <!-- point toe 0.5 m from the knee: no collision geometry, the compliant ground of\n'
                   '         <gapsim> acts there (Marhefka-Orin, Table VII); the sphere is visual only -->\n'
                   '    <visual>\n'
                   '      <origin xyz="0 0 -0.24" rpy="0 0 0"/>\n'
                   '      <geometry><cylinder radius="0.02" length="0.48"/></geometry>\n'
                   '      <material name="aluminium"/>\n'
                   '    </visual>\n'
                   '    <visual>\n'
                   '      <origin xyz="0 0 0" rpy="1.570796 0 0"/>\n'
                   '      <geometry><cylinder radius="0.035" length="0.05"/></geometry>\n'
                   '      <material name="hub_dark"/>\n'
                   '    </visual>\n'
                   '    <visual>\n'
                   '      <origin xyz="0 0 %s" rpy="0 0 0"/>\n'
                   '      <geometry><sphere radius="%s"/></geometry>\n'
                   '      <material name="rubber"/>\n'
                   '    </visual>\n'
                   '  </link>\n' % (f(-(L_SHIN - TOE_R)), f(TOE_R)))
        o.append('  <joint name="knee_%s" type="revolute">\n'
                 '    <parent link="thigh_%s"/><child link="shin_%s"/>\n'
                 '    <origin xyz="0 0 %s" rpy="0 0 0"/>\n'
                 '    <axis xyz="0 1 0"/>\n'
                 '    <limit lower="0" upper="1.6" effort="%s" velocity="%s"/>\n'
                 '  </joint>\n\n' % (side, side, side, f(-L_THIGH), f(EFFORT), f(VEL)))

    # gapsim element
    o.append('  <gapsim version="1">\n')
    o.append('    <source>MABEL: Park, Sreenath, Hurst, Grizzle, parameter identification of MABEL '
             '(shared/papers/003_f4b2b50a90a37802.txt), Table VIII (masses, COMs, inertias), '
             'Fig. 1 (0.5 m thigh and shin), Sec. II (boom, point feet), Sec. II-B (gear ratios '
             '23.53, 31.42). Boom radius, hip width, tower height, toe size, off-plane inertias '
             'and servo limits are choices documented in robots/mabel/README.md.</source>\n')
    o.append('    <!-- Standing on both toes, knees bent %s rad, virtual legs +-%s rad from vertical\n'
             '         (left forward), torso upright, boom level. -->\n' % (f(KNEE0), f(PSI0)))
    o.append('    <initial_pose xyz="0 0 0" rpy="0 0 0" ground_clearance_m="%s">\n' % f(CLEARANCE))
    for j in ("boom_yaw", "boom_pitch", "torso_pitch"):
        o.append('      <joint name="%s" value_rad="0"/>\n' % j)
    for j in ("hip_L", "knee_L", "hip_R", "knee_R"):
        o.append('      <joint name="%s" value_rad="%s"/>\n' % (j, f(pose[j])))
    o.append('    </initial_pose>\n')
    o.append('    <!-- 0.5 ms: the compliant ground (k = 4.38e7 N/m^1.5) is stiff for the light shin; at 1 ms the\n         light shin chatters on it. dWorldStep (big): with 7 bodies it is faster than QuickStep and\n         keeps the boom joints exact under the transmission torques. -->\n')
    o.append('    <solver dt_s="0.0005" stepper="big" iterations="30"/>\n')
    o.append('    <contact mu="0.8"/>\n')
    o.append('    <ground type="plane"/>\n')
    o.append('    <sensors>\n'
             '      <imu name="torso" link="torso"/>\n'
             '      <foot_contact name="LToe" link="shin_L"/>\n'
             '      <foot_contact name="RToe" link="shin_R"/>\n'
             '    </sensors>\n')
    o.append('    <fall tilt_deg="60"/>\n')
    o.append('    <!-- The boom joints and the torso pitch are unactuated on the real robot: fmax 0 = passive. -->\n')
    o.append('    <servo_defaults gain_1_s="20"/>\n')
    for j in ("boom_yaw", "boom_pitch", "torso_pitch"):
        o.append('    <servo joint="%s" fmax_Nm="0"/>\n' % j)
    o.append('    <!-- Hips and knees are driven only by the cable-differential transmissions (paper Sec. II,\n'
             '         IV, VII; motorgear/mabel_transmission.h): two motors, cable stretch and the\n'
             '         unilateral spring per leg. Without a controller each leg holds the joint targets\n'
             '         with a motor-side PD (kp, kd per rad of motor angle). -->\n')
    o.append('    <drivetrain name="mabel/joints" type="torque" joints="hip_L knee_L hip_R knee_R"/>\n')
    for side, preset in (("L", "left"), ("R", "right")):
        o.append('    <mabel_leg name="mabel/%s" preset="%s" hip="hip_%s" knee="knee_%s" kp_mLA="%s" kd_mLA="%s" '
                 'kp_mLS="%s" kd_mLS="%s"/>\n' % (preset, preset, side, side, f(KP_MLA), f(KD_MLA), f(KP_MLS), f(KD_MLS)))
    o.append('    <!-- Compliant ground at the point toes (Table VII; motorgear/mabel_ground.h). The rigid\n'
             '         plane still catches the other collision shapes. -->\n')
    o.append('    <compliant_ground name="mabel/ground">\n')
    for side in ("L", "R"):
        o.append('      <toe name="%sToe" link="shin_%s" xyz="0 0 %s"/>\n' % (side, side, f(-L_SHIN)))
    o.append('    </compliant_ground>\n')
    o.append('  </gapsim>\n')
    o.append('</robot>\n')
    return "".join(o), H, pose


# ---------------------------------------------------------------------------------------------
JOINTS = ["hip_L", "knee_L", "hip_R", "knee_R"]


def write_csv(path, rows):
    with open(path, "w") as fh:
        fh.write("time_s," + ",".join(JOINTS) + "\n")
        for t, pose in rows:
            fh.write("%s,%s\n" % (f(t), ",".join("%.4f" % pose[j] for j in JOINTS)))


def sway_pose(base, dx, dz):
    """Joint angles with both toes rolling on the ground where they stand in `base`, the hip
    moved by (dx, dz) and the torso upright. The toe spheres roll without slipping: the sphere
    centre moves by TOE_R * (change of the shin's angle about +y)."""
    out = {}
    for side in ("L", "R"):
        h0, k0 = base["hip_" + side], base["knee_" + side]
        x0, z0 = toe_centre(h0, k0)
        phi0 = h0 + k0
        hip, knee = h0, k0
        for _ in range(30):  # fixed point: rolling shift depends on the shin angle
            x = x0 - dx + TOE_R * ((hip + knee) - phi0)
            z = z0 - dz
            hip, knee = leg_ik(x, z)
        out["hip_" + side], out["knee_" + side] = hip, knee
    return out


def build_motions(pose):
    stand = [(0.0, pose), (10.0, pose)]
    # leg_swing: both toes stay planted (single support would be an open-loop inverted pendulum
    # on a point foot and falls within a second); the hip sways forward and back over the toes,
    # so each leg swings forward and back relative to the torso. 1 s hold, ramp in, then three
    # 4 s cycles of +-0.03 m, then hold. Keyframes every 0.25 s (linear interpolation). The legs
    # are driven through series springs that sag under load: +-0.06 m tips the torso forward
    # (falls at 3.1 s), +-0.03 m stays up (max tilt 5.6 deg).
    rows = [(0.0, pose), (1.0, pose)]
    amp, period, ncyc, t0 = 0.03, 4.0, 3, 1.0
    n = int(ncyc * period / 0.25)
    for i in range(1, n + 1):
        t = i * 0.25
        dx = amp * math.sin(2 * math.pi * t / period)
        rows.append((t0 + t, sway_pose(pose, dx, 0.0)))
    rows.append((t0 + n * 0.25 + 1.0, pose))
    return stand, rows


# ---------------------------------------------------------------------------------------------
def check(expected_total=None):
    tree = ET.parse(URDF)
    root = tree.getroot()
    links = {l.get("name"): l for l in root.findall("link")}
    mass = {}
    for name, l in links.items():
        inr = l.find("inertial")
        if inr is not None:
            m = float(inr.find("mass").get("value"))
            assert m > 0, name
            ine = inr.find("inertia")
            ix, iy, iz = (float(ine.get(k)) for k in ("ixx", "iyy", "izz"))
            assert ix > 0 and iy > 0 and iz > 0, name
            assert ix + iy >= iz and iy + iz >= ix and ix + iz >= iy, "triangle " + name
            mass[name] = m
    children = set()
    movable = []
    for j in root.findall("joint"):
        c = j.find("child").get("link")
        p = j.find("parent").get("link")
        assert c in links and p in links, j.get("name")
        assert c not in children, "two parents: " + c
        children.add(c)
        if j.get("type") != "fixed":
            movable.append(j.get("name"))
            assert c in mass, "movable child without mass: " + c
    roots = [n for n in links if n not in children]
    assert roots == ["world"], roots
    total = sum(mass.values())
    names = set(movable)
    g = root.find("gapsim")
    for e in g.iter():
        if e.get("joint"):
            assert e.get("joint") in names, e.get("joint")
        if e.get("link"):
            assert e.get("link") in links, e.get("link")
    for fn in sorted(os.listdir(MOTIONS)):
        with open(os.path.join(MOTIONS, fn)) as fh:
            lines = [ln.strip() for ln in fh if ln.strip()]
        head = lines[0].split(",")
        assert head[0] == "time_s" and all(h in names for h in head[1:]), fn
        last = -1.0
        for ln in lines[1:]:
            v = [float(x) for x in ln.split(",")]
            assert len(v) == len(head) and v[0] > last, (fn, ln)
            last = v[0]
        print("motion %s: %d keyframes, %.2f s" % (fn, len(lines) - 1, last))
    print("links with mass:", ", ".join("%s %.4f" % kv for kv in mass.items()))
    print("movable joints:", ", ".join(movable))
    print("total mass %.4f kg" % total)
    if expected_total is not None:
        assert abs(total - expected_total) < 1e-3 * expected_total
    return total


def com_report(pose, H):
    """Static check: horizontal position of the robot's weight (plus the boom share carried at
    the hip) relative to the two toes, in the standing pose and along the sway."""
    def com_x(p):
        m_t, rx_t, ry_t, _ = TABLE8["T"]
        items = [(m_t, rx_t)]
        for side in ("L", "R"):
            h, k = p["hip_" + side], p["knee_" + side]
            items.append((TABLE8["Th"][0], -TABLE8["Th"][2] * math.sin(h)))
            items.append((TABLE8["Sh"][0], -L_THIGH * math.sin(h) - TABLE8["Sh"][2] * math.sin(h + k)))
            items.append((TABLE8["Csp"][0] + TABLE8["Csh"][0], 0.0))
        boom_share = TABLE8["Boom"][0] * TABLE8["Boom"][2] / BOOM_R  # at the hip
        items.append((boom_share, 0.0))
        m = sum(a for a, _ in items)
        return sum(a * b for a, b in items) / m
    for label, p in (("stand", pose),):
        xl = toe_centre(p["hip_L"], p["knee_L"])[0]
        xr = toe_centre(p["hip_R"], p["knee_R"])[0]
        print("%s: COM x %.3f m from the hip, toes at L %.3f R %.3f, hip height %.4f m"
              % (label, com_x(p), xl, xr, H))
    return com_x


def main():
    text, H, pose = build_urdf()
    if "--check" not in sys.argv:
        os.makedirs(MOTIONS, exist_ok=True)
        with open(URDF, "w") as fh:
            fh.write(text)
        stand, swing = build_motions(pose)
        write_csv(os.path.join(MOTIONS, "stand.csv"), stand)
        write_csv(os.path.join(MOTIONS, "leg_swing.csv"), swing)
        # the sway keeps the toes where they are
        com_x = com_report(pose, H)
        worst, margin = 0.0, 1.0
        for t, p in swing:
            xs = []
            for side in ("L", "R"):
                x, z = toe_centre(p["hip_" + side], p["knee_" + side])
                z0 = toe_centre(pose["hip_" + side], pose["knee_" + side])[1]
                worst = max(worst, abs(z - z0))
                xs.append(x)
            cx = com_x(p)
            margin = min(margin, cx - min(xs), max(xs) - cx)
        print("sway: toe-height error max %.2e m; COM stays >= %.3f m inside the toes; "
              "hip range L %.3f..%.3f R %.3f..%.3f, knee range L %.3f..%.3f R %.3f..%.3f" % (
                  worst, margin,
                  min(p["hip_L"] for _, p in swing), max(p["hip_L"] for _, p in swing),
                  min(p["hip_R"] for _, p in swing), max(p["hip_R"] for _, p in swing),
                  min(p["knee_L"] for _, p in swing), max(p["knee_L"] for _, p in swing),
                  min(p["knee_R"] for _, p in swing), max(p["knee_R"] for _, p in swing)))
    m_table = TABLE8["T"][0] + 2 * sum(TABLE8[k][0] for k in ("Th", "Sh", "Csp", "Csh")) + TABLE8["Boom"][0]
    check(m_table + YOKE_MASS)
    print("Table VIII total (robot + boom) %.4f kg; with yoke %.4f kg" % (m_table, m_table + YOKE_MASS))


if __name__ == "__main__":
    main()
