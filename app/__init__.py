"""slablab's interactive demo."""
