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

#: The slab filters (segment_aabb, ray_aabb): a slab parameter ``t = (plane - o) * (1 / d)``
#: takes three roundings (the difference, the reciprocal, the product), so it is within
#: ``3.0000001 u |t|`` of the exact one (u = 2**-53), plus 2**-1075 where the product underflows.
#: max / min keep that bound, so ``exit - entry`` (also rounded) decides its sign for sure once
#: ``|exit - entry| > SLAB_RELATIVE (|entry| + |exit|) + SLAB_ABSOLUTE``. 2**-50 is 8u: 2.6x the
#: bound, so the rounding of the bound itself needs no care. The absolute part is far above the
#: underflow's 2**-1075 and a normal number: a subnormal constant in every bound slows a
#: vectorised loop several times over on x86 (a microcode assist per use).
SLAB_RELATIVE = 2.0**-50
SLAB_ABSOLUTE = 2.0**-1020

#: The slab filters trust ``1 / d`` only for ``RECIPROCAL_MIN <= |d| <= RECIPROCAL_MAX``: below,
#: the reciprocal overflows; above, it is subnormal and loses relative precision.
RECIPROCAL_MIN = 2.0**-1021
RECIPROCAL_MAX = 2.0**1021

#: Absolute slack for quantities that may have underflowed into subnormals, whose rounding
#: error is absolute (2**-1074 in float64, 2**-149 in float32), not relative.
UNDERFLOW_SLACK = {np.float64: 2.0**-1000, np.float32: 2.0**-120}

# --- the float filters of the triangle and OBB queries (one kernel per query) ------------------
# Each filter computes in float64 (float32 data are widened exactly) and compares a margin m with
# a bound B on |m - m_exact|: m >= B proves m_exact >= 0, m < -B proves m_exact < 0, anything
# between is doubt (decided again exactly). u is the float64 unit of rounding. The derivations
# are first-order counts; each constant allows at least 1.3x the count, which covers the
# second-order terms (u**2 and smaller) many times over.

#: float64's unit of rounding, 2**-53 (half an ulp of 1).
FILTER_UNIT = 2.0**-53

#: The filters certify nothing outside this range of scales (largest coordinate, largest edge
#: component, offset from an OBB's centre): there, a product of up to three of them can neither
#: overflow nor lose its error bound to underflow (an underflowed product errs by at most 2**-1075
#: absolutely, far below u * SCALE_MIN**3). Inputs outside it are doubt, i.e. decided exactly.
FILTER_SCALE_MIN = 2.0**-300
FILTER_SCALE_MAX = 2.0**300

#: Triangle vs box, a box-axis x edge axis a = (a1, a2) (``_sat.edge_axis_margin``; the segment
#: vs OBB's axes too): with coordinates at most M, edge components at most F and vertex and box
#: coordinates known within E (0 for an AABB; for an OBB the frame change's error, plus that of
#: the box's bounds where they are rotated too: it shifts every projection as a vertex error
#: would), a vertex's projection p or q errs by at most e_v = 4.001 u F M + 2 F E (|p| <= 2 F M);
#: the margin is the sum of the radii less the distance of the midpoints, computed doubled from
#: twice the box's centre K and half extent R (each within 2 (u M + E) per coordinate):
#: p + q and |p - q| err by 2 e_v + 4 u F M each; a . K - (p + q) by 4 u F M + 4 F E from K,
#: 2 e_v + 4 u F M from p + q and 18 u F M of its own roundings (it is at most 8 F M);
#: |a1| R1 + |a2| R2 + |p - q| by as much (R, |p - q|, roundings); the difference of the two
#: rounds by 16 u F M: 4 e_v + 68 u F M + 8 F E = 84.004 u F M + 16 F E doubled, so
#: 42.002 u F M + 8 F E <= 42.002 u F M + 16 E M for the margin itself (F <= 2 M).
#: B = TRIANGLE_EDGE_BOUND * (u F + E) * M, compared with the doubled margin as 2 B.
TRIANGLE_EDGE_BOUND = 56.0

