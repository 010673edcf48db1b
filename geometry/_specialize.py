"""A filter with its loop's flags written in: the branches they decide left out before numba
types it.

A compiled loop passes its filter flags that are constants of the loop (``t32``, ``case``,
``first_pass``: :mod:`._engine`), and in it :func:`._floats.interpreted` is False. LLVM drops
the code those constants rule out, but only after numba has typed and lowered all of it, which
is most of a loop's compile time. :func:`specialized` gives the filter with every ``if``
statement whose test those values decide (``not``, ``&``, ``|``, ``and``, ``or`` of them and of
``interpreted()``) reduced to the branch it takes: the same operations on the same values
wherever the loop runs, so the same bits. The flags are still passed, as before. A local
assigned once from a decided test is decided too, and a ``@jitable`` helper that the filter
passes a decided flag or a constant ``True`` / ``False`` is called in a copy specialized the
same way (registered with numba as the helper is).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from collections.abc import Callable
from typing import Any

from . import _floats
from ._inline import AST_LOCK

__all__ = ["specialized"]

_UNKNOWN = object()
_counter = itertools.count()


def _value(node: ast.expr, known: dict[str, bool], interpreted: set[str]) -> Any:
    """The constant value of ``node`` given ``known``, else _UNKNOWN."""
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id, _UNKNOWN)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in interpreted and not node.args:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        v = _value(node.operand, known, interpreted)
        return _UNKNOWN if v is _UNKNOWN else not v
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        a, b = _value(node.left, known, interpreted), _value(node.right, known, interpreted)
        return _combined(isinstance(node.op, ast.BitAnd), [a, b])
    if isinstance(node, ast.BoolOp):
        return _combined(isinstance(node.op, ast.And),
                         [_value(v, known, interpreted) for v in node.values])
    return _UNKNOWN


def _combined(conjunction: bool, values: list[Any]) -> Any:
    if conjunction and any(v is False for v in values):
        return False
    if not conjunction and any(v is True for v in values):
        return True
    return _UNKNOWN if any(v is _UNKNOWN for v in values) else conjunction


class _Pruner(ast.NodeTransformer):
    """Reduces the ``if`` statements that ``known`` decides; a local assigned once, from a test
    it decides, joins ``known`` (``refine = (not first_pass) & ...``)."""

    def __init__(self, fn: Callable[..., Any], known: dict[str, bool], interpreted: set[str],
                 once: set[str]) -> None:
        self.fn, self.known, self.interpreted, self.once = fn, dict(known), interpreted, once
        self.changed = False
        self.helpers: dict[str, Callable[..., Any]] = {}  # alias -> a helper specialized

    def visit_Assign(self, node: ast.Assign) -> Any:
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in self.once:
            v = _value(node.value, self.known, self.interpreted)
            if v is not _UNKNOWN:
                self.known[node.targets[0].id] = v
        return node

    def _decided(self, node: ast.If | ast.IfExp) -> Any:
        """The value of ``node``'s test, after its own parts are reduced; _UNKNOWN if open."""
        self.generic_visit(node)
        v = _value(node.test, self.known, self.interpreted)
        self.changed = self.changed or v is not _UNKNOWN
        return v

    def visit_If(self, node: ast.If) -> Any:
        v = self._decided(node)
        return node if v is _UNKNOWN else (node.body if v else node.orelse) or [ast.Pass()]

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        v = self._decided(node)
        return node if v is _UNKNOWN else node.body if v else node.orelse

    def visit_Call(self, node: ast.Call) -> Any:
        """A helper passed a decided flag (or a constant True / False) is called in a copy
        specialized for it, as ``aabb_obb_class(..., True, first_pass)``."""
        self.generic_visit(node)
        helper = self.fn.__globals__.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if node.keywords or not any(helper is j for j in _floats.JITABLES):
            return node
        assert helper is not None
        params = inspect.signature(helper).parameters
        decided = {name: v for name, arg in zip(params, node.args, strict=True)
                   if isinstance(arg, (ast.Constant, ast.Name))
                   and isinstance(v := _value(arg, self.known, self.interpreted), bool)}
        copy = _specialized(helper, decided, True) if decided else helper
        if copy is not helper:
            alias = f"_specialized_{helper.__name__}_{next(_counter)}"
            self.helpers[alias] = copy
            node.func = ast.Name(alias, ast.Load())
            self.changed = True
        return node


def specialized(filter: Callable[..., Any], flags: dict[str, bool]) -> Callable[..., Any]:
    """``filter`` with the branches that ``flags`` (parameter name -> the value every call
    passes) and ``interpreted()`` (False) decide reduced, in it and in the helpers it passes
    them to (module docstring); ``filter`` itself where they decide none or its source cannot
    be had."""
    with AST_LOCK:  # (CPython 3.11's AST building is not thread-safe: see _inline)
        return _specialized(filter, flags, False)


def _specialized(fn: Callable[..., Any], flags: dict[str, bool], helper: bool
                 ) -> Callable[..., Any]:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    except (OSError, TypeError, SyntaxError):
        return fn
    assert isinstance(tree, ast.FunctionDef)
    interpreted = {n for n, v in fn.__globals__.items() if v is _floats.interpreted}
    tree.decorator_list = []
    stored = [n.id for n in ast.walk(tree)
              if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    # (a parameter assigned again is not a local assigned once: before that it is the argument)
    params = {a.arg for a in tree.args.args}
    once = {n for n in stored if stored.count(n) == 1 and n not in params}
    pruner = _Pruner(fn, flags, interpreted, once)
    tree = pruner.visit(tree)
    if not pruner.changed:
        return fn
    code = compile(ast.fix_missing_locations(ast.Module([tree], type_ignores=[])),
                   fn.__code__.co_filename, "exec")
    namespace: dict[str, Any] = {}
    exec(code, {**fn.__globals__, **pruner.helpers} if pruner.helpers else fn.__globals__,
         namespace)
    new: Callable[..., Any] = namespace[fn.__name__]
    if helper:
        _floats.register_helper(new, fn)
    return new
