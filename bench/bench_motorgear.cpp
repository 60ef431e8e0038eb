// SPDX-License-Identifier: BSD-3-Clause
// Gear integrators, ns per 1 ms frame: kExact against kSubsteps at N = 100 and N = 1000, for the
// MoToFlex type-A and type-B gears, both variants. Drive: a slowly varying motor torque with a
// torque reversal about every 0.25 s (T' up to ~2.8 N m type A, ~1.8 N m type B); the coupled
// variant also sees a joint moving at up to 0.5 rad/s. Figures only, nothing is asserted.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "motorgear/gear.h"

namespace {

using gapsim::motorgear::Gear;

constexpr double kPi = 3.14159265358979323846;
constexpr int kFrames = 2000;  // 2 s of drive, replayed cyclically

struct Drive {
  std::vector<double> T_M, q, qd;
};

const Drive& drive() {
  static const Drive d = [] {
    Drive r;
    double q = 0.0;
    for (int k = 0; k < kFrames; ++k) {
      const double t = k * 1e-3;
      r.T_M.push_back(0.01 * std::sin(2 * kPi * 2.0 * t) + 0.004 * std::sin(2 * kPi * 13.0 * t));
      const double qd = 0.5 * std::sin(2 * kPi * 1.5 * t);
      r.q.push_back(q);
      r.qd.push_back(qd);
      q += qd * 1e-3;
    }
    return r;
  }();
  return d;
}

// args: type (0 A, 1 B), variant (0 motoflex2011, 1 coupled), integrator (0 exact, else N).
void BM_GearFrame(benchmark::State& st) {
  Gear::Params p = st.range(0) == 0 ? Gear::Params::typeA() : Gear::Params::typeB();
  p.variant = static_cast<Gear::Variant>(st.range(1));
  if (st.range(2) == 0) {
    p.integrator = Gear::Integrator::kExact;
  } else {
    p.integrator = Gear::Integrator::kSubsteps;
    p.substeps = static_cast<int>(st.range(2));
  }
  Gear g(p);
  const Drive& d = drive();
  g.reset(d.q[0], d.qd[0]);
  int k = 0;
  long events = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(g.step(1e-3, d.T_M[k], d.q[k], d.qd[k]));
    events += g.state().events;
    if (++k == kFrames) k = 0;
  }
  st.counters["events/frame"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kAvgIterations);
  st.SetLabel(std::string(st.range(0) == 0 ? "typeA " : "typeB ") + (st.range(1) == 0 ? "motoflex2011 " : "coupled ") +
              (st.range(2) == 0 ? "exact" : "substeps " + std::to_string(st.range(2))));
}

BENCHMARK(BM_GearFrame)
    ->ArgNames({"type", "variant", "N"})
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 100, 1000}})
    ->Unit(benchmark::kNanosecond);

}  // namespace
