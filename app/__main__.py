"""``python -m app`` and the ``slablab`` console script."""

import importlib.util
import sys

#: what the demo imports beyond the library (the ``app`` extra of pyproject.toml): module names
EXTRAS = ("moderngl", "moderngl_window", "pyrr", "glm", "PIL")


def missing_extras() -> list[str]:
    """The demo's modules this Python cannot import (a core install: ``pip install slablab``)."""
    return [name for name in EXTRAS if importlib.util.find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    missing = missing_extras()
    if missing:
        print(f"slablab: the demo needs its extra packages (missing: {', '.join(missing)}); "
              f"install them with: pip install 'slablab[app]'", file=sys.stderr)
        code = 2
    else:
        from app.cli import run

        code = run(sys.argv[1:] if argv is None else argv)
    if argv is None:
        sys.exit(code)
    return code


if __name__ == "__main__":
    main()