#: Triangle vs box, the triangle's normal n = f0 x f1: |n - n_exact| <= 8 E F + 8 u F**2 per
#: component (|n_i| <= 2 F**2); n . a errs by 40 u F**2 M + 24 E F M + 6 E F**2 (from n, a and
#: 16 u F**2 M of roundings). Doubled, as the edge axes: n . K - 2 n . a errs by 60 u F**2 M +
#: 48 E F M + 12 E F**2 from n and K, twice n . a's error, and 72 u F**2 M of its own roundings
#: (it is at most 24 F**2 M); |n| . R by 60 u F**2 M + 48 E F M + 12 E F**2 from n and R and
#: 32 u F**2 M of roundings (at most 12 F**2 M); their difference rounds by 36 u F**2 M:
#: 340 u F**2 M + 144 E F M + 36 E F**2 doubled, so 170 u F**2 M + 72 E F M + 18 E F**2 <=
#: (170 u F + 108 E) F M for the margin itself.
#: B = TRIANGLE_PLANE_BOUND * (u F + E) * F * M, compared with the doubled margin as 2 B.
TRIANGLE_PLANE_BOUND = 224.0

#: OBB frame change u_i = axes[i] . (p - center), p - center rounded once and the dot product
#: three times: |u_i - exact| <= 4.001 u sum_j |axes[i, j]| |p_j - center_j|, with entries of
#: axes within 1 + 1e-6 of a unit row. E = OBB_FRAME_BOUND * u * sum_j |p_j - center_j| (or per
#: axis with |axes[i, j]| when that sum is needed exactly: a zero sum means no rounding at all).
#: The filters' frame about a point q of the query, x'_i = axes[i] . (x - q), is such a change
#: too, and the box's bounds there, axes[i] . (center - q) +- half_size_i, err by at most
#: 4.001 u |center - q|_1 + 1.0001 u |bound|: with M the largest coordinate or bound in that
#: frame, E = OBB_FRAME_BOUND * u * (|x - q|_1 + |center - q|_1 + M) covers a point and a bound
#: together.
OBB_FRAME_BOUND = 5.0

#: Ray vs OBB, exact-enough t: the local origin U = axes[i] . (origin - center) and direction
#: W = axes[i] . direction are summed in double-double (TwoSum, Dekker's TwoProduct) with an
#: error of at most 22 u**2 T (T the sum of the products' magnitudes); the numerator
#: N = +-half_size - U adds u**2 (|N| + 2 T), and the quotient's roundings of N's low part
#: (U's, up to 4.01 u T) act as 16.1 u**2 T more (``_double_double._plane_t``): 40.1 u**2 T in all.
#: B = RAY_DD_BOUND * u**2 * (T + |half_size|).
RAY_DD_BOUND = 64.0

#: Ray vs OBB: a double-double quotient N / W, formed as N times 1 / W in double-double
#: (``_double_double._plane_t``), rounds to within u |t| (half an ulp) plus 22.9 u**2 |t|
#: beyond what RAY_DD_BOUND counts; this many u**2 are allowed for that second-order part.
RAY_DIVISION_BOUND = 32.0

#: Ray vs OBB, the bounds on a plane's t (``ray_obb._slab_bounds``):
#: ``t = fl(fl(+-h - u) * fl(1 / w))``
#: errs, beyond what the errors of U and W carry, by the rounding of the numerator (u |t|) and
#: of the reciprocal and the product (2.0000001 u |t|), and ``t -+ spread`` round once more each
#: (u (|t| + spread)): this many u |t| cover the three, the spread's own share being covered by
#: the factor ``1 + 2**-17`` on its other terms.
RAY_QUOTIENT_BOUND = 5.0

#: Absolute slack for double-double sums whose small products may have underflowed (each
#: TwoProduct error term that is not exact errs by at most 2**-1074); normal, as SLAB_ABSOLUTE.
RAY_UNDERFLOW_SLACK = 2.0**-1020

#: Ray vs OBB with float32 outputs: a t within 2**-27 |t| of the exact value E is within
#: 2**-27 / (1 - 2**-27) |E| < 1/8 float32 ulp of it (an ulp of E is at least 2**-24 |E|, or the
#: subnormal spacing), so rounded to float32 it is within 5/8 ulp, and finite when E is at most
#: float32's largest value. The filter's float t values meet that without double-double whenever
#: their bounds do (within 2**-28 of themselves).
RAY_T32_RELATIVE = 2.0**-27

