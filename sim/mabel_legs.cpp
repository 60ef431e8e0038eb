// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mabel_legs.h"

#include <stdexcept>
#include <string>

namespace gapsim {
namespace {

template <class Sim, class Leg>
Leg* findLeg(Sim& sim, int leg) {
  int k = 0;
  for (int i = 0; i < sim.coupledDriveCount(); ++i)
    if (auto* d = dynamic_cast<Leg*>(&sim.coupledDrive(i)); d && k++ == leg) return d;
  return nullptr;
}

}  // namespace

int mabelLegCount(const Simulation& sim) {
  int n = 0;
  for (int i = 0; i < sim.coupledDriveCount(); ++i)
    n += dynamic_cast<const motorgear::MabelLegDrive*>(&sim.coupledDrive(i)) != nullptr;
  return n;
}

motorgear::MabelLegDrive& mabelLeg(Simulation& sim, int leg) {
  if (auto* d = findLeg<Simulation, motorgear::MabelLegDrive>(sim, leg)) return *d;
  throw std::out_of_range("mabelLeg: no MABEL leg " + std::to_string(leg));
}

const motorgear::MabelLegDrive& mabelLeg(const Simulation& sim, int leg) {
  if (auto* d = findLeg<const Simulation, const motorgear::MabelLegDrive>(sim, leg)) return *d;
  throw std::out_of_range("mabelLeg: no MABEL leg " + std::to_string(leg));
}

}  // namespace gapsim
