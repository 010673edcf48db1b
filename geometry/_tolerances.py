"""Every tolerance and error bound the library uses, each with the reason it exists.

The intersection predicates accept no tolerance: they answer for the exact values of the float
inputs. The bounds below only say where a rounded computation might disagree with the exact
one; those cases are then decided again exactly (``_exact``), so a looser bound costs time,
never correctness, and a bound that is too tight would be a bug.
"""

import numpy as np

#: Largest accepted ``max |axes @ axes.T - I|`` for an OBB's rows (and a rigid matrix's 3x3 part).
#: Axes built from float rotations (pyrr, Euler angles) are orthonormal only to ~1e-15; axes typed
#: in or stored as float32 to ~1e-7. Past 1e-6 the box is sheared or scaled and the slab test in
#: the box frame would answer for a different box, so we refuse rather than guess.
ORTHONORMAL_ATOL = 1e-6

#: The unit of rounding (half an ulp of 1) of each compute dtype.
UNIT_ROUNDOFF = {np.float64: 2.0**-53, np.float32: 2.0**-24}

#: The slab filters (segment_box, ray_box): a slab parameter ``t = (plane - o) * (1 / d)``
#: takes three roundings (the difference, the reciprocal, the product), so it is within
#: ``3.0000001 u |t|`` of the exact one (u = 2**-53), plus 2**-1075 where the product underflows.
#: max / min keep that bound, so ``exit - entry`` (also rounded) decides its sign for sure once
#: ``|exit - entry| > SLAB_RELATIVE (|entry| + |exit|) + SLAB_ABSOLUTE``. 2**-50 is 8u: 2.6x the
#: bound, so the rounding of the bound itself needs no care; the absolute part is 16x.
SLAB_RELATIVE = 2.0**-50
SLAB_ABSOLUTE = 2.0**-1070

#: The slab filters trust ``1 / d`` only for ``RECIPROCAL_MIN <= |d| <= RECIPROCAL_MAX``: below,
#: the reciprocal overflows; above, it is subnormal and loses relative precision.
RECIPROCAL_MIN = 2.0**-1021
RECIPROCAL_MAX = 2.0**1021

#: Absolute slack for quantities that may have underflowed into subnormals, whose rounding
#: error is absolute (2**-1074 in float64, 2**-149 in float32), not relative.
UNDERFLOW_SLACK = {np.float64: 2.0**-1000, np.float32: 2.0**-120}

#: Triangle vs box: a separating axis's margin is a near-tie when within this many units of
#: rounding times R**2 (the nine box-axis x edge axes) or R**3 (the triangle's normal), R the
#: largest coordinate relative to v0. A first-order count of the roundings gives about 40 and
#: 48 (see ``triangle_box._separating_axes``); these allow 3x and 5x that.
TRIANGLE_EDGE_AXIS_BOUND = 128.0
TRIANGLE_NORMAL_BOUND = 256.0
