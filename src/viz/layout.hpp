// Where each point of a board is drawn in 3D space, per board kind.
//
//  - Lattices of 1 to 3 axes: point (x, y, z) at its coordinates, one unit apart.
//  - Lattices of 4 axes and more: a 3D cross-section. Three axes are drawn; every hidden axis
//    is fixed at one value (its "slice"). In "small multiples" mode one hidden axis is laid
//    out instead: its slices stand side by side along the screen's x direction.
//  - Hex boards: flat, rows horizontal, one unit between neighbouring cells.
//  - DOT boards: the `pos` attributes when every node has one, otherwise a layout in 3D computed
//    with Boost.Graph: Kamada-Kawai for connected graphs up to 600 points, Fruchterman-Reingold
//    otherwise (both start from seeded random positions, so always the same picture).
//    Both are scaled so that the median edge is one unit long.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/core/topology.hpp"

namespace tanbo::viz {

// Which part of a lattice of 4+ axes is drawn. Ignored for other boards.
struct ViewSpec {
  std::array<int, 3> axes{0, 1, 2};  // the drawn axes (0-based; x = 0, y = 1, z = 2, w = 3...)
  std::vector<std::uint32_t> slice;  // per axis, 0-based value of each hidden axis
  int multiples_axis = -1;           // hidden axis laid out as small multiples, -1 = none
};

// Name of a lattice axis: x, y, z, w, then a5, a6, ... (1-based after w).
std::string axis_name(int axis);
// Reads an axis name (x, y, z, w, a5 or a plain 1-based number) for a lattice of `dims`
// axes; throws tanbo::Error naming the valid axes otherwise.
int parse_axis(std::string_view text, std::size_t dims);
// Parses "--axes x,y,w" (three different axes) into view.axes.
void parse_axes(std::string_view text, const Topology& topo, ViewSpec& view);
// Parses "--slice z=3[,v=2]" (1-based values of hidden axes) into view.slice.
void parse_slices(std::string_view text, const Topology& topo, ViewSpec& view);
// Makes `view` fit the topology: default axes, a slice entry per axis (middle of a hidden axis
// when not set), the multiples axis a hidden one. Throws tanbo::Error when the view asks for
// something the board does not have (an axis it lacks, the same axis twice, a slice out of
// range, or a slice on a drawn axis).
void normalise_view(const Topology& topo, ViewSpec& view);
// The hidden axes of a lattice under `view` (after normalise_view), in increasing order.
std::vector<int> hidden_axes(const Topology& topo, const ViewSpec& view);

// The drawn points.
struct Layout {
  std::vector<std::array<double, 3>> point;  // per vertex: where it is drawn
  std::vector<char> visible;                 // per vertex: drawn in this view
  int panels = 1;                            // number of small-multiple panels
  int space_dims = 3;                        // 1, 2 or 3: how many directions the layout uses
};

// Small multiples stand side by side along this horizontal direction, which the camera sees
// as its right-hand direction, so the panels form a straight row on screen.
inline constexpr std::array<double, 3> kPanelDirection{0.98396, 0.17836, 0.0};  // (1, 0.18)
// Space between two panels, in units (room for the first panel's y labels).
inline constexpr double kPanelGap = 3.0;

// Computes where every vertex goes. DOT layouts without `pos` are computed here.
Layout compute_layout(const Topology& topo, const ViewSpec& view);

// 3D layout of a graph computed with Boost.Graph in a cube topology from seeded random
// positions: kamada_kawai_spring_layout for connected graphs up to 600 vertices, else
// fruchterman_reingold_force_directed_layout; scaled so the median edge length is 1.
std::vector<std::array<double, 3>> force_layout_3d(const Graph& g, unsigned seed = 1);

// Whether the edge {a, b} of a lattice is drawn as a short segment (false for the wrap-around
// edges of a torus, which would cross the whole picture).
bool short_edge(const Topology& topo, Vertex a, Vertex b);

}  // namespace tanbo::viz