#: Ray vs OBB, the double-double t: its numerator's error bound is kept at least
#: 2 RAY_T_MIN u max(1, |W|), so that a t certified within 1.5 ulp has numerator and quotient
#: above RAY_T_MIN in magnitude, where neither the quotient nor Dekker's product in its remainder
#: can underflow.
RAY_T_MIN = 2.0**-900

#: Ray vs OBB: a plane's t is bounded, or computed in double-double, only where
#: ``|W| >= RAY_W_MIN``, so that with every product within FILTER_SCALE_MAX (numerators below
#: 2**302) no quotient can overflow (2**1002 at most), nor Dekker's product in its remainder.
RAY_W_MIN = 2.0**-700

# --- point-box distance and sphere vs box (``_closest``) -----------------------------------------
#: Point vs box distance, faithful rounding: the filters' budget for the squared distance. A
#: double-double S = s_hi + s_lo within 2**-55 S of the squared distance D has
#: r = fl(sqrt(fl(s_hi + s_lo))) (``_closest.sqrt_dd``) one of the two floats around
#: d = sqrt(D). With r in [2**k, 2**(k+1)) and q = 2**(k-52) its ulp: r is within q / 2 of
#: sqrt(s) (s = fl(S), the root rounded once); sqrt(s) within |s - S| / 2 sqrt(S) <= ulp(s) / 4
#: sqrt(S) of sqrt(S): q / 4 for s < 2**(2k+1), q / 2 sqrt(2) < 0.354 q above (ulp(s) doubles,
#: sqrt(S) >= 2**(k+1/2)); and sqrt(S) within 2**-56 d (1 + 2**-54) < q / 8 of d. In all
#: 0.98 q: r is RD(d) or RU(d). Where d lies below r = 2**k, whose spacing below is q / 2, s < 2**2k
#: and sqrt(s) rounded up to r (within q / 4 of it): 0.25 q + 0.125 q + 0.0625 q < q / 2,
#: faithful too. (A float32 result rounds a float64 one within 2**-27 |d| of d before its
#: rounding, within 2**-26 |d| after it, a quarter of float32's least relative spacing: a float
#: g between d and it lies within a quarter of the spacing on either side of it, so it rounds
#: to g; else it and d share an interval between two floats.)
DISTANCE_FAITHFUL = {np.float64: 2.0**-55, np.float32: 2.0**-27}

#: Point vs box distance from a double-double square sum s_hi + s_lo (``_closest.square_sum_dd``):
#: the excesses E_i = e_i + f_i are exact (TwoSum); the squares' sum drops f_i**2 (u**2 S),
#: rounds the products e_i f_i and the sums of the low parts (|s_lo| <= 5 u S, so 26 u**2 S
#: more), and underflow (a few terms, each within 2**-1074) errs by less than 2**-120 S where S
#: is 0 or within [2**-900, 2**900] (the callers scale into that range, or doubt the sums
#: outside it; there no square overflows either): |s_hi + s_lo - S| <= 27.01 u**2 S. This bound,
#: 32x that, is far below DISTANCE_FAITHFUL (2**-55): every item in that range is certified
#: without a test.
DISTANCE_DD_RELATIVE = 2.0**-96

# --- planes and frusta vs boxes (plane_aabb, plane_obb, aabb_frustum, obb_frustum) ------------

