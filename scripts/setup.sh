#!/usr/bin/env bash
# Installs what gapsim needs from Debian's packages (only what is missing) and configures and
# builds it in ./build. Sourced by run.sh and test.sh; usable on its own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES=(build-essential cmake pkg-config libode-dev libeigen3-dev libtinyxml2-dev
          libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
          # calibration on clusters: `mpirun -np N gapsim-cli calibrate --backend mpi` (calib/)
          libopenmpi-dev openmpi-bin
          # robot meshes (sim/mesh.cpp): assimp reads STL/COLLADA/OBJ files that URDFs name,
          # qhull (reentrant) makes the convex hulls they collide with
          libassimp-dev libqhull-dev
          # output-error refinement of identified actuator models (gapsim-cli identify chirp --refine)
          libceres-dev
          # the desktop application (app/gui): Qt6 Widgets/OpenGL/Charts, and Mesa + Xvfb so it
          # also renders (software OpenGL) on machines without a display: CI and screenshots
          qt6-base-dev libqt6opengl6-dev qt6-charts-dev libgl-dev libglx-dev
          libgl1-mesa-dri libglx-mesa0 xvfb xauth
          # gapsim-cli identify servo draws its figure (PNG) with gnuplot
          gnuplot-nox
          # the tree's format (.clang-format), checked by ctest format_check
          clang-format)
# Optional: installed when the distribution has them, and what needs them is built only when found.
OPTIONAL_PACKAGES=(
          # the MuJoCo reference of scripts/bench_vs_mujoco.sh (bench/, gapsim-mujoco-walk)
          libmujoco-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for p in "${OPTIONAL_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  # apt-cache show succeeds only for a package this distribution knows (MuJoCo: Debian 12 and later)
  apt-cache show "$p" >/dev/null 2>&1 && missing+=("$p") || echo "gapsim setup: optional package $p not available, skipped"
done
if ((${#missing[@]})); then
  echo "gapsim setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${GAPSIM_BUILD_DIR:-build}
JOBS=${GAPSIM_JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
# GAPSIM_BUILD_TARGETS: only these targets (space-separated; scripts/test.sh --tsan), else all.
read -r -a targets <<< "${GAPSIM_BUILD_TARGETS:-}"
if ((${#targets[@]})); then
  cmake --build "$BUILD_DIR" -j"$JOBS" --target "${targets[@]}"
else
  cmake --build "$BUILD_DIR" -j"$JOBS"
fi
