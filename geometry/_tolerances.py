"""Every tolerance the library uses, each with the reason it exists.

The intersection predicates themselves use no tolerance: they answer for the exact values of the
float inputs as far as float arithmetic allows (exactly, for integer and dyadic coordinates).
"""

#: Largest accepted ``max |axes @ axes.T - I|`` for an OBB's rows (and a rigid matrix's 3x3 part).
#: Axes built from float rotations (pyrr, Euler angles) are orthonormal only to ~1e-15; axes typed
#: in or stored as float32 to ~1e-7. Past 1e-6 the box is sheared or scaled and the slab test in
#: the box frame would answer for a different box, so we refuse rather than guess.
ORTHONORMAL_ATOL = 1e-6