#: A plane's signed value at a box corner, ``d = n . x - offset``, sums four terms (three
#: products and the offset) with three additions: it is within 4.0001 u T of the exact value,
#: T = sum |n_i x_i| + |offset| <= |n|_1 M + |offset| (M the largest |coordinate|). A frustum's
#: planes are exact sums of matrix entries, rounded once to floats for the filter: u T more.
#: B = PLANE_BOUND * u * (|n|_1 M + |offset|) + PLANE_ABSOLUTE covers 5.0001 u T with room for
#: the bound's own roundings. For an OBB the extreme value along n is ``n . center - offset +-
#: sum_i h_i |n . axes[i]|``: the dot products, the products with h_i, their sum and the last
#: addition round by at most 7.02 u |n|_1 sum h + u (|n|_1 |center|_max + |offset|) more, so
#: the OBB filters take twice the bound, with M = |center|_max + sum h. The AABB vs frustum
#: filter takes an AABB as its centre and half sizes, ``(min + max) / 2`` and
#: ``(max - min) / 2``, each rounded once (u |n|_1 M more each, M = |centre|_max + max half
#: size), and ``far = middle + r`` once more: twice the bound as well.
PLANE_BOUND = 8.0

#: An underflowed product errs by at most 2**-1075 absolutely; a handful of them, rounded into a
#: sum, by far less than this. A normal number (not 2**-1070): adding a subnormal constant to
#: every bound slows a vectorised loop several times over on x86 (a microcode assist per use).
PLANE_ABSOLUTE = 2.0**-1020

#: OBB rows orthonormal only within r = max |axes @ axes.T - I| (:func:`._floats.axes_residuals`):
#: the box's edges are the columns b_i of axes^-1 = axes.T (I + R)^-1, whose entries differ from
#: those of axes.T by at most 3 (1 + 1e-6) * 3 r / (1 - 3 r) <= 9.1 r (r <= 1e-6), so
#: |n . b_i - n . axes[i]| <= 9.1 r |n|_1: the box's extent along n is
#: sum_i h_i |n . b_i|, within OBB_DEFECT_BOUND * r * |n|_1 * sum_i h_i of the rows' one.
OBB_DEFECT_BOUND = 10.0

#: Box vs box with an OBB (``_box_sat.box_faces``), in the frame of one box, ``P = [-p, p]``:
#: the other is the parallelepiped ``Q = t + M [-q, q]``, its edges the columns of M, its face
#: normals the rows of N = M^-1, and the filter uses one float matrix R for M and for N^T, and 1
#: for |det M| (exact for orthonormal rows). With e the sum of both boxes' exact orthonormality
#: defects (max |row_i . row_j - delta_ij|; 0 for an AABB): the Gram matrix G = I + D of a box's
#: rows has ||G^-1 - I||_inf <= 3e / (1 - 3e) and det G in [(1 - 3e)^3, (1 + 3e)^3]
#: (Gershgorin), and M = A B^-1 = (A B^T) G_B^-1, N = (A B^T)^T G_A^-1 (A the frame box's rows,
#: B the other's), so |R - M|, |R^T - N| <= 3.001 (e + u) entrywise (the u for rounding A B^T;
#: an AABB's R is exact), ||det M| - 1| <= 4.6 e, and R's entries are at most 1.0001. The frame
#: change rounds t by at most 5 u P per coordinate and q by 1.6 u P (P the L1 size it rounds:
#: |center - center'|_1, or the AABB's corners relative to the frame's centre). Counting per
#: margin (P's faces: |t_i| - p_i - sum_l q_l |R_il|; Q's faces: |sum_i R_il t_i| - q_l -
#: sum_i p_i |R_il|; edges: Ericson's two-term centre and four-term radius; the containment
#: margins have the same terms): at most 27.6 u S + 7.61 e S, S = P + |t|_1 + |p|_1 + |q|_1.
#: The computed residuals give each box's defect within 9 u (a rounded three-term dot product,
#: less 1), so with e~ the sum of the computed ones the error is at most
#: (27.6 + 7.61 * 18) u S + 7.61 e~ S = 164.6 u S + 7.61 e~ S.
#: B = (BOX_SAT_ROUNDING u + BOX_SAT_DEFECT e~) S. The shared point's margin
#: (``_box_sat.box_witness``: x = t clamped to [-p, p], exactly in P, y = fl(t - x), each within
#: u |t_i - x_i| + 5 u P of T - x, then |R^T y|_l - q_l) errs by at most
#: 3.001 (e + u) (|p|_1 + |t|_1) + 15.01 u P + 5.01 u (|t|_1 + |p|_1) + u |q|_1 <= 15.01 u S +
#: 3.001 e S: within the same B. One item in Python tries the faces and that point first with
#: e~ = ORTHONORMAL_ATOL per OBB, which bounds its computed defect once the rows pass the check.
BOX_SAT_ROUNDING = 256.0
BOX_SAT_DEFECT = 12.0
#: Box vs box, the second test (``_box_sat.refined_matrices``): with D, E the residual matrices of
#: the frame box's and the other's rows (|entries| <= e, the computed ones within 9 u),
#: G^-1 = I - D + D^2 G^-1 with ||D^2 G^-1||_max <= 9.0001 e^2, so M~ = R - R E~ is within
#: 3.001 u (R) + 15.6 u (E~ - E, rows of R at most 1.7321 in L1) + 1.001 u (rounding) + 15.6 e^2
#: of M, entrywise, and n~ = R - D~ R likewise of N^T: 31.2 u + 27.1 e^2 allowed. |det M| =
#: sqrt(det(I + D) / det(I + E)) is 1 + (tr D - tr E) / 2 within 19.6 e^2 (the principal minors
#: of D, E and the root's second order), the computed one within 28.01 u more; so |det M| |N| is
#: known within 60.3 u + 47.2 e^2. Each margin moves by at most its matrix terms' error times
#: S (edges: (|t|_1 + |p|_1) on M's entries, |q|_1 on |det M| |N|'s), which in the count above
#: were 3.001 (u + e) and 7.61 e: the rest is 24.6 u S. So the error is at most
#: (84.9 u + 47.2 e^2) S; e <= e~ + 9 u, and e~ <= 2.00002e-6 adds under 1e-4 u:
#: B = (BOX_SAT_ROUNDING u + BOX_SAT_SECOND e~^2) S.
BOX_SAT_SECOND = 64.0

