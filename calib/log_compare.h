// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Comparing a simulated log with a recorded one: the pure computations behind the GUI's overlays
/// (and usable by the CLI and calibration). No Qt, no ODE.
///
/// A signal is sampled at strictly increasing times t_i with values v_i and read as the
/// piecewise-linear function through those points; it is undefined (NaN) outside [t_0, t_last].
///
/// Offset convention: a second log shown with an offset `o` puts its sample taken at t at t + o on
/// the reference's time axis, so at reference time t it reads other(t - o).
///
///   RMS difference:  sqrt( mean_i ( ref(t_i) - other(t_i - o) )^2 )  over the reference's sample
///                    times t_i where the shifted other is defined (no extrapolation).
///   Alignment:       o* = argmax_o  pearson( ref(t), other(t - o) )  over the overlap, both
///                    resampled on a grid of step dt; o on multiples of dt, refined to a fraction
///                    of dt by a parabola through the peak and its neighbours. Pearson (not the raw
///                    product sum) so that an offset which merely shrinks the overlap, or a
///                    constant bias between the logs, does not win.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace gapsim {

/// A view of one sampled signal: t_s strictly increasing, v the same length.
struct SampledSignal {
  std::span<const double> t_s;
  std::span<const double> v;
};

/// Value of the piecewise-linear signal at t_s; NaN outside [t_s.front(), t_s.back()] or if empty.
double interpolateAt(const SampledSignal& s, double t_s);

/// s shifted by offset_s (value at grid time t is s(t - offset_s)) at each grid time (ascending);
/// NaN where undefined. O(grid + samples).
std::vector<double> resample(const SampledSignal& s, std::span<const double> grid_t_s, double offset_s = 0.0);

/// t0, t0 + dt, ... up to t1 (included when t1 - t0 is a whole number of steps, within 1e-9 dt).
/// Throws std::invalid_argument unless dt_s > 0 and all are finite; empty if t1 < t0.
std::vector<double> uniformGrid(double t0_s, double t1_s, double dt_s);

struct RmsDifference {
  double rms = 0.0;         ///< in the signals' unit; NaN when samples == 0
  std::size_t samples = 0;  ///< reference samples inside the shifted other's span
};

/// RMS of ref(t_i) - other(t_i - other_offset_s) over ref's samples (see the file comment).
RmsDifference rmsDifference(const SampledSignal& ref, const SampledSignal& other, double other_offset_s = 0.0);

struct OffsetEstimate {
  double offset_s = 0.0;     ///< add to other's times to line it up with ref
  double correlation = 0.0;  ///< Pearson correlation at the best grid offset, in [-1, 1]
  std::size_t samples = 0;   ///< grid samples in the overlap at that offset
};

/// The offset in [-max_offset_s, max_offset_s] that best aligns other with ref (file comment).
/// Offsets whose overlap is shorter than min_overlap_fraction of the shorter signal, or where a
/// signal is constant, are not considered; nullopt if none is left. Throws std::invalid_argument
/// unless dt_s > 0, max_offset_s >= 0 and min_overlap_fraction is in (0, 1].
std::optional<OffsetEstimate> estimateOffset(const SampledSignal& ref, const SampledSignal& other, double dt_s,
                                             double max_offset_s, double min_overlap_fraction = 0.5);

}  // namespace gapsim
