"""``python -m app`` and the ``slablab`` console script."""

import sys


def main(argv: list[str] | None = None) -> int:
    from app.cli import run

    code = run(sys.argv[1:] if argv is None else argv)
    if argv is None:
        sys.exit(code)
    return code


if __name__ == "__main__":
    main()