#: Point vs OBB distance, the frame (``_closest.frame_excess``): U = a . (t + l), with t + l the
#: point's offset from the centre exactly (TwoSum), in double-double from TwoProducts, s + lo:
#: the low parts' sums and the products a_j l_j round by at most 15 u**2 W (W = sum_j |a_j t_j|),
#: and the excess |U| - h, whose low part adds lo (|lo| <= 4.01 u W, not renormalised first) to
#: x_lo (|x_lo| <= u |x_hi| <= 1.001 u W where it is not surely 0, h < |U| + 2 spread), by
#: 5.02 u**2 W more in that sum's rounding: 20.1 u**2 W.
#: W <= 1.000001 |t|_1 for rows of norm within 1e-6 (ORTHONORMAL_ATOL; other rows are doubt),
#: and the float |t|_1 is within 2 u of it: every axis takes spread = OBB_DISTANCE_FRAME u**2
#: fl(|t|_1) + OBB_DISTANCE_FLOOR, where the floor covers underflow (a few 2**-1075, where the
#: largest offset is at least 2**-400 or exactly 0).
OBB_DISTANCE_FRAME = 32.0
OBB_DISTANCE_FLOOR = 2.0**-1000
#: Point vs OBB distance, an axis surely free (one item skips its double-double): the float
#: frame coordinate u = fl(a . t) is within 3.0000001 u W of a . t, and a . l within u W, of U;
#: the double-double U~ within 15 u**2 W more, and the excess's low sum rounds by at most
#: 5.02 u**2 W + 1.01 u**2 h (|x_hi| <= 1.0001 W + h). So where
#: ``fl(fl(|u| + OBB_DISTANCE_FREE u fl(|t|_1)) + 2.01 err) <= fl(h (1 - 2**-51))`` (W <=
#: 1.0000011 fl(|t|_1); 2**-51 = 4 u covers the left side's roundings, 2.01 u of it, the
#: right side's, and the 1.01 u**2 h), the sum before
#: ``frame_excess``'s last rounding is at most -2 err (1 + 2 u), its w_hi + 2 err at most 0:
#: ``frame_excess`` gives (0, 0, 0), the bits that skipping it gives. Underflow in u (a few
#: 2**-1074) is far inside 2 err >= 2 OBB_DISTANCE_FLOOR.
OBB_DISTANCE_FREE = 4.01

