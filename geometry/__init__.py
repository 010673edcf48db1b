"""slablab geometry (work in progress)."""
