#!/usr/bin/env python3
"""Writes nao_foot_l.stl (binary STL) for bench/mesh_collision.cpp: a Nao-like left foot with the
bounding box of the shipped robot's foot box (B-Human's 150 x 75 x 30 mm, centred at its origin),
a rounded outline (toe radius 30 mm, heel radius 20 mm, 16 segments per corner) and a 5 mm fillet
along the sole edge (3 steps): 5 rings of 64 vertices, 640 triangles, as a
CAD-exported foot. The right foot is the same file with scale="1 -1 1".
Run from this directory: python3 make_nao_foot.py (standard library only)."""
import math, struct

L, W, H = 0.150, 0.075, 0.030
corners = [(L / 2 - 0.030, W / 2 - 0.030, 0.030), (-L / 2 + 0.020, W / 2 - 0.020, 0.020),
           (-L / 2 + 0.020, -W / 2 + 0.020, 0.020), (L / 2 - 0.030, -W / 2 + 0.030, 0.030)]
start = [0.0, 0.5 * math.pi, math.pi, 1.5 * math.pi]
N = 16
def outline(inset):
    pts = []
    for (cx, cy, r), a0 in zip(corners, start):
        for k in range(N):
            a = a0 + 0.5 * math.pi * k / (N - 1)
            pts.append((cx + (r - inset) * math.cos(a), cy + (r - inset) * math.sin(a)))
    return pts
fillet = 0.005
rings = [(outline(0.0), H / 2)]  # top
for s in range(4):  # from the side down through the fillet to the sole
    t = 0.5 * math.pi * s / 3
    rings.append((outline(fillet * (1 - math.cos(t))), -H / 2 + fillet * (1 - math.sin(t))))
tris = []
n = len(rings[0][0])
for (ra, za), (rb, zb) in zip(rings, rings[1:]):
    for i in range(n):
        j = (i + 1) % n
        a, b = (*ra[i], za), (*ra[j], za)
        c, d = (*rb[j], zb), (*rb[i], zb)
        tris += [(a, d, c), (a, c, b)]
for pts, z, up in ((rings[0][0], H / 2, True), (rings[-1][0], -H / 2, False)):
    c = (0.0, 0.0, z)
    for i in range(n):
        j = (i + 1) % n
        p, q = (*pts[i], z), (*pts[j], z)
        tris.append((c, p, q) if up else (c, q, p))
def normal(a, b, c):
    u = [b[k] - a[k] for k in range(3)]; v = [c[k] - a[k] for k in range(3)]
    m = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    l = sum(x * x for x in m) ** 0.5 or 1.0
    return [x / l for x in m]
with open("nao_foot_l.stl", "wb") as f:
    f.write(b"gapsim bench: Nao-like foot".ljust(80, b" "))
    f.write(struct.pack("<I", len(tris)))
    for a, b, c in tris:
        f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))
print(len(tris), "triangles")
