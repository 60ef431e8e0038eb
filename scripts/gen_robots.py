#!/usr/bin/env python3
"""Generate the shipped robot files of the Nao V3.3 and the BIOLOID GP.

Reads the numbers in shared/robot-data (and, for the BIOLOID standing height, squat and standing
pose, shared/real-data/bioloid), where shared/ is the data set that sits beside the repository
(../shared; --data, --real or GAPSIM_ROBOT_DATA, GAPSIM_REAL_DATA point elsewhere), and writes

  robots/nao/nao.urdf, robots/nao/motions/{stand,squat,wave}.csv, robots/nao/motions/squat.motion
  robots/bioloid/bioloid.urdf, robots/bioloid/bioloid_paper_law.urdf,
  robots/bioloid/motions/{stand,squat,wave}.csv

Python 3 standard library only. The output depends only on the input files: running the script
again produces byte-identical files.

Usage: scripts/gen_robots.py [--data DIR] [--real DIR] [--out REPO_ROOT] [--check]
  --check  only report the totals and validate the files already written.
"""

import argparse
import csv
import math
import os
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))
DEFAULT_DATA = os.environ.get("GAPSIM_ROBOT_DATA", os.path.join(SHARED, "robot-data"))
DEFAULT_REAL = os.environ.get("GAPSIM_REAL_DATA", os.path.join(SHARED, "real-data"))


# ----------------------------------------------------------------------------------------------
# small helpers

def fmt(x):
    """Deterministic number formatting (12 significant digits, no '-0')."""
    if isinstance(x, str):
        x = float(x)
    if abs(x) < 1e-14:
        return "0"
    s = "%.12g" % x
    return s


def fmts(v):
    return " ".join(fmt(x) for x in v)


def read_csv(path):
    """Returns (comment lines without '# ', list of row dicts)."""
    comments, rows = [], []
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    data = []
    for ln in lines:
        if ln.startswith("#"):
            comments.append(ln[1:].strip())
        elif ln.strip():
            data.append(ln)
    reader = csv.reader(data)
    header = next(reader)
    for r in reader:
        rows.append(dict(zip(header, r)))
    return comments, rows


