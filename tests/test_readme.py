"""The README is for users: short, exactly two commands, and its library example runs."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_is_short_and_gives_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200, "README.md is for users: under 200 lines"
    block = re.search(r"## Two commands.*?```sh\n(.*?)```", text, re.S)
    assert block, "README.md must have a 'Two commands' section with a sh block"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert [c for c in commands if c] == ["./app/run.sh", "./tests/run.sh"], commands


def test_readme_library_example_runs():
    code = re.search(r"## The library.*?```python\n(.*?)```", README.read_text("utf-8"), re.S)
    assert code, "README.md must show the library in a python block"
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)  # noqa: S102
    assert int(namespace["codes"].shape[0]) == 1_000_000  # type: ignore[attr-defined]


def test_readme_names_only_files_the_checkout_has():
    """Every relative link or image, and every script, module or document named in backticks,
    in README.md and benchmarks/README.md is there in a fresh clone (a user follows them)."""
    root = README.parent
    missing = []
    for readme in (README, root / "benchmarks" / "README.md"):
        text = readme.read_text(encoding="utf-8")
        links = re.findall(r"\]\(([^)\s]+)\)", text)
        named = re.findall(r"`(?:\./)?([\w./-]+/[\w.-]+\.(?:md|py|sh)|[\w-]+\.md)`", text)
        for target in [*links, *named]:
            if target.startswith(("http://", "https://", "#")):
                continue
            base = readme.parent if target in links else root
            if not (base / target).is_file():
                missing.append(f"{readme.relative_to(root)}: {target}")
    assert not missing, missing