#: Point vs OBB distance, the metric. With G = M M^T = I + R for the float rows M, R's entries
#: at most e in magnitude (rho = ||R||_2 <= 3 e), the squared distance is the minimum over the
#: box of w^T G^-1 w (w = u_p - u in frame coordinates); with w0 the excess of the clamp of u_p,
#: |d**2 - (|w0|**2 - w0^T R w0)| <= rho**2 / (1 - rho) |w0|**2: G^-1 = I - R + R G^-1 R, the
#: last term positive semidefinite and at most rho**2 / (1 - rho); at the clamp that bounds the
#: value from above, and at any u = u* + D of the box, |w|**2 >= |w0|**2 + |D|**2 (the clamp is
#: the projection onto the box) while w^T R w grows by at most 2 rho |w0| |D| + rho |D|**2,
#: whose least total, -rho**2 |w0|**2 / (1 - rho), bounds it from below. So the error is second
#: order in e: OBB_DISTANCE_METRIC e**2 |w0|**2 with e <= 1e-6 (ORTHONORMAL_ATOL).
OBB_DISTANCE_METRIC = 9.01

#: Point vs OBB distance, the rest of the float error, relative to |w|**2: the correction
#: w^T R w in floats (R's entries within u |R| + 30 u**2, ``_closest.gram_residual``; w's low
#: parts dropped; six products and five sums) errs by at most (33 u e + 90 u**2) |w|**2
#: <= 2**-68 |w|**2, the double-double square sum by 27.01 u**2: 2**-66 covers both.
OBB_DISTANCE_STATIC = 2.0**-66

#: Point vs OBB distance, the certificate: a double-double S = s_hi + s_lo with |S - d**2| at
#: most B <= OBB_DISTANCE_SHARE * DISTANCE_FAITHFUL * s_hi, and s_hi <= (1 + 8 u) S, is within
#: DISTANCE_FAITHFUL of d**2, relatively: ``_closest.sqrt_dd``'s root is faithful. Past it, the
#: item goes exact.
OBB_DISTANCE_SHARE = 0.9

#: Point vs OBB distance for float32 data (``point_obb._filter32``), in plain float64: no
#: scaling is needed (float32 values keep every product, square and sum within 2**-1050 ..
#: 2**270, so nothing overflows, and a nonzero offset, frame coordinate or excess is at least
#: 2**-350: no square underflows). The offset t = fl(p - c) is within u |t_j| of the exact one,
#: the frame coordinate u_i = fl(a_i . t) within 3.0001 u sum_j |a_ij t_j| of a_i . t, and
#: |a_ij| <= 1.000001 (ORTHONORMAL_ATOL): |u_i - U_i| <= 4.0002 u |t|_1. E = OBB_DISTANCE32_FRAME
#: |t|_1 is twice that (8 u), so that ``fl(|u_i| + E) <= h_i`` proves |U_i| <= h_i (the sum's
#: own rounding, u (|u_i| + E) <= 1.00001 u |t|_1, is below E / 2). The signed excess
#: U - clamp(U, -h, h) is 1-Lipschitz in U and rounds once: each w_i is within
#: spread = E + 2 u width of the exact W_i (width = sum |w_i|).
OBB_DISTANCE32_FRAME = 2.0**-50
#: Point vs OBB distance for float32 data, the rest relative to (width + 2 spread)**2 >= |W|**2:
#: the metric's second order (OBB_DISTANCE_METRIC: 9.01e-12 for e <= 1e-6), and the float
#: evaluation of D = |w|**2 - w^T R w: the squares' sum (3.0001 u), R's entries (each a sum of
#: three products of float32 values, exact, rounded twice: within 3 u), the correction's own
#: roundings (below 1e-4 u) and the last subtraction (u), 7.01 u in all: 2**-36 (1.455e-11)
#: covers both. The step from w to the exact W adds |(w - W)^T (I - R) (w + W)| <=
#: (1 + 3e) sqrt(3) spread (2 width + sqrt(3) spread) <= 3.5 spread (width + spread), and
#: underflow in the correction's products (a few 2**-1074) the absolute 2**-1000. Certified
#: when the total, times 1.01 for the bound's own roundings, is within OBB_DISTANCE_SHARE *
#: DISTANCE_FAITHFUL[float32] of D: the root is then within 0.46 * 2**-27 (and the root's
#: rounding, 2**-53) of the distance, relatively, below half a float32 ulp: faithful once the
#: engine rounds it to float32.
OBB_DISTANCE32_STATIC = 2.0**-36

