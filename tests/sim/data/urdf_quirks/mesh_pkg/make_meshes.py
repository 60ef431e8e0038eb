#!/usr/bin/env python3
"""Writes the meshes of this test package (standard library only):
  meshes/foot.stl        binary STL: a foot 0.14 x 0.07 x 0.03 m whose sole (z = -0.03 .. 0 in its
                         frame, i.e. the sole at z = -0.03) is a 6 x 4 grid of vertices, shifted
                         0.03 m forward of the ankle: many coplanar sole vertices, off-centre;
  meshes/shin.stl        ASCII STL: a 0.04 x 0.04 x 0.2 m bar from z = 0 down to z = -0.2;
  meshes/head.dae        COLLADA, <unit meter="0.001">: a 100 mm cube (0.1 m) in two materials.
Run from this directory: python3 make_meshes.py"""
import struct


def box_tris(lo, hi, nx=1, ny=1):
    """Triangles of an axis-aligned box, outward counter-clockwise; the bottom face as an nx x ny grid."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    t = []
    def quad(a, b, c, d):
        t.append((a, b, c)); t.append((a, c, d))
    for i in range(nx):
        for j in range(ny):
            xa, xb = x0 + (x1 - x0) * i / nx, x0 + (x1 - x0) * (i + 1) / nx
            ya, yb = y0 + (y1 - y0) * j / ny, y0 + (y1 - y0) * (j + 1) / ny
            quad((xa, ya, z0), (xa, yb, z0), (xb, yb, z0), (xb, ya, z0))  # bottom, normal -z
    quad((x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1))  # top
    quad((x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1))  # -y
    quad((x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0))  # +y
    quad((x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0))  # -x
    quad((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1))  # +x
    return t


def normal(a, b, c):
    u = [b[k] - a[k] for k in range(3)]; v = [c[k] - a[k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    l = sum(x * x for x in n) ** 0.5
    return [x / l for x in n]


foot = box_tris((-0.04, -0.035, -0.03), (0.10, 0.035, 0.0), nx=5, ny=3)
with open("meshes/foot.stl", "wb") as f:
    f.write(b"gapsim test foot, binary STL".ljust(80, b" "))
    f.write(struct.pack("<I", len(foot)))
    for a, b, c in foot:
        f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))

shin = box_tris((-0.02, -0.02, -0.2), (0.02, 0.02, 0.0))
with open("meshes/shin.stl", "w") as f:
    f.write("solid shin\n")
    for a, b, c in shin:
        f.write("  facet normal %g %g %g\n    outer loop\n" % tuple(normal(a, b, c)))
        for p in (a, b, c):
            f.write("      vertex %g %g %g\n" % p)
        f.write("    endloop\n  endfacet\n")
    f.write("endsolid shin\n")

# COLLADA: a cube of 100 (mm), the top face in one material, the rest in another.
cube = box_tris((-50, -50, -50), (50, 50, 50))
top, rest = cube[2:4], cube[:2] + cube[4:]
def tri_block(tris, mat):
    idx = " ".join(str(i) for i in range(3 * len(tris)))
    return f'<triangles material="{mat}" count="{len(tris)}"><input semantic="VERTEX" source="#{mat}-v" offset="0"/><p>{idx}</p></triangles>'
def source(name, tris):
    pts = " ".join("%g %g %g" % p for t in tris for p in t)
    n = 3 * len(tris)
    return (f'<source id="{name}-p"><float_array id="{name}-a" count="{3 * n}">{pts}</float_array>'
            f'<technique_common><accessor source="#{name}-a" count="{n}" stride="3"><param name="X" type="float"/>'
            f'<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>'
            f'<vertices id="{name}-v"><input semantic="POSITION" source="#{name}-p"/></vertices>')
def effect(name, rgba):
    return (f'<effect id="{name}-fx"><profile_COMMON><technique sid="common"><lambert><diffuse>'
            f'<color>{rgba}</color></diffuse></lambert></technique></profile_COMMON></effect>')
dae = f'''<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis></asset>
  <library_effects>{effect("red", "0.8 0.1 0.1 1")}{effect("white", "0.9 0.9 0.9 1")}</library_effects>
  <library_materials><material id="red-mat" name="red"><instance_effect url="#red-fx"/></material>
    <material id="white-mat" name="white"><instance_effect url="#white-fx"/></material></library_materials>
  <library_geometries>
    <geometry id="top-g" name="top"><mesh>{source("top", top)}{tri_block(top, "top")}</mesh></geometry>
    <geometry id="rest-g" name="rest"><mesh>{source("rest", rest)}{tri_block(rest, "rest")}</mesh></geometry>
  </library_geometries>
  <library_visual_scenes><visual_scene id="scene">
    <node id="top-n"><instance_geometry url="#top-g"><bind_material><technique_common>
      <instance_material symbol="top" target="#red-mat"/></technique_common></bind_material></instance_geometry></node>
    <node id="rest-n"><instance_geometry url="#rest-g"><bind_material><technique_common>
      <instance_material symbol="rest" target="#white-mat"/></technique_common></bind_material></instance_geometry></node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
'''
with open("meshes/head.dae", "w") as f:
    f.write(dae)
