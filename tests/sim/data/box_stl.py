# SPDX-License-Identifier: BSD-3-Clause
"""Binary STL files made of axis-aligned boxes: the meshes of the test description packages
(op3_like, t1_like), written by their generators so that no third-party mesh is copied."""
import struct


def box_tris(c, s):
    """The 12 triangles of the box with centre c and size s (metres), outward winding."""
    (cx, cy, cz), (sx, sy, sz) = c, s
    x0, x1, y0, y1, z0, z1 = cx - sx / 2, cx + sx / 2, cy - sy / 2, cy + sy / 2, cz - sz / 2, cz + sz / 2
    t = []

    def quad(a, b, c_, d):
        t.append((a, b, c_))
        t.append((a, c_, d))
    quad((x0, y0, z0), (x0, y1, z0), (x1, y1, z0), (x1, y0, z0))
    quad((x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1))
    quad((x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1))
    quad((x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0))
    quad((x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0))
    quad((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1))
    return t


def normal(a, b, c):
    """Unit normal of the triangle a, b, c (counter-clockwise seen from outside)."""
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = sum(x * x for x in n) ** 0.5
    return [x / length for x in n]


def write_stl(path, boxes, header):
    """A binary STL of the boxes [(centre, size), ...]; `header` (bytes) fills the 80-byte header."""
    tris = [t for c, s in boxes for t in box_tris(c, s)]
    with open(path, "wb") as f:
        f.write(header.ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for a, b, c in tris:
            f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))