def read_plain_csv(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [r for r in reader if r]


def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_vec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def transpose(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def vadd(a, b):
    return [a[i] + b[i] for i in range(3)]


def vsub(a, b):
    return [a[i] - b[i] for i in range(3)]


def vscale(a, s):
    return [x * s for x in a]


def rpy_to_mat(r, p, y):
    """URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: R = Rz Ry Rx."""
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def mat_to_rpy(m):
    sp = -m[2][0]
    sp = max(-1.0, min(1.0, sp))
    p = math.asin(sp)
    if abs(sp) < 1.0 - 1e-12:
        r = math.atan2(m[2][1], m[2][2])
        y = math.atan2(m[1][0], m[0][0])
    else:  # gimbal lock: put everything into yaw
        r = 0.0
        y = math.atan2(-m[0][1], m[1][1])
    return [r, p, y]


def axis_angle(ax, t):
    n = math.sqrt(sum(a * a for a in ax))
    x, y, z = (a / n for a in ax)
    c, s = math.cos(t), math.sin(t)
    C = 1 - c
    return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
            [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
            [z * x * C - y * s, z * y * C + x * s, c + z * z * C]]


def rotvec_to_mat(v):
    t = math.sqrt(sum(a * a for a in v))
    if t < 1e-15:
        return [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    return axis_angle(v, t)


def inertia_mat(ixx, ixy, ixz, iyy, iyz, izz):
    return [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]


def inertia_list(m):
    return [m[0][0], m[0][1], m[0][2], m[1][1], m[1][2], m[2][2]]


def steiner(mass, d):
    """Parallel-axis term m (|d|^2 E - d d^T)."""
    dd = sum(x * x for x in d)
    return [[mass * ((dd if i == j else 0.0) - d[i] * d[j]) for j in range(3)] for i in range(3)]


def madd(a, b, s=1.0):
    return [[a[i][j] + s * b[i][j] for j in range(3)] for i in range(3)]


def box_inertia(mass, sx, sy, sz):
    return [[mass / 12.0 * (sy * sy + sz * sz), 0, 0],
            [0, mass / 12.0 * (sx * sx + sz * sz), 0],
            [0, 0, mass / 12.0 * (sx * sx + sy * sy)]]


def sym_eig(a):
    """Eigenvalues of a symmetric 3x3 matrix (Jacobi rotations)."""
    a = [row[:] for row in a]
    for _ in range(100):
        off = max(abs(a[0][1]), abs(a[0][2]), abs(a[1][2]))
        if off < 1e-30:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if abs(a[p][q]) < 1e-300:
                continue
            th = 0.5 * math.atan2(2 * a[p][q], a[q][q] - a[p][p])
            c, s = math.cos(th), math.sin(th)
            J = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
            J[p][p] = c
            J[q][q] = c
            J[p][q] = s
            J[q][p] = -s
            a = mat_mul(transpose(J), mat_mul(a, J))
    return sorted([a[0][0], a[1][1], a[2][2]])


def check_inertia(name, I, strict=True):
    """Positive definite is required (ODE's dMassCheck); the triangle inequality of the principal
    moments is required for inertias we compute, and only reported for copied source values."""
    e = sym_eig(I)
    if e[0] <= 0:
        raise SystemExit("inertia of %s is not positive definite: eigenvalues %s" % (name, e))
    if e[0] + e[1] < e[2] * (1 - 1e-9):
        if strict:
            raise SystemExit("inertia of %s violates the triangle inequality: eigenvalues %s" % (name, e))
        return False
    return True


# ----------------------------------------------------------------------------------------------
# URDF model in memory

class Link:
    def __init__(self, name, mass=None, com=None, inertia=None):
        self.name = name
        self.mass = mass          # None = massless
        self.com = com
        self.inertia = inertia    # 3x3 about COM, link-frame axes
        self.shapes = []          # (kind, dims, xyz, rpy, comment)
        self.comment = None


class Joint:
    def __init__(self, name, jtype, parent, child, xyz, rpy, axis=None, limit=None, mimic=None):
        self.name, self.type, self.parent, self.child = name, jtype, parent, child
        self.xyz, self.rpy, self.axis, self.limit, self.mimic = xyz, rpy, axis, limit, mimic
        self.comment = None


def fk(links_order, joints, q, root):
    """World (root-frame) pose of every link for joint angles q (dict)."""
    T = {root: ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0.0, 0.0, 0.0])}
    pending = list(joints)
    while pending:
        rest = []
        for j in pending:
            if j.parent not in T:
                rest.append(j)
                continue
            R, p = T[j.parent]
            Ro = rpy_to_mat(*j.rpy)
            Rc = mat_mul(R, Ro)
            ang = 0.0
            if j.type in ("revolute", "continuous"):
                if j.mimic:
                    ang = j.mimic[1] * q.get(j.mimic[0], 0.0) + j.mimic[2]
                else:
                    ang = q.get(j.name, 0.0)
                Rc = mat_mul(Rc, axis_angle(j.axis, ang))
            T[j.child] = (Rc, vadd(p, mat_vec(R, j.xyz)))
        if len(rest) == len(pending):
            raise SystemExit("joint tree is not connected")
        pending = rest
    return T


def total_com(links, T):
    m = 0.0
    c = [0.0, 0.0, 0.0]
    for l in links:
        if l.mass:
            R, p = T[l.name]
            w = vadd(p, mat_vec(R, l.com))
            m += l.mass
            c = vadd(c, vscale(w, l.mass))
    return m, vscale(c, 1.0 / m)


def xml_comment_text(s):
    """'--' must not occur inside an XML comment."""
    while "--" in s:
        s = s.replace("--", "-")
    return s


# Colours of the visuals (<material>; the GUI draws them, physics ignores them), approximate:
# the Nao V3.3's white shell with grey joint housings, the BIOLOID GP's black servos and covers
# with grey frames. name -> rgba, and robot -> link -> material name (links not listed: no colour).
MATERIALS = {"shell_white": "0.93 0.93 0.95 1", "joint_grey": "0.34 0.36 0.41 1",
             "servo_black": "0.16 0.16 0.18 1", "frame_grey": "0.6 0.62 0.66 1"}
LINK_MATERIALS = {
    "nao_v33": {**{n: "joint_grey" for n in ("Neck", "LShoulder", "RShoulder", "LElbow", "RElbow", "LPelvis",
                                             "RPelvis", "LHip", "RHip", "LAnklePitch", "RAnklePitch")},
                **{n: "shell_white" for n in ("torso", "Head", "LBicep", "RBicep", "LForeArm", "RForeArm", "l_wrist",
                                              "r_wrist", "l_gripper", "r_gripper", "LThigh", "RThigh", "LTibia",
                                              "RTibia", "l_ankle", "r_ankle")}},
    "bioloid_gp": {**{n: "servo_black" for n in ("torso", "l_hip_yaw", "r_hip_yaw", "l_thigh", "r_thigh", "l_shin",
                                                 "r_shin", "l_shoulder", "r_shoulder", "l_hand", "r_hand")},
                   **{n: "frame_grey" for n in ("l_hip", "r_hip", "l_heel", "r_heel", "l_foot", "r_foot", "l_arm",
                                                "r_arm")}},
}


# The look: visual-only shapes added to the visuals above (the collision shapes stay as they are,
# so physics does not change). Per robot: extra colours, shapes per link
# (kind, dims, xyz, rpy, material), and a housing drawn on every movable joint: a cylinder along
# the joint axis at the child link's origin (radius, length, material), the joint housings of the
# Nao and the servo horns of the BIOLOID. The Nao's trim is blue (it was also sold in red and
# grey); all colours are approximate.
LOOK_MATERIALS = {"trim_blue": "0.16 0.36 0.78 1", "face_dark": "0.1 0.1 0.12 1", "led_blue": "0.3 0.6 1 1"}
_RX90, _RY90 = (1.5707963267949, 0, 0), (0, 1.5707963267949, 0)
LOOK = {
    "nao_v33": {
        "housing": (0.022, 0.05, "joint_grey"),
        "torso": [("box", (0.104, 0.124, 0.035), (0, 0, -0.06), (0, 0, 0), "joint_grey"),     # waist
                  ("box", (0.006, 0.07, 0.06), (0.05, 0, 0.06), (0, 0, 0), "trim_blue"),      # chest plate
                  ("cylinder", (0.014, 0.006), (0.054, 0, 0.065), _RY90, "shell_white"),      # chest button
                  ("cylinder", (0.02, 0.03), (0, 0, 0.11), (0, 0, 0), "joint_grey")],         # neck
        "Head": [("box", (0.03, 0.09, 0.032), (0.05, 0, 0.062), (0, 0, 0), "face_dark"),      # face
                 ("sphere", (0.011,), (0.062, 0.024, 0.064), (0, 0, 0), "led_blue"),          # eyes
                 ("sphere", (0.011,), (0.062, -0.024, 0.064), (0, 0, 0), "led_blue"),
                 ("cylinder", (0.028, 0.016), (0, 0.058, 0.055), _RX90, "joint_grey"),        # ears
                 ("cylinder", (0.028, 0.016), (0, -0.058, 0.055), _RX90, "joint_grey"),
                 ("cylinder", (0.034, 0.016), (-0.005, 0, 0.108), (0, 0, 0), "trim_blue")],   # crown
        "LShoulder": [("sphere", (0.032,), (0, 0, 0), (0, 0, 0), "trim_blue")],
        "RShoulder": [("sphere", (0.032,), (0, 0, 0), (0, 0, 0), "trim_blue")],
        "l_wrist": [("box", (0.035, 0.045, 0.022), (0.09, 0, -0.004), (0, 0, 0), "joint_grey")],   # fingers
        "r_wrist": [("box", (0.035, 0.045, 0.022), (0.09, 0, -0.004), (0, 0, 0), "joint_grey")],
        "LThigh": [("box", (0.05, 0.004, 0.065), (0, 0.036, -0.05), (0, -0.174532925199, 0), "trim_blue")],
        "RThigh": [("box", (0.05, 0.004, 0.065), (0, -0.036, -0.05), (0, -0.174532925199, 0), "trim_blue")],
        # front of the tibia box: its centre + Ry(10 deg) (0.036, 0, 0)
        "LTibia": [("box", (0.004, 0.045, 0.065), (0.035453, 0, -0.057626), (0, 0.174532925199, 0), "trim_blue")],
        "RTibia": [("box", (0.004, 0.045, 0.065), (0.035453, 0, -0.057626), (0, 0.174532925199, 0), "trim_blue")],
        "l_ankle": [("box", (0.152, 0.077, 0.008), (0.02, 0.003, -0.04111), (0, 0, 0), "joint_grey")],   # sole
        "r_ankle": [("box", (0.152, 0.077, 0.008), (0.02, -0.003, -0.04111), (0, 0, 0), "joint_grey")],
    },
    # CAD torso frame: x = robot left, y = robot back, z = up; the face looks to -y.
    "bioloid_gp": {
        "housing": (0.011, 0.038, "frame_grey"),
        "torso": [("box", (0.07, 0.004, 0.07), (0, -0.0452, -0.025), (0, 0, 0), "frame_grey"),   # chest frame
                  ("box", (0.036, 0.004, 0.016), (0, -0.0307, 0.052), (0, 0, 0), "frame_grey"),  # visor
                  ("sphere", (0.005,), (0.009, -0.032, 0.052), (0, 0, 0), "led_blue"),           # eyes
                  ("sphere", (0.005,), (-0.009, -0.032, 0.052), (0, 0, 0), "led_blue")],
    },
}


def rpy_z_along(a):
    """URDF rpy that turns the z axis onto the unit vector `a` (for cylinders along a joint axis):
    Rz(y) Ry(p) Rx(r) e_z = (cos r sin p, -sin r, cos r cos p)."""
    n = math.sqrt(sum(x * x for x in a))
    ax, ay, az = (x / n for x in a)
    return (-math.asin(max(-1.0, min(1.0, ay))), math.atan2(ax, az), 0.0)


def look_visuals(robot_name, links, joints):
    """link name -> the extra visual shapes of LOOK (housings on movable joints first)."""
    look = LOOK.get(robot_name, {})
    out = {l.name: [] for l in links}
    if "housing" in look:
        r, length, mat = look["housing"]
        for j in joints:
            if j.type != "fixed" and j.axis is not None:
                out[j.child].append(("cylinder", (r, length), (0, 0, 0), rpy_z_along(j.axis), mat))
    for name, shapes in look.items():
        if name != "housing":
            out[name].extend(shapes)
    return out


def shape_xml(kind, dims):
    if kind == "box":
        return '<box size="%s"/>' % fmts(dims)
    if kind == "sphere":
        return '<sphere radius="%s"/>' % fmt(dims[0])
    if kind == "cylinder":
        return '<cylinder radius="%s" length="%s"/>' % (fmt(dims[0]), fmt(dims[1]))
    raise SystemExit("unknown shape " + kind)


def write_urdf(path, robot_name, header_comment, links, joints, gapsim_xml):
    header_comment = [xml_comment_text(x) for x in header_comment]
    for l in links:
        l.comment = xml_comment_text(l.comment) if l.comment else l.comment
        l.shapes = [(k, d, x, r, xml_comment_text(c) if c else c) for k, d, x, r, c in l.shapes]
    for j in joints:
        j.comment = xml_comment_text(j.comment) if j.comment else j.comment
    out = ['<?xml version="1.0" encoding="utf-8"?>']
    out.append("<!--")
    for ln in header_comment:
        out.append("  " + ln if ln else "")
    out.append("-->")
    out.append('<robot name="%s">' % robot_name)
    colours = LINK_MATERIALS.get(robot_name, {})
    extra = look_visuals(robot_name, links, joints)
    used = set(colours.values()) | {v[4] for shapes in extra.values() for v in shapes}
    for name in sorted(used):
        out.append('  <material name="%s"><color rgba="%s"/></material>'
                   % (name, MATERIALS.get(name) or LOOK_MATERIALS[name]))
    for l in links:
        out.append("")
        if l.comment:
            out.append("  <!-- %s -->" % l.comment)
        if l.mass is None and not l.shapes and not extra[l.name]:
            out.append('  <link name="%s"/>' % l.name)
            continue
        out.append('  <link name="%s">' % l.name)
        if l.mass is not None:
            out.append("    <inertial>")
            out.append('      <origin xyz="%s" rpy="0 0 0"/>' % fmts(l.com))
            out.append('      <mass value="%s"/>' % fmt(l.mass))
            I = inertia_list(l.inertia)
            out.append('      <inertia ixx="%s" ixy="%s" ixz="%s" iyy="%s" iyz="%s" izz="%s"/>'
                       % tuple(fmt(x) for x in I))
            out.append("    </inertial>")
        for tag in ("visual", "collision"):
            for kind, dims, xyz, rpy, cmt in l.shapes:
                if cmt and tag == "collision":
                    out.append("    <!-- %s -->" % cmt)
                out.append("    <%s>" % tag)
                out.append('      <origin xyz="%s" rpy="%s"/>' % (fmts(xyz), fmts(rpy)))
                out.append("      <geometry>%s</geometry>" % shape_xml(kind, dims))
                if tag == "visual" and l.name in colours:
                    out.append('      <material name="%s"/>' % colours[l.name])
                out.append("    </%s>" % tag)
            if tag == "visual":
                for kind, dims, xyz, rpy, mat in extra[l.name]:
                    out.append("    <visual>")
                    out.append('      <origin xyz="%s" rpy="%s"/>' % (fmts(xyz), fmts(rpy)))
                    out.append("      <geometry>%s</geometry>" % shape_xml(kind, dims))
                    out.append('      <material name="%s"/>' % mat)
                    out.append("    </visual>")
        out.append("  </link>")
    for j in joints:
        out.append("")
        if j.comment:
            out.append("  <!-- %s -->" % j.comment)
        out.append('  <joint name="%s" type="%s">' % (j.name, j.type))
        out.append('    <parent link="%s"/>' % j.parent)
        out.append('    <child link="%s"/>' % j.child)
        out.append('    <origin xyz="%s" rpy="%s"/>' % (fmts(j.xyz), fmts(j.rpy)))
        if j.type != "fixed":
            out.append('    <axis xyz="%s"/>' % fmts(j.axis))
            if j.limit:
                lo, hi, eff, vel = j.limit
                out.append('    <limit lower="%s" upper="%s" effort="%s" velocity="%s"/>'
                           % (fmt(lo), fmt(hi), fmt(eff), fmt(vel)))
            if j.mimic:
                out.append('    <mimic joint="%s" multiplier="%s" offset="%s"/>'
                           % (j.mimic[0], fmt(j.mimic[1]), fmt(j.mimic[2])))
        out.append("  </joint>")
    out.append("")
    out.extend("  " + ln if ln else "" for ln in gapsim_xml)
    out.append("</robot>")
    text = "\n".join(out) + "\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(text)


def wave_frames(rest, up, joint, swing_rad):
    """Keyframes of a wave: raise the arm from rest to `up` in 1.5 s, swing `joint` to `swing_rad`
    and back four times (0.4 s each way), hold, and lower it again."""
    frames = [(0.0, rest), (0.5, rest), (2.0, up)]
    t = 2.0
    for _ in range(4):
        t += 0.4
        frames.append((t, dict(up, **{joint: swing_rad})))
        t += 0.4
        frames.append((t, dict(up)))
    frames += [(t + 0.5, up), (t + 2.0, rest), (t + 3.0, rest)]
    return frames


def write_motion_csv(path, joint_names, frames):
    """frames: list of (t, {joint: value}); every frame must give every column."""
    lines = [",".join(["time_s"] + joint_names)]
    for t, vals in frames:
        lines.append(",".join([fmt_t(t)] + ["%.6f" % vals[j] + "" for j in joint_names]))
    lines = [ln.replace("-0.000000", "0.000000") for ln in lines]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def fmt_t(t):
    return "%.3f" % t


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def gapsim_head(src_lines, z0, rpy, joints, comment=None):
    """The <gapsim> element's opening lines: its sources, an optional comment, the initial pose
    (torso z0 above the ground, rpy, one (name, value_rad) per joint)."""
    g = ['<gapsim version="1">', "  <source>" + xml_escape("\n    ".join(src_lines)) + "</source>"]
    if comment:
        g.append("  <!-- " + comment + " -->")
    g.append('  <initial_pose xyz="0 0 %s" rpy="%s" ground_clearance_m="0.0005">' % (fmt(round(z0, 4)), rpy))
    g += ['    <joint name="%s" value_rad="%s"/>' % (n, fmt(v)) for n, v in joints]
    g.append("  </initial_pose>")
    return g


# ----------------------------------------------------------------------------------------------
# Nao V3.3

NAO_JOINT_ORDER = [
    "HeadYaw", "HeadPitch",
    "LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
    "RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand",
    "LHipYawPitch", "LHipRoll", "LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll",
    "RHipYawPitch", "RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll",
]

# Standing pose (rad). Legs: h + k + a = 0 keeps the foot parallel to the torso (foot flat,
# torso upright). Arms hang down (ShoulderPitch +1.5 rotates the arm from forward to down),
# slightly abducted (LShoulderRoll > 0 / RShoulderRoll < 0 is outward, see the limits
# L -0.31..1.33, R -1.33..0.31), elbows slightly bent as in Aldebaran's rest postures.
NAO_STAND = {
    "HeadYaw": 0.0, "HeadPitch": 0.0,
    "LShoulderPitch": 1.5, "LShoulderRoll": 0.15, "LElbowYaw": -1.2, "LElbowRoll": -0.4,
    "LWristYaw": 0.0, "LHand": 0.0,
    "RShoulderPitch": 1.5, "RShoulderRoll": -0.15, "RElbowYaw": 1.2, "RElbowRoll": 0.4,
    "RWristYaw": 0.0, "RHand": 0.0,
    "LHipYawPitch": 0.0, "LHipRoll": 0.0, "LHipPitch": -0.35, "LKneePitch": 0.7,
    "LAnklePitch": -0.35, "LAnkleRoll": 0.0,
    "RHipYawPitch": 0.0, "RHipRoll": 0.0, "RHipPitch": -0.35, "RKneePitch": 0.7,
    "RAnklePitch": -0.35, "RAnkleRoll": 0.0,
}

# B-Human SimRobot primitives (nao_bhuman_v6_simrobot.csv, left side + centre; mm, deg),
# mapped to the V3.3 URDF link that has the same frame (both put the body frame on the joint
# that creates the body; V3.3 joint origins all have rpy 0 and the same offsets).
#   B-Human body -> V3.3 link
NAO_BHUMAN_SHAPES = {
    # link: list of (kind, dims_mm, xyz_mm, rot_deg (x, y, z) applied as Rz*Ry*Rx, B-Human body)
    "torso": [("box", (100, 120, 190), (0, 0, 20), (0, 0, 0), "Torso")],
    "Head": [("sphere", (62,), (0, 0, 55), (0, 0, 0), "Head")],
    "LBicep": [("box", (140, 50, 50), (25, 0, 0), (45, 0, 10), "LUpperArm")],
    "LForeArm": [("box", (55, 47, 47), (27, 0, 5), (45, 0, 0), "LLowerArm")],
    "l_wrist": [("box", (80, 50, 50), (40, 0, 0), (0, 0, 0), "LWrist")],
    "LHip": [("sphere", (55,), (0, 0, -10), (0, 0, 0), "LHip2")],
    "LThigh": [("box", (70, 70, 90), (0, 0, -50), (0, -10, 0), "LThigh")],
    "LTibia": [("box", (70, 70, 90), (0, 0, -51.375), (0, 10, 0), "LTibia")],
    "l_ankle": [("box", (150, 75, 30), (20, 3, -30.11), (0, 0, 0), "LFoot")],
}

NAO_FINGER_MASS = 0.010  # kg moved from l_wrist/r_wrist into l_gripper/r_gripper (see below)


# MoToFlex drivetrains of the Nao (paper 004, Algorithms 1 and 2; parameter set of
# robot-data/motoflex_nao_parameters.csv). Legs: gear type A (201.3) and B (130.85) as published.
# Head and arms: the same chain with their own ratios (robot-data/nao_motors.csv, naoTransmission
# ratios type3A 150.27, type3B 173.22, type2A 50.61, type2B 36.24); the MoToFlex set only covers the
# leg motor (RE-max 24: 8000 rpm no load, 59.5 mN m stall). The smaller motors (RE-Max 17: 11900 rpm,
# 15.1 mN m; wrist and hand A-max 12: 12300 rpm, 1.52 mN m; nao_motors.csv V3.2 rows) are scaled from
# the leg values so that BOTH datasheet figures keep their ratio to the leg motor's:
#   K_t = K_e = 0.0195 * 8000 / n0        (no-load speed U / K_e scales with n0)
#   R = 6.44 * (K_t / 0.0195) * (59.5 / T_stall)   (stall torque U K_t / R scales with T_stall)
# (Scaling only K_t, by the stall torque, with the leg's R would give the wrists a no-load speed of
# 850 rad/s and a back-EMF 25 times too weak, and they limit-cycle in walks.)
# Their gears take the type A gear scaled by k = joint stall torque / type A's (T_stall sigma,
# 59.5 mN m x 201.3 = 11.98 N m for type A): m_g, D_g and B_g times k keep its natural frequency,
# damping ratio and hull-crossing time l_h B_g / T' for torques in proportion. The unscaled type A
# gear made a torque reversal of the wrist (0.059 N m stall) wait l_h B_g / T' = 15-100 ms, and that
# delay in the position loop made the wrist oscillate with growing amplitude. An estimate, like J_rotor.
# J_rotor (reflected as sigma^2 J_rotor, MuJoCo's armature) is not in the MoToFlex set: 1e-7 kg m^2
# is the order of a 24 mm ironless rotor, 3e-8 and 1e-8 for the 17 mm and 12 mm motors; these are
# estimates for calibration to refine, not data.
# Speed friction: the true back-EMF K_e = K_t (SI: V s/rad = N m/A) and no extra viscous term
# (B_v = 0). The published B (5.346e-2, 3.883e-2) never acted in the original implementation: its
# SingleJoint::act passes the AMotor's dParamVel as the joint speed, which torque control never sets
# (0), so Motor::getTargetTorque subtracted 0 * B. Applied to the real joint speed, that B caps
# the legs at 0.86 rad/s (type A) and 1.18 rad/s (type B), against datasheet no-load speeds of
# 4.2-4.5 and 6.4-7.0 rad/s (nao_motors.csv); with K_e = K_t the no-load speed is
# U_bat / (K_e sigma) = 5.5 and 8.5 rad/s, and open-loop walks go as planned (docs/drivetrain.md).
NAO_DRIVETRAINS = [
    '<!-- Speed friction: true back-EMF K_e = K_t, B_v = 0 (docs/drivetrain.md, "Back-EMF"). -->',
    '<drivetrain name="legs/typeA" type="motoflex" preset="typeA" dry_friction_Nm="1.6617"',
    '            joints="LHipYawPitch LHipRoll LAnkleRoll RHipRoll RAnkleRoll">',
    '  <param name="motor/B_v" value="0"/>',
    '  <param name="motor/K_e" value="0.0195"/>',
    '  <param name="gear/J_rotor" value="1e-7"/>',
    '</drivetrain>',
    '<drivetrain name="legs/typeB" type="motoflex" preset="typeB" dry_friction_Nm="0.79156"',
    '            joints="LHipPitch LKneePitch LAnklePitch RHipPitch RKneePitch RAnklePitch">',
    '  <param name="motor/B_v" value="0"/>',
    '  <param name="motor/K_e" value="0.0195"/>',
    '  <param name="gear/J_rotor" value="1e-7"/>',
    '</drivetrain>',
]
for name, ratio, joints, n0_rpm, stall_mNm, jr in [
        ("upper/type3A", 150.27, "HeadYaw LShoulderPitch LElbowYaw RShoulderPitch RElbowYaw", 11900, 15.1, 3e-8),
        ("upper/type3B", 173.22, "HeadPitch LShoulderRoll LElbowRoll RShoulderRoll RElbowRoll", 11900, 15.1, 3e-8),
        ("arms/type2A", 50.61, "LWristYaw RWristYaw", 12300, 1.52, 1e-8),
        ("arms/type2B", 36.24, "LHand RHand", 12300, 1.52, 1e-8)]:
    k = 1.95e-2 * 8000.0 / n0_rpm
    r = 6.44 * (k / 1.95e-2) * (59.5 / stall_mNm)
    g = (stall_mNm * ratio) / (59.5 * 201.3)  # gear scale: joint stall torque over type A's
    NAO_DRIVETRAINS += [
        '<drivetrain name="%s" type="motoflex" preset="typeA" dry_friction_Nm="%s" joints="%s">' % (name, fmt(round(0.2 * stall_mNm / 59.5, 6)), joints),
        '  <param name="gear/sigma" value="%s"/>' % fmt(ratio),
        '  <param name="motor/K_t" value="%s"/>' % fmt(round(k, 8)),
        '  <param name="motor/R" value="%s"/>' % fmt(round(r, 4)),
        '  <param name="motor/B_v" value="0"/>',
        '  <param name="motor/K_e" value="%s"/>' % fmt(round(k, 8)),
        '  <param name="gear/J_rotor" value="%s"/>' % fmt(jr),
        # D_g before m_g: each value is validated when set, and m_g first would be unstable.
        '  <param name="gear/D_g" value="%s"/>' % fmt(float("%.5g" % (6.1308e6 * g))),
        '  <param name="gear/m_g" value="%s"/>' % fmt(float("%.5g" % (1.0808e-3 * g))),
        '  <param name="gear/B_g" value="%s"/>' % fmt(float("%.5g" % (84.365 * g))),
        '</drivetrain>']
NAO_DRIVETRAINS += [
    "<!-- Soft legs (paper 004, Section 3.3): thighs and tibias as 2 segments joined by springs",
    "     T_B = -D_B alpha per axis, D_B = sc = 2006.5 N m/rad. MoToFlex's flexibleFriction (3.23e6) would",
    "     lock the segments (it exceeds every torque in the robot by orders of magnitude), so the",
    "     segment friction is left at 0 here; set legs/soft/friction to use one. -->",
    '<soft name="legs/soft" links="LThigh LTibia RThigh RTibia" segments="2" D_B_Nm_rad="2006.5"',
    '      damping_Nms_rad="0.1" friction_Nm="0"/>',
]


def mirror_name(n):
    for a, b in (("LShoulder", "RShoulder"), ("LBicep", "RBicep"), ("LElbow", "RElbow"),
                 ("LForeArm", "RForeArm"), ("l_wrist", "r_wrist"), ("LHip", "RHip"),
                 ("LThigh", "RThigh"), ("LTibia", "RTibia"), ("l_ankle", "r_ankle")):
        if n == a:
            return b
    return None


def build_nao(data):
    jc, jrows = read_csv(os.path.join(data, "nao_V33_urdf_joints.csv"))
    lc, lrows = read_csv(os.path.join(data, "nao_V33_urdf_links.csv"))
    bc, _ = read_csv(os.path.join(data, "nao_bhuman_v6_simrobot.csv"))
    dc = [ln[1:].strip() for ln in open(os.path.join(data, "nao_bhuman_dimensions_masscalib.txt"))
          if ln.startswith("#")][:3]
    ldata = {r["link"]: r for r in lrows}
    jdata = {r["joint"]: r for r in jrows}

    for n in NAO_JOINT_ORDER:
        if n not in jdata or jdata[n]["type"] != "revolute":
            raise SystemExit("Nao joint %s missing from the CSV" % n)
    revolute_all = [r["joint"] for r in jrows if r["type"] == "revolute"]
    if sorted(revolute_all) != sorted(NAO_JOINT_ORDER):
        raise SystemExit("unexpected revolute joints in the V3.3 CSV: %s" % revolute_all)

    kept_fixed = ["LLeg_effector_fixedjoint", "RLeg_effector_fixedjoint"]

    # Links: torso (root; base_link is a massless alias and is dropped), the 26 joint children,
    # l_sole / r_sole (massless, fixed).
    link_names = ["torso"] + [jdata[n]["child"] for n in NAO_JOINT_ORDER] + ["l_sole", "r_sole"]
    links = {}
    for n in link_names:
        if n in ldata:
            r = ldata[n]
            I = inertia_mat(*(float(r[k]) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")))
            links[n] = Link(n, float(r["mass"]), [float(r["com_" + k]) for k in "xyz"], I)
        else:
            links[n] = Link(n)
    kept_csv_mass = sum(links[n].mass for n in link_names if links[n].mass is not None)
    dropped = [r for r in lrows if r["link"] not in links]
    dropped_mass = sum(float(r["mass"]) for r in dropped)
    for r in dropped:
        if float(r["mass"]) > 2.5e-6:
            raise SystemExit("would drop real mass: %s" % r["link"])

    # Fingers: the V3.3 file gives l_gripper / r_gripper (the child of the single LHand/RHand
    # joint) a 2e-6 kg placeholder. A servo-driven body of 2 mg (inertia 1e-9) next to the
    # 0.17 kg hand is a mass ratio of 1e5, which an iterative ODE step does not hold stably.
    # We move NAO_FINGER_MASS of the hand (l_wrist) into the finger link, as a small cube on the
    # LHand axis 12 mm beyond the joint, and recompute l_wrist's COM and inertia so that
    # l_wrist + l_gripper together keep exactly the CSV mass, COM and inertia (at LHand = 0).
    for side, wrist, grip, jn in (("L", "l_wrist", "l_gripper", "LHand"), ("R", "r_wrist", "r_gripper", "RHand")):
        W, G = links[wrist], links[grip]
        j = jdata[jn]
        jo = [float(j[k]) for k in "xyz"]
        mg_add = NAO_FINGER_MASS
        g_com_local = [0.012, 0.0, 0.0]
        g_com_w = vadd(jo, g_com_local)                   # in the wrist frame (joint rpy = 0)
        m_tot = W.mass + G.mass
        c_tot = vscale(vadd(vscale(W.com, W.mass), vscale(vadd(jo, G.com), G.mass)), 1.0 / m_tot)
        I_tot = madd(madd(W.inertia, steiner(W.mass, vsub(W.com, c_tot))),
                     madd(G.inertia, steiner(G.mass, vsub(vadd(jo, G.com), c_tot))))
        mg = G.mass + mg_add
        Ig = box_inertia(mg, 0.03, 0.03, 0.03)
        mw = m_tot - mg
        cw = vscale(vsub(vscale(c_tot, m_tot), vscale(g_com_w, mg)), 1.0 / mw)
        Iw = madd(I_tot, madd(madd(Ig, steiner(mg, vsub(g_com_w, c_tot))), steiner(mw, vsub(cw, c_tot))), -1.0)
        check_inertia(wrist, Iw)
        W.mass, W.com, W.inertia = mw, cw, Iw
        G.mass, G.com, G.inertia = mg, g_com_local, Ig
        W.comment = ("V3.3 %s minus %s kg moved into %s (fingers); COM and inertia recomputed so "
                     "that hand + fingers equal the CSV values exactly at %s = 0"
                     % (wrist, fmt(mg_add), grip, jn))
        G.comment = ("fingers: CSV placeholder 2e-06 kg + %s kg taken from %s (one joint, %s)"
                     % (fmt(mg_add), wrist, jn))

    # The V3.3 LHip/RHip inertia violates the triangle inequality of the principal moments
    # (izz 2.55e-4 > ixx + iyy = 8.6e-5; probably a typo in the generated file), which no rigid body
    # can have and which gapsim rejects. For such links we take izz from the V4 file
    # (nao_V40_urdf_links.csv, same source and commit; the V4 hip has the same shape, mass within
    # 4 %), scaled by the V3.3/V4 mass ratio; everything else stays V3.3.
    _, l4rows = read_csv(os.path.join(data, "nao_V40_urdf_links.csv"))
    l4 = {r["link"]: r for r in l4rows}
    fixed_izz = []
    for n in link_names:
        l = links[n]
        if l.mass is not None and not check_inertia(n, l.inertia, strict=False):
            r4 = l4[n]
            izz_old = l.inertia[2][2]
            l.inertia[2][2] = float(r4["izz"]) * l.mass / float(r4["mass"])
            check_inertia(n, l.inertia)
            fixed_izz.append(n)
            l.comment = ("V3.3 values except izz: the V3.3 izz %s violates the triangle inequality "
                         "(ixx + iyy = %s); izz = V4 izz %s x mass ratio %s/%s"
                         % (fmt(izz_old), fmt(l.inertia[0][0] + l.inertia[1][1]), r4["izz"],
                            fmt(l.mass), r4["mass"]))

    # collision shapes
    for n, shapes in NAO_BHUMAN_SHAPES.items():
        for kind, dims, xyz, rot, body in shapes:
            d = [x / 1000.0 for x in dims]
            if kind == "box":
                dd = d
            else:
                dd = d
            p = [x / 1000.0 for x in xyz]
            rpy = [math.radians(a) for a in rot]
            links[n].shapes.append((kind, dd, p, rpy, "B-Human %s: %s" % (body, describe_shape(kind, dims, xyz, rot))))
            m = mirror_name(n)
            if m:
                # mirror y -> -y: position y negated; a rotation R -> M R M, i.e. roll and yaw
                # change sign, pitch stays.
                pm = [p[0], -p[1], p[2]]
                rm = [-rpy[0], rpy[1], -rpy[2]]
                links[m].shapes.append((kind, dd, pm, rm, "B-Human %s mirrored (y -> -y)" % body))
    # the foot box bottom must be the sole
    for foot, sole_j in (("l_ankle", "LLeg_effector_fixedjoint"), ("r_ankle", "RLeg_effector_fixedjoint")):
        kind, dd, p, rpy, c = links[foot].shapes[0]
        bottom = p[2] - dd[2] / 2
        sole = float(jdata[sole_j]["z"])
        if abs(bottom - sole) > 1e-9:
            raise SystemExit("Nao foot box bottom %g is not at the sole %g" % (bottom, sole))

    # joints
    joints = []
    for n in NAO_JOINT_ORDER:
        r = jdata[n]
        lim = (float(r["lower"]), float(r["upper"]), float(r["effort"]), float(r["velocity"]))
        j = Joint(n, "revolute", r["parent"], r["child"], [float(r[k]) for k in "xyz"],
                  [float(r[k]) for k in ("roll", "pitch", "yaw")],
                  [float(r["axis_" + k]) for k in "xyz"], lim)
        if n == "RHipYawPitch":
            j.mimic = ("LHipYawPitch", 1.0, 0.0)
            j.comment = ("One motor drives both HipYawPitch joints. L axis (0, 0.707, -0.707), "
                         "R axis (0, 0.707, 0.707) is the mirror image (an axial vector mirrors "
                         "as -M w), so equal angles are the mirror-symmetric coupling.")
        joints.append(j)
    for n in kept_fixed:
        r = jdata[n]
        j = Joint(n, "fixed", r["parent"], r["child"], [float(r[k]) for k in "xyz"],
                  [float(r[k]) for k in ("roll", "pitch", "yaw")])
        j.comment = "sole frame (massless, merged into %s by the loader), for IK" % r["parent"]
        joints.append(j)
    for j in joints:
        if j.parent not in links or j.child not in links:
            raise SystemExit("dangling Nao joint " + j.name)

    link_list = [links[n] for n in link_names]
    total = sum(l.mass for l in link_list if l.mass is not None)
    if abs(total - kept_csv_mass) > 1e-12:
        raise SystemExit("Nao mass bookkeeping error")

    # standing height
    T = fk(link_names, joints, NAO_STAND, "torso")
    sole_z = min(T["l_sole"][1][2], T["r_sole"][1][2])
    z0 = -sole_z + 0.0005
    m, com = total_com(link_list, T)

    src_lines = [
        "Aldebaran Nao V3.3 (H25), the generation of the MoToFlex paper. Generated by scripts/gen_robots.py.",
        "Kinematics, joint limits (effort N m, velocity rad/s), masses, COMs and inertias about the COM:",
        "  shared/robot-data/nao_V33_urdf_joints.csv and nao_V33_urdf_links.csv, i.e.",
        "  https://github.com/ros-naoqi/nao_robot/blob/6747646/nao_description/urdf/naoV33_generated_urdf/nao.urdf",
        "  (" + jc[0] + ")",
        "Collision shapes: B-Human SimRobot primitives, shared/robot-data/nao_bhuman_v6_simrobot.csv, i.e.",
        "  https://github.com/bhuman/BHumanCodeRelease Config/Scenes/Includes/NaoV6H25.rsi2 @50c83c6a",
        "  (" + bc[0] + "); left side and centre as given, right side mirrored (y -> -y), mm -> m, rotations",
        "  Rz*Ry*Rx in the B-Human body frame, which is the V3.3 link frame (both sit on the joint creating the body).",
        "Ankle to sole: 0.04511 m (V3.3 l_sole/r_sole frames and B-Human foot box bottom 30.11 + 15 mm; B-Human's",
        "  robotDimensions.cfg says 45.19 mm for later Naos: shared/robot-data/nao_bhuman_dimensions_masscalib.txt,",
        "  " + dc[0] + " " + dc[1] + ").",
        "Total mass %s kg = sum of the %d V3.3 CSV links kept (torso, Neck, Head, 2 x (Shoulder, Bicep, Elbow, ForeArm,"
        % (fmt(round(total, 9)), sum(1 for l in link_list if l.mass is not None)),
        "  wrist, gripper, Pelvis, Hip, Thigh, Tibia, AnklePitch, ankle)). Dropped: the massless base_link and sensor",
        "  frames, and %d placeholder links of 2e-06 kg each (16 finger links, 8 FSR frames; %s kg in all)."
        % (len(dropped), fmt(round(dropped_mass, 9))),
        "  %s kg of each hand (l_wrist/r_wrist) is moved into the finger link (l_gripper/r_gripper), whose CSV mass"
        % fmt(NAO_FINGER_MASS),
        "  is a 2e-06 kg placeholder; hand + fingers keep the CSV mass, COM and inertia exactly at LHand = 0.",
        "LHip/RHip izz: the V3.3 value (2.55e-4) violates the triangle inequality; V4 izz (nao_V40_urdf_links.csv,",
        "  same source) scaled by the mass ratio is used instead.",
        "RHipYawPitch mimics LHipYawPitch (multiplier 1): one motor, 25 DOF.",
        "Encoder: Aldebaran documents 12-bit magnetic rotary encoders (2 pi / 4096 = 0.00153 rad) and quotes",
        "  about 0.1 deg precision; 0.0017 rad is used.",
        "Solver/contact: dt 1 ms, QuickStep 15 iterations with SOR w 1.5 (plain: 18, 1.7) (docs/solver.md); ground",
        "  Coulomb friction mu 1.0 as MoToFlex's config/Normal.gnm (github KianRK/MoToFlex; its LowFriction.gnm: 0.25).",
    ]
    header = ["Nao V3.3 robot description for gapsim (URDF + <gapsim>). GENERATED by scripts/gen_robots.py; do not edit.",
              ""] + src_lines + [
        "",
        "Frames: x forward, y left, z up; link frames on the joint axes (all joint rpy = 0 in the zero pose).",
        "Standing pose: COM at (%s, %s, %s) m in the torso frame; torso origin %s m above the soles."
        % (fmt(round(com[0], 4)), fmt(round(com[1], 4)), fmt(round(com[2], 4)), fmt(round(-sole_z, 4))),
    ]

    # RHipYawPitch is a mimic joint: it follows LHipYawPitch.
    g = gapsim_head(src_lines, z0, "0 0 0", [(n, NAO_STAND[n]) for n in NAO_JOINT_ORDER if n != "RHipYawPitch"])
    g += [
        "  <!-- QuickStep, 15 iterations, with an inertia floor of 1e-3 kg m^2 on every body: the light pelvis,",
        "       hip and ankle links (0.07-0.16 kg) otherwise make the solver need ~1000 iterations to hold a",
        "       stance leg (docs/solver.md). With the floor the shipped walks agree with dWorldStep. Plain runs",
        "       (ideal servos, rigid links) take a floor of 4e-3 and 18 iterations: their outcome on",
        "       dWorldStep does not depend on the floor, and QuickStep then agrees with dWorldStep within",
        "       3 % on every shipped motion (fewer iterations fall short of it; scripts/solver_agreement.sh). -->",
        '  <solver dt_s="0.001" stepper="quick" iterations="15" iterations_plain="18" sor_w="1.5" sor_w_plain="1.7" min_inertia_kgm2="0.001" min_inertia_plain_kgm2="0.004" erp="0.2" cfm="1e-5" gravity_m_s2="0 0 -9.81"/>',
        '  <contact mu="1.0" soft_erp="0.2" soft_cfm="1e-5" self_collision="false"/>',
        '  <ground type="plane"/>',
        "  <sensors>",
        '    <imu name="torso" link="torso"/>',
        "    <!-- 12-bit magnetic rotary encoder: 2*pi/4096 = 0.00153 rad; Aldebaran quotes ~0.1 deg = 0.0017 rad -->",
        '    <encoder resolution_rad="0.0017"/>',
        '    <foot_contact name="LFoot" link="l_ankle"/>',
        '    <foot_contact name="RFoot" link="r_ankle"/>',
        "  </sensors>",
        '  <fall tilt_deg="60"/>',
        '  <servo_defaults gain_1_s="20"/>',
    ] + ["  " + ln for ln in NAO_DRIVETRAINS] + [
        "</gapsim>",
    ]
    return {
        "links": link_list, "joints": joints, "header": header, "gapsim": g,
        "total": total, "dropped": dropped, "fixed_izz": fixed_izz, "z0": z0, "com": com, "sole_z": sole_z,
    }


def describe_shape(kind, dims, xyz, rot):
    if kind == "box":
        s = "box %gx%gx%g mm" % dims
    else:
        s = "sphere r%g mm" % dims[0]
    s += " at (%g, %g, %g) mm" % xyz
    if any(rot):
        s += " rot (x %g, y %g, z %g) deg" % rot
    return s


def nao_motions(outdir):
    leg_pitch = ["LHipPitch", "LKneePitch", "LAnklePitch", "RHipPitch", "RKneePitch", "RAnklePitch"]
    driven = [n for n in NAO_JOINT_ORDER if n != "RHipYawPitch"]

    # stand: hold the initial pose 0..5 s
    write_motion_csv(os.path.join(outdir, "stand.csv"), driven,
                     [(0.0, NAO_STAND), (5.0, NAO_STAND)])

    # squat: vertical squat, torso upright: h + k + a = 0 with k = -2h, a = h
    def legs(k):
        h = -k / 2.0
        return {"LHipPitch": h, "LKneePitch": k, "LAnklePitch": h,
                "RHipPitch": h, "RKneePitch": k, "RAnklePitch": h}
    k0, k1 = NAO_STAND["LKneePitch"], 1.6
    squat = [(0.0, legs(k0)), (1.0, legs(k0)), (3.0, legs(k1)), (4.0, legs(k1)),
             (6.0, legs(k0)), (8.0, legs(k0))]
    write_motion_csv(os.path.join(outdir, "squat.csv"), leg_pitch, squat)

    # the same squat as a Webots .motion file; ankle roll columns show the '*' (not given) syntax
    cols = ["LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll",
            "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll"]
    lines = ["#WEBOTS_MOTION,V1.0," + ",".join(cols)]
    for i, (t, v) in enumerate(squat):
        ms = int(round(t * 1000))
        stamp = "%02d:%02d:%03d" % (ms // 60000, (ms // 1000) % 60, ms % 1000)
        vals = []
        for c in cols:
            if c in v:
                vals.append("%.6f" % v[c])
            elif i == 0:
                vals.append("%.6f" % NAO_STAND[c])
            else:
                vals.append("*")
        lines.append("%s,Pose%d,%s" % (stamp, i + 1, ",".join(vals).replace("-0.000000", "0.000000")))
    with open(os.path.join(outdir, "squat.motion"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")

    # wave: right arm raised forward-up and abducted, forearm swings with RElbowRoll
    arm = ["RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand"]
    rest = {n: NAO_STAND[n] for n in arm}
    up = {"RShoulderPitch": -1.2, "RShoulderRoll": -0.35, "RElbowYaw": 0.0, "RElbowRoll": 0.3,
          "RWristYaw": 0.0, "RHand": 0.8}
    write_motion_csv(os.path.join(outdir, "wave.csv"), arm, wave_frames(rest, up, "RElbowRoll", 1.2))


# ----------------------------------------------------------------------------------------------
# BIOLOID GP

BIO_CAD_JOINTS = ["l_hip", "l_thigh", "l_shin", "l_heel", "l_foot",
                  "r_hip", "r_thigh", "r_shin", "r_heel", "r_foot",
                  "l_shoulder", "l_arm", "l_hand", "r_shoulder", "r_arm", "r_hand"]
BIO_JOINT_ORDER = ["l_hip_yaw"] + BIO_CAD_JOINTS[0:5] + ["r_hip_yaw"] + BIO_CAD_JOINTS[5:]

AX18A_MASS = 0.0559         # kg, ax18a_specs.csv weight_AX18A
AX18A_SIZE = (0.032, 0.050, 0.040)
HIP_YAW_MASS = AX18A_MASS   # mass split off the torso into each hip-yaw link

TICK = (5.0 * math.pi / 3.0) / 1024.0


def tick_to_rad(tick, offset, swap):
    s = -1.0 if swap else 1.0
    return s * (tick - 512) * TICK + offset


def build_bioloid(data, real):
    jc, jrows = read_csv(os.path.join(data, "bioloidgp_urdf_joints.csv"))
    lc, lrows = read_csv(os.path.join(data, "bioloidgp_urdf_links.csv"))
    mc, mrows = read_csv(os.path.join(data, "bioloidgp_motor_map.csv"))
    ac, arows = read_csv(os.path.join(data, "ax18a_specs.csv"))
    spec = {r["item"]: r for r in arows}
    if abs(float(spec["weight_AX18A"]["value"]) / 1000.0 - AX18A_MASS) > 1e-12:
        raise SystemExit("AX-18A mass changed")
    effort = float([r for r in arows if r["item"] == "torque_clamp_used"][0]["value"])
    rpm = float(spec["no_load_speed"]["value"])
    velocity = round(rpm * 2 * math.pi / 60.0, 2)
    jdata = {r["joint"]: r for r in jrows}
    ldata = {r["link"]: r for r in lrows}
    if sorted(jdata) != sorted(BIO_CAD_JOINTS):
        raise SystemExit("unexpected BIOLOID joints")
    motor = {r["urdf_joint"]: r for r in mrows}

    links = {}
    for n, r in ldata.items():
        I = inertia_mat(*(float(r[k]) for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")))
        links[n] = Link(n, float(r["mass"]), [float(r["com_" + k]) for k in "xyz"], I)
    cad_total = sum(l.mass for l in links.values())

    joints = {}
    for n in BIO_CAD_JOINTS:
        r = jdata[n]
        joints[n] = Joint(n, "revolute", r["parent"], r["child"], [float(r[k]) for k in "xyz"],
                          [float(r[k]) for k in ("roll", "pitch", "yaw")],
                          [float(r["axis_" + k]) for k in "xyz"],
                          (float(r["lower"]), float(r["upper"]), effort, velocity))

    # --- hip yaw (Dynamixel 8 = left, 7 = right): new joint torso -> <side>_hip_yaw -> hip roll.
    # The yaw joint frame sits at the CAD hip (roll) joint origin with the torso's axes; its axis
    # is torso +z (up): positive yaw turns the toes to the robot's left on both legs. The roll
    # joint keeps its CAD rpy with zero offset from the yaw frame, so at yaw = 0 the kinematics
    # are the CAD kinematics exactly.
    # Mass: the CAD has no yaw joint, so everything that turns with the yaw horn (yaw bracket and
    # the hip-roll servo case) is rigid with the CAD torso. The new link's mass is therefore split
    # off the torso: one AX-18A (0.0559 kg, ax18a_specs.csv) per side, as a 32 x 40 x 50 mm box
    # (upright) centred HIP_YAW_Z_ABOVE above the roll-joint origin and HIP_YAW_Y forward of it
    # (the AX-18A output shaft is not at the case centre). Directly on the axis, or lower, the
    # remaining CAD torso inertia would violate the triangle inequality (the CAD torso evidently
    # does not hold 0.11 kg that far from its COM), so this is the nearest physical placement.
    # Torso COM and inertia are recomputed so that torso + both yaw links equal the CAD torso
    # exactly (mass, COM, inertia): with the yaw held at 0 (as in all real-robot logs) the model
    # is dynamically identical to the CAD, and the total mass is the CAD total.
    torso = links["torso"]
    yaw_links = []
    for side in ("l", "r"):
        hip = joints[side + "_hip"]
        yl = Link(side + "_hip_yaw", HIP_YAW_MASS, None, None)
        yl.pos_in_torso = list(hip.xyz)
        yaw_links.append(yl)
    # servo COM placement in the torso frame (x left, y back, z up)
    m_t, c_t, I_t = torso.mass, torso.com, torso.inertia
    servo_ps = []
    for yl in yaw_links:
        p = [yl.pos_in_torso[0], HIP_YAW_Y, yl.pos_in_torso[2] + HIP_YAW_Z_ABOVE]
        servo_ps.append(p)
    m_r = m_t - sum(yl.mass for yl in yaw_links)
    c_r = vscale(vsub(vscale(c_t, m_t), vadd(vscale(servo_ps[0], yaw_links[0].mass),
                                              vscale(servo_ps[1], yaw_links[1].mass))), 1.0 / m_r)
    Is = box_inertia(HIP_YAW_MASS, *AX18A_SIZE_TORSO_AXES)
    I_r = madd(I_t, steiner(m_r, vsub(c_r, c_t)), -1.0)
    for yl, p in zip(yaw_links, servo_ps):
        I_r = madd(I_r, madd(Is, steiner(yl.mass, vsub(p, c_t))), -1.0)
    check_inertia("torso (after hip-yaw split)", I_r)
    torso.mass, torso.com, torso.inertia = m_r, c_r, I_r
    torso.comment = ("CAD torso minus 2 x %s kg (the hip-yaw links); COM and inertia recomputed so "
                     "that torso + l_hip_yaw + r_hip_yaw equal the CAD torso exactly" % fmt(HIP_YAW_MASS))
    for yl, p in zip(yaw_links, servo_ps):
        yl.com = vsub(p, yl.pos_in_torso)   # yaw link frame = torso axes at the hip joint origin
        yl.inertia = Is
        yl.comment = ("NEW (not in the CAD): hip-yaw link = hip-roll servo + yaw bracket, one AX-18A "
                      "(%s kg) split off the CAD torso" % fmt(HIP_YAW_MASS))
        links[yl.name] = yl
    for side, dxl in (("l", 8), ("r", 7)):
        hip = joints[side + "_hip"]
        yj = Joint(side + "_hip_yaw", "revolute", "torso", side + "_hip_yaw", list(hip.xyz), [0.0, 0.0, 0.0],
                   [0.0, 0.0, 1.0], (-2.1, 2.1, effort, velocity))
        yj.comment = ("NEW: hip yaw, Dynamixel id %d (%s; odd ids are the right side). Not in the CAD "
                      "model or the real-robot logs (held at 512 ticks = 0 there)."
                      % (dxl, "left" if side == "l" else "right"))
        joints[yj.name] = yj
        hip.parent = side + "_hip_yaw"
        hip.xyz = [0.0, 0.0, 0.0]
        hip.comment = "CAD joint (hip roll); parent changed from torso to %s_hip_yaw at the same frame" % side

    total = sum(l.mass for l in links.values())
    if abs(total - cad_total) > 1e-12:
        raise SystemExit("BIOLOID mass bookkeeping error")
    for n, l in links.items():
        check_inertia(n, l.inertia)

    joint_list = [joints[n] for n in BIO_JOINT_ORDER]
    link_names = ["torso"] + [joints[n].child for n in BIO_JOINT_ORDER]

    # --- standing pose from the real robot: final frame of the lean-to-stand motions (legs at
    # 512 ticks: thigh -0.5, shin 1.0, heel -0.5; hands at 312/712 ticks)
    hdr, rows = read_plain_csv(os.path.join(real, "bioloid/motions/lean-to-stand/0.10.csv"))
    last = rows[-1]
    stand = {n: 0.0 for n in BIO_JOINT_ORDER}
    for k, v in zip(hdr[1:], last[1:]):
        stand[k] = float(v)
    # check all lean-to-stand motion files end in the same pose
    mdir = os.path.join(real, "bioloid/motions/lean-to-stand")
    for fn in sorted(os.listdir(mdir)):
        if fn[0].isdigit():
            h2, r2 = read_plain_csv(os.path.join(mdir, fn))
            for k, v in zip(h2[1:], r2[-1][1:]):
                if abs(float(v) - stand[k]) > 1e-9:
                    raise SystemExit("lean-to-stand final poses differ (%s %s)" % (fn, k))

    # --- sole height: measured standing torso height (real-data rising trials that end standing)
    sole_below = sole_depth_from_recordings(real, joint_list, link_names)

    # --- collision boxes, specified in the torso frame at the reference pose (stand with arms at
    # the CAD zero), where every link frame is a permutation of the torso axes (up to the thigh's
    # and shin's 0.024 rad CAD offset): centre (x left, y back, z up) and size along those axes.
    ref = dict(stand)
    for n in ("l_shoulder", "l_arm", "l_hand", "r_shoulder", "r_arm", "r_hand"):
        ref[n] = 0.0
    T = fk(link_names, joint_list, ref, "torso")

    def jpos(n):
        return T[n][1]

    sole_z = min(jpos("l_foot")[2], jpos("r_foot")[2]) - sole_below
    boxes = {}
    for s, sx in (("l", 1.0), ("r", -1.0)):
        hip, thigh, shin, heel, foot = (jpos(s + "_" + k) for k in ("hip", "thigh", "shin", "heel", "foot"))
        # pelvis/hip block (hip-roll + hip-pitch servos) between the roll and pitch axes
        boxes[s + "_hip"] = [((hip[0], 0.0, (hip[2] + thigh[2]) / 2 - 0.008), (0.032, 0.040, 0.040),
                              "hip servo block between the roll and pitch axes")]
        boxes[s + "_thigh"] = [(((thigh[0] + shin[0]) / 2, (thigh[1] + shin[1]) / 2, (thigh[2] + shin[2]) / 2),
                                (0.032, 0.036, abs(thigh[2] - shin[2]) + 0.010),
                                "thigh: hip-pitch axis to knee axis")]
        boxes[s + "_shin"] = [(((shin[0] + heel[0]) / 2, (shin[1] + heel[1]) / 2, (shin[2] + heel[2]) / 2),
                               (0.030, 0.030, abs(shin[2] - heel[2])),
                               "shin: knee axis to ankle-pitch axis")]
        boxes[s + "_heel"] = [((heel[0] + sx * 0.006, 0.008, heel[2] + 0.010), (0.034, 0.046, 0.036),
                               "ankle servo block (ankle pitch + roll servos)")]
        fl = links[s + "_foot"]
        Rf, pf = T[s + "_foot"]
        comw = vadd(pf, mat_vec(Rf, fl.com))
        boxes[s + "_foot"] = [((comw[0], comw[1], sole_z + 0.005), (0.060, 0.100, 0.010),
                               "sole plate 0.10 m long x 0.06 m wide, bottom = sole (%s m below the ankle-roll axis, "
                               "from the measured standing torso height), centred under the foot COM" % fmt(round(sole_below, 4)))]
        arm, hand = jpos(s + "_arm"), jpos(s + "_hand")
        boxes[s + "_arm"] = [((arm[0], (arm[1] + hand[1]) / 2, (arm[2] + hand[2]) / 2 - 0.004),
                              (0.034, 0.034, abs(arm[2] - hand[2]) + 0.025),
                              "upper arm: shoulder-roll axis to elbow axis"),
                             ]
        hl = links[s + "_hand"]
        Rh, ph = T[s + "_hand"]
        hcom = vadd(ph, mat_vec(Rh, hl.com))
        boxes[s + "_hand"] = [((hcom[0], hcom[1], hcom[2]),
                               (0.026, 0.070, 0.030), "forearm/hand (forward at the CAD zero), centred at its COM")]
    # torso and head (the GP head has no servo; it is part of the torso link)
    boxes["torso"] = [((0.0, -0.012, -0.030), (0.092, 0.066, 0.110), "torso: shoulders to pelvis"),
                      ((0.0, -0.008, 0.048), (0.045, 0.045, 0.046), "head")]

    for n, bl in boxes.items():
        R, p = T[n]
        for c, size, cmt in bl:
            local = mat_vec(transpose(R), vsub(list(c), p))
            rpy = mat_to_rpy(transpose(R))
            rpy = [0.0 if abs(a) < 1e-12 else a for a in rpy]
            links[n].shapes.append(("box", list(size), local, rpy, cmt))

    # height of the torso origin above the soles at the standing pose
    Ts = fk(link_names, joint_list, stand, "torso")
    lowest = min(Ts["l_foot"][1][2], Ts["r_foot"][1][2]) - sole_below
    z0 = -lowest + 0.0005

    # whole-body COM at stand (torso frame), for the header
    link_list = [links[n] for n in link_names]
    m, com = total_com(link_list, Ts)
    return {"links": link_list, "joints": joint_list, "stand": stand, "total": total,
            "cad_total": cad_total, "z0": z0, "com": com, "sole_below": sole_below,
            "comments": (jc, lc, mc, ac), "motor": motor, "effort": effort, "velocity": velocity,
            "stand_height": -lowest}


HIP_YAW_Z_ABOVE = 0.030     # m, split-off servo centre above the hip-roll joint origin
HIP_YAW_Y = -0.015          # m, torso frame y of that centre (negative = forward)
# AX-18A box 32 x 50 x 40 mm, stood upright in the pelvis (50 mm along z), in torso axes
AX18A_SIZE_TORSO_AXES = (0.032, 0.040, 0.050)


def sole_depth_from_recordings(real, joint_list, link_names):
    """Distance of the sole below the ankle-roll (l_foot/r_foot) frame origin: the measured
    standing torso height (last frames of the rising trials that end standing) minus the height
    of the ankle-roll origins above... computed with the CAD kinematics and the measured angles
    and torso orientation. The floor is z = 0 in the recordings (approximately)."""
    idx_h, idx = read_plain_csv(os.path.join(real, "bioloid/rising/lean-to-stand.index.csv"))
    ci = {k: i for i, k in enumerate(idx_h)}
    depths = []
    for r in idx:
        if float(r[ci["tilt_last_rad"]]) > 0.06:
            continue
        h, rows = read_plain_csv(os.path.join(real, "bioloid/rising", r[ci["file"]]))
        last = dict(zip(h, (float(x) for x in rows[-1])))
        q = {k.split("/")[0]: v for k, v in last.items() if k.endswith("/q_rad")}
        T = fk(link_names, joint_list, q, "torso")
        R = rotvec_to_mat([last["torso/rotvec_x"], last["torso/rotvec_y"], last["torso/rotvec_z"]])
        t = [last["torso/x_m"], last["torso/y_m"], last["torso/z_m"]]
        zs = [t[2] + mat_vec(R, T[f][1])[2] for f in ("l_foot", "r_foot")]
        depths.append(sum(zs) / 2.0)
    if not depths:
        raise SystemExit("no standing trials found")
    return round(sum(depths) / len(depths), 4)


def build_bioloid_files(bio, data, real, outdir):
    jc, lc, mc, ac = bio["comments"]
    src_lines = [
        "ROBOTIS BIOLOID GP (18 x Dynamixel AX-18A). Generated by scripts/gen_robots.py.",
        "Kinematics, masses, COMs, inertias of the 16 CAD joints/17 links: shared/robot-data/",
        "  bioloidgp_urdf_joints.csv and bioloidgp_urdf_links.csv, i.e.",
        "  https://github.com/sehoonha/bioloidgp/blob/a0850b9/data/urdf/BioloidGP/BioloidGP.URDF",
        "  (" + jc[0] + ").",
        "Joint names, Dynamixel ids, offsets and directions: shared/robot-data/bioloidgp_motor_map.csv",
        "  (" + mc[0] + ").",
        "Servo limits: effort %s N m (torque clamp of the papers' simulators, 25%% of stall) and velocity %s rad/s"
        % (fmt(bio["effort"]), fmt(bio["velocity"])),
        "  (97 rpm no-load) from shared/robot-data/ax18a_specs.csv (" + ac[0] + ").",
        "Standing pose, sole height and squat: shared/real-data/bioloid (github jietan/bioGP @936fb3a, LGPL-3.0):",
        "  motions/lean-to-stand/*.csv final frame (stand), rising/lean-to-stand/*.csv (measured standing torso",
        "  height: sole %s m below the ankle-roll axis), mtn/bio_gp_squat.mtn page 'Squat' (squat)."
        % fmt(bio["sole_below"]),
        "Total mass %s kg = the CAD total (the real robot weighs about 1.5 kg; the CAD lacks e.g. cables, battery)."
        % fmt(round(bio["total"], 9)),
        "ADDED: the hip yaw joints l_hip_yaw (Dynamixel 8) and r_hip_yaw (Dynamixel 7), missing in the CAD, between",
        "  the torso and the hip-roll joints, vertical axis; their links take one AX-18A mass (%s kg) each out of the"
        % fmt(HIP_YAW_MASS),
        "  CAD torso (torso + yaw links = CAD torso exactly), so the total mass is unchanged.",
        "Collision: boxes sized from the kinematics; flat 0.10 x 0.06 m soles.",
        "Solver: dt 1 ms, dWorldStep (QuickStep with 20 iterations leans 2.6 deg when standing; see <solver>).",
        "Frames: the CAD torso frame has x = robot left, y = robot back, z = up. The initial_pose rpy (0 0 pi/2)",
        "  turns it so that the robot faces world +x with world z up. Joint angles are those of the CAD URDF and of",
        "  the real-robot logs (q = s (tick - 512) 5pi/3/1024 + offset).",
    ]
    header = ["BIOLOID GP robot description for gapsim (URDF + <gapsim>). GENERATED by scripts/gen_robots.py; do not edit.",
              ""] + src_lines + [
        "",
        "Joint conventions (CAD frames): hip = hip roll, thigh = hip pitch, shin = knee, heel = ankle pitch,",
        "foot = ankle roll, shoulder = shoulder pitch, arm = shoulder roll, hand = elbow. At the CAD zero the legs",
        "are bent; legs straight is thigh -0.5, shin 1.0, heel -0.5 (512 ticks). Positive shoulder raises the arm",
        "forward; hand 0 has the forearm pointing forward.",
        "Standing pose: whole-body COM at (%s, %s, %s) m in the torso frame; torso origin %s m above the soles."
        % tuple([fmt(round(x, 4)) for x in bio["com"]] + [fmt(round(bio["stand_height"], 4))]),
        "The CAD l_shin joint roll is 2.0943483319483085 (r_shin: 2.0943951023932 = 120 deg): copied as given (4.7e-5 rad).",
    ]
    g = gapsim_head(src_lines, bio["z0"], "0 0 1.5707963267949", [(n, bio["stand"][n]) for n in BIO_JOINT_ORDER],
                    "torso frame: x left, y back, z up; rpy yaw pi/2 makes the robot face world +x, z up")
    g += [
        "  <!-- stepper big (dWorldStep): with its light links (4 g shoulder brackets, 8 g shins next to a",
        "       0.2 kg torso) QuickStep with 20 iterations leaves a solver error that the servos hold as a",
        "       2.6 deg forward lean when standing (40 it.: 1.7 deg, 100 it.: 0.8 deg); dWorldStep stands at",
        "       0.01 deg, like the real robot (final tilt 0.3-0.9 deg), faster than real time. -->",
        '  <solver dt_s="0.001" stepper="big" iterations="20" erp="0.2" cfm="1e-5" gravity_m_s2="0 0 -9.81"/>',
        '  <contact mu="0.8" soft_erp="0.2" soft_cfm="1e-5" self_collision="false"/>',
        '  <ground type="plane"/>',
        "  <sensors>",
        "    <!-- The torso link frame has x left, -y forward, z up (bioGP; real-data README): the IMU's",
        "         sensor frame (x forward, y left) is that turned -90 deg about z, so pitch is pitch. -->",
        '    <imu name="torso" link="torso" rpy="0 0 -1.5707963267949"/>',
        "    <!-- AX-18A: 300 deg / 1024 ticks = 0.29297 deg = 0.0051132 rad per tick (e-manual: 0.29 deg) -->",
        '    <encoder resolution_rad="0.0051132"/>',
        '    <foot_contact name="LFoot" link="l_foot"/>',
        '    <foot_contact name="RFoot" link="r_foot"/>',
        "  </sensors>",
        '  <fall tilt_deg="60"/>',
        '  <servo_defaults gain_1_s="20"/>',
    ]
    joints = " ".join(BIO_JOINT_ORDER)
    # bioloid.urdf: the AX-18A as a voltage-domain drive, identified on the real servo.
    identified = [
        "  <!-- Dynamixel AX-18A in the voltage domain (docs/servo_models.md): the AX firmware's compliance law",
        "       -> duty clipped to the supply -> DC motor with back-EMF -> 254:1 gear -> Coulomb friction, from the",
        "       datasheet preset AX-18 (robot-data/ax18a_specs.csv) with the M1 model identified on the real ankle",
        "       step tests at all three slopes (shared/real-data/bioloid/actuator: armature 0.00215 kg m^2,",
        "       effective no-load speed 11.07 rad/s, delay 2 ms, tau_c 0.060 N m) and compliance slope 128, the",
        "       slope that replays the real lean-to-stand trials best (docs/servo_models.md, \"The compliance",
        "       slope for the robot\"). bioloid_paper_law.urdf has paper 000's servo law instead. The plain",
        "       option of gapsim-cli replaces the drive with ideal servos. -->",
        '  <drivetrain name="servos" type="dynamixel_voltage" preset="AX-18" joints="%s">' % joints,
        '    <param name="servo/armature" value="0.00215"/>',
        '    <param name="servo/no_load_speed" value="11.07"/>',
        '    <param name="servo/delay_s" value="0.002"/>',
        '    <param name="servo/friction/tau_c" value="0.060"/>',
        '    <param name="servo/cw_slope" value="128"/>',
        '    <param name="servo/ccw_slope" value="128"/>',
        "  </drivetrain>",
        "</gapsim>",
    ]
    # bioloid_paper_law.urdf: the same robot with paper 000's servo law, to reproduce the papers.
    paper_law = [
        "  <!-- Paper 000's Dynamixel AX-18A law, identified on the real robot by least squares: tau = -kp (q - qbar)",
        "       - kd qd - kc sgn(qd), kp 9.272 N m/rad, kd 0.3069 N m s/rad, kc 0.03 N m, clamp +-0.75 N m",
        "       (robot-data/ax18a_specs.csv). bioloid.urdf has the voltage-domain AX-18A identified on the real",
        "       servo instead. The plain option of gapsim-cli replaces it with ideal servos. -->",
        '  <drivetrain name="servos" type="dynamixel" joints="%s"/>' % joints,
        "</gapsim>",
    ]
    write_urdf(os.path.join(outdir, "bioloid.urdf"), "bioloid_gp", header, bio["links"], bio["joints"], g + identified)
    write_urdf(os.path.join(outdir, "bioloid_paper_law.urdf"), "bioloid_gp", header, bio["links"], bio["joints"],
               g + paper_law)

    # motions
    stand = bio["stand"]
    mdir = os.path.join(outdir, "motions")
    write_motion_csv(os.path.join(mdir, "stand.csv"), BIO_JOINT_ORDER, [(0.0, stand), (5.0, stand)])

    # squat: bio_gp_squat.mtn page 'Squat', converted with the motor map
    squat_steps = read_mtn_page(os.path.join(real, "bioloid/mtn/bio_gp_squat.mtn"), "Squat")
    motor = bio["motor"]
    frames = [(0.0, dict(stand)), (1.0, dict(stand))]
    t = 1.0
    for ticks, pause, dur in squat_steps:
        pose = dict(stand)
        for n in BIO_JOINT_ORDER:
            if n.endswith("_hip_yaw"):
                dxl = 8 if n.startswith("l") else 7
                if ticks[dxl] != 512:
                    raise SystemExit("squat moves the hip yaw")
                pose[n] = 0.0
                continue
            m = motor[n]
            pose[n] = tick_to_rad(ticks[int(m["dynamixel_id"])], float(m["offset_rad"]), m["swap"] == "1")
        t += dur
        frames.append((t, pose))
        if pause > 0:
            t += pause
            frames.append((t, dict(pose)))
    frames.append((t + 1.0, dict(frames[-1][1])))
    write_motion_csv(os.path.join(mdir, "squat.csv"), BIO_JOINT_ORDER, frames)

    # wave: right arm raised forward-up (r_shoulder > 0 raises forward), waved sideways with r_arm
    # (r_arm > 0 moves the right arm outward), elbow (r_hand) half bent.
    arm = ["r_shoulder", "r_arm", "r_hand"]
    rest = {n: stand[n] for n in arm}
    up = {"r_shoulder": 2.0, "r_arm": 0.3, "r_hand": -0.4}
    write_motion_csv(os.path.join(mdir, "wave.csv"), arm, wave_frames(rest, up, "r_arm", 0.9))
    return frames


def read_mtn_page(path, name):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace").lstrip("\ufeff")
    pages = text.split("page_begin")
    for p in pages[1:]:
        body = p.split("page_end")[0]
        lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
        kv = {}
        steps = []
        for ln in lines:
            k, _, v = ln.partition("=")
            if k == "step":
                tok = v.split()
                steps.append(tok)
            else:
                kv[k] = v
        if kv.get("name") == name:
            rate = float(kv["play_param"].split()[3])
            out = []
            for tok in steps:
                ticks = [int(x) for x in tok[:-2]]
                out.append((ticks, float(tok[-2]) / rate, float(tok[-1]) / rate))
            return out
    raise SystemExit("page %s not found in %s" % (name, path))


# ----------------------------------------------------------------------------------------------
# validation

def validate(path, motions):
    tree = ET.parse(path)
    root = tree.getroot()
    links = {l.get("name"): l for l in root.findall("link")}
    joints = {j.get("name"): j for j in root.findall("joint")}
    masses = {}
    for n, l in links.items():
        m = l.find("inertial/mass")
        masses[n] = float(m.get("value")) if m is not None else 0.0
    children = set()
    for n, j in joints.items():
        c = j.find("child").get("link")
        p = j.find("parent").get("link")
        if c not in links or p not in links:
            raise SystemExit("%s: joint %s refers to a missing link" % (path, n))
        if c in children:
            raise SystemExit("%s: link %s has two parents" % (path, c))
        children.add(c)
        if j.get("type") != "fixed" and masses[c] <= 0:
            raise SystemExit("%s: movable joint %s has a massless child" % (path, n))
    roots = [n for n in links if n not in children]
    if len(roots) != 1:
        raise SystemExit("%s: roots %s" % (path, roots))
    g = root.find("gapsim")
    for jn in g.findall("initial_pose/joint"):
        if jn.get("name") not in joints:
            raise SystemExit("%s: initial_pose joint %s unknown" % (path, jn.get("name")))
    movable = [n for n, j in joints.items() if j.get("type") != "fixed"]
    for mp in motions:
        with open(mp) as f:
            lines = f.read().splitlines()
            if mp.endswith(".csv"):  # a CSV motion may open with comments (`# controller:`)
                lines = [ln for ln in lines if not ln.lstrip().startswith("#")]
            first, rest = lines[0].strip(), lines[1:]
        if mp.endswith(".motion"):
            names = first.split(",")[2:]
        else:
            names = first.split(",")[1:]
            if first.split(",")[0] != "time_s":
                raise SystemExit("%s: first column must be time_s" % mp)
            last_t = -1.0
            for ln in rest:
                if ln.startswith("#"):
                    raise SystemExit("%s: comment line" % mp)
                vals = ln.split(",")
                if len(vals) != len(names) + 1:
                    raise SystemExit("%s: wrong column count" % mp)
                t = float(vals[0])
                if t < last_t:
                    raise SystemExit("%s: time goes backwards" % mp)
                last_t = t
                for jn, v in zip(names, vals[1:]):
                    lim = joints[jn].find("limit")
                    if lim is not None and not (float(lim.get("lower")) - 1e-9 <= float(v) <= float(lim.get("upper")) + 1e-9):
                        raise SystemExit("%s: %s = %s outside the limits" % (mp, jn, v))
        for jn in names:
            if jn not in movable:
                raise SystemExit("%s: joint %s does not exist in %s" % (mp, jn, path))
    total = sum(masses.values())
    return total, movable, roots[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--real", default=DEFAULT_REAL)
    ap.add_argument("--out", default=REPO)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    nao_dir = os.path.join(a.out, "robots", "nao")
    bio_dir = os.path.join(a.out, "robots", "bioloid")
    if not a.check:
        nao = build_nao(a.data)
        write_urdf(os.path.join(nao_dir, "nao.urdf"), "nao_v33", nao["header"], nao["links"], nao["joints"], nao["gapsim"])
        nao_motions(os.path.join(nao_dir, "motions"))
        bio = build_bioloid(a.data, a.real)
        build_bioloid_files(bio, a.data, a.real, bio_dir)
        print("nao: total mass %.6f kg, torso start z %.4f m, standing COM %s" % (nao["total"], nao["z0"], [round(x, 4) for x in nao["com"]]))
        print("bioloid: total mass %.6f kg (CAD %.6f), sole %.4f m below ankle roll, start z %.4f, standing COM %s"
              % (bio["total"], bio["cad_total"], bio["sole_below"], bio["z0"], [round(x, 4) for x in bio["com"]]))
    for urdf, mdir in ((os.path.join(nao_dir, "nao.urdf"), os.path.join(nao_dir, "motions")),
                       (os.path.join(bio_dir, "bioloid.urdf"), os.path.join(bio_dir, "motions")),
                       (os.path.join(bio_dir, "bioloid_paper_law.urdf"), os.path.join(bio_dir, "motions"))):
        ms = sorted(os.path.join(mdir, f) for f in os.listdir(mdir) if f.endswith((".csv", ".motion")))
        total, movable, root = validate(urdf, ms)
        print("%s: ok, root %s, %d movable joints, total mass %.6f kg, motions %s"
              % (os.path.relpath(urdf, a.out), root, len(movable), total, [os.path.basename(m) for m in ms]))


if __name__ == "__main__":
    main()