#: Sphere vs AABB: each excess e_i rounds the exact one (within u), its square and the sum of
#: three round (fused or not): |sum e_i**2 - d**2| <= 5.02 u sum e_i**2; r**2 rounds by u r**2,
#: their difference by u more of the two: within 7.02 u (sum + r**2) in all, plus underflow (a few
#: 2**-1075: SPHERE_ABSOLUTE). INCLUDE's margins (s - lo) - r round twice: within
#: 2.01 u (|s - lo| + r). 2**-50 is 8 u, more than both with the bound's own rounding.
SPHERE_RELATIVE = 2.0**-50
SPHERE_ABSOLUTE = 2.0**-1000
#: Sphere vs AABB, INCLUDE's margins by their computed value m = fl(fl(s - lo) - r) alone:
#: |m - (s - lo - r)| <= 2.01 u (|s - lo| + r) and |s - lo| + r <= (|m| + 2 r)(1 + 3 u), so
#: the error is within 2.02 u (|m| + 2 r), less than |m| once |m| > 4.05 u r. One bound for
#: the six margins (and so for their least), SPHERE_MARGIN r + SPHERE_ABSOLUTE: 2**-48 is
#: 32 u (a power of two: the product rounds only where it underflows, which the absolute part
#: covers).
SPHERE_MARGIN = 2.0**-48
#: Sphere vs box: excesses, offsets or radii beyond this are doubt (their squares, summed, could
#: overflow), decided exactly.
SPHERE_SCALE_MAX = 2.0**500

#: Box vs frustum, a cross axis a = e_k x d (``_frustum_filter.aabb_cross_axes``): d is the
#: exact edge direction rounded to nearest, so a is the exact axis within u per component (e_k
#: only permutes and negates). The box's extreme ``a . x`` (two products, one sum) errs by at
#: most u |a|_1 M (the axis) + 2.0001 u |a|_1 M; a frustum corner's ``a . v``, its coordinates
#: rounded too, by 2 u |a|_1 V + 2.0001 u |a|_1 V (V the largest |corner coordinate|, M the
#: box's); the difference of the two rounds once more: 6.1 u |a|_1 (M + V) in all.
#: B = CROSS_BOUND * u * |a|_1 * (M + V) + PLANE_ABSOLUTE.
CROSS_BOUND = 16.0

#: Sphere vs OBB, in the box's frame with float coordinates U_i (within OBB_FRAME_BOUND u |s - c|_1
#: of the exact ones, plus 2**-1020 for underflow): the squared excess |w|**2 - w^T R w with R
#: from ``axes_residuals`` (each entry within 5.01 u) errs by at most 19.1 u (|w|**2 + r**2)
#: beyond the metric's second order (OBB_DISTANCE_METRIC) and the frame's error, each counted on
#: its own; INCLUDE's margins (h_i - |U_i|) - r |a_i|, |a_i| = sqrt(1 + R_ii) within 4.6 u, by
#: 2 u (h_i + |U_i|) + 6.8 u r beyond the frame's error. 2**-48 is 32 u, more than both.
#: The compiled loop's first pass leaves the correction out: |w^T R w| <= e (sum |w_i|)**2 <=
#: 3 e |w|**2 (e bounds every |R_ij|) joins its band, and one spread + u (h + |U|)_1 bounds every
#: excess's error. Its margins take |a_i| as 1 + R_ii / 2, within R_ii**2 / 8 (1 + 1e-6) + 3.2 u
#: (below the root's 4.6 u but for that second-order part): their bound, spread + 2**-48 ((h +
#: |U|)_1 + r) + 0.126 e**2 r, covers each margin's error.
SPHERE_OBB_RELATIVE = 2.0**-48
