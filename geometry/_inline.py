"""A filter as CPython runs it: the same source, with the ``@jitable`` helpers it calls written
into its body.

numba inlines a filter's helpers (``forceinline``); CPython pays for each call (binding a dozen
arguments, a tuple back), which for an OBB filter is a good part of one item's time.
:func:`inlined` gives the filter with every helper call that it can move written in place: the
helper's statements, its locals renamed apart, then its return expression where the call was.
The arithmetic is the same operations on the same values in the same order, so the answers are
the same bits. A call is moved only where the statement around it evaluates it first, so that
nothing the call would not have run runs: as a statement's value, or within one outside any
``x if c else y``, ``and`` / ``or``, chained comparison, comprehension or lambda (an assignment
whose whole value is ``x if c else y`` is first written as the if statement it is). Anything this
does not take (no source, a helper with an early return) leaves that call, or the whole filter,
as it is. Calls of the builtin ``min`` and ``max`` become the comparisons they make
(:class:`_Compared`), the same objects for a fraction of the cost.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import itertools
import re
import textwrap
import threading
from collections.abc import Callable
from typing import Any

from . import _floats

__all__ = ["AST_LOCK", "inlined"]

_counter = itertools.count()


def _inlinable(fn: Any) -> bool:
    return (any(fn is j for j in _floats.JITABLES) or fn is _floats.interpreted
            or fn is _floats.two_product)


def _function_def(fn: Callable[..., Any]) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    if not isinstance(tree, ast.FunctionDef):
        raise TypeError(f"{fn.__name__} is not a plain function")
    args = tree.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
        raise TypeError(f"{fn.__name__} takes arguments this does not inline")
    tree.decorator_list = []
    tree.returns = None
    for a in args.args:
        a.annotation = None
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    tree.body = body
    return tree


class _Globals(ast.NodeTransformer):
    """A helper's globals (names it reads but does not assign) renamed to aliases of the values
    they name in its module, for the inlined filter's closure."""

    def __init__(self, fn: Callable[..., Any], local: set[str], aliases: dict[str, Any]) -> None:
        self.fn, self.local, self.aliases = fn, local, aliases

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.local or node.id in self.aliases:  # (a helper's helper's alias)
            return node
        value = self.fn.__globals__.get(node.id, getattr(builtins, node.id, None))
        alias = f"_g_{id(value):x}"
        self.aliases[alias] = value
        return ast.copy_location(ast.Name(alias, node.ctx), node)


class _Inliner:
    """Rewrites one function's statements, inlining the helper calls it may move."""

    def __init__(self, fn: Callable[..., Any], aliases: dict[str, Any]) -> None:
        self.fn, self.aliases = fn, aliases
        self.changed = False

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            before: list[ast.stmt] = []
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.IfExp) \
                    and any(isinstance(n, ast.Call) and self._helper(n) is not None
                            for n in ast.walk(stmt.value)):
                # ``x = a if c else f(...)``: the same as an if statement assigning ``a`` or
                # ``f(...)``, where each branch evaluates its call first, so it can be inlined
                value = stmt.value
                branches: list[ast.stmt] = [
                    ast.copy_location(ast.Assign(stmt.targets, v), stmt)
                    for v in (value.body, value.orelse)]
                stmt = ast.copy_location(ast.If(value.test, branches[:1], branches[1:]), stmt)
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)):
                if stmt.value is not None:
                    stmt.value = self.expression(stmt.value, before)
            elif isinstance(stmt, ast.If):
                stmt.test = self.expression(stmt.test, before)
                stmt.body = self.statements(stmt.body)
                stmt.orelse = self.statements(stmt.orelse)
            elif isinstance(stmt, ast.For):
                stmt.body = self.statements(stmt.body)
                stmt.orelse = self.statements(stmt.orelse)
            out += before
            out.append(stmt)
        return out

    def expression(self, node: ast.expr, before: list[ast.stmt]) -> ast.expr:
        """``node`` with the calls it evaluates first inlined (their statements appended to
        ``before``, in the order the calls ran)."""
        if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp,
                             ast.DictComp, ast.GeneratorExp, ast.NamedExpr)):
            return node
        if isinstance(node, ast.Compare) and len(node.ops) > 1:
            return node
        if isinstance(node, ast.Call):
            node.args = [self.expression(a, before) for a in node.args]
            target = self._helper(node)
            if target is None:
                return node
            try:
                return self._inline(target, node.args, before)
            except (OSError, TypeError, SyntaxError):
                return node  # (checked before anything is appended to ``before``)
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.expression(value, before))
            elif isinstance(value, list):
                setattr(node, field, [self.expression(v, before) if isinstance(v, ast.expr)
                                      else v for v in value])
        return node

    def _helper(self, call: ast.Call) -> Callable[..., Any] | None:
        if not isinstance(call.func, ast.Name) or call.keywords \
                or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        fn = self.fn.__globals__.get(call.func.id)
        return fn if _inlinable(fn) else None

    def _inline(self, fn: Callable[..., Any], args: list[ast.expr],
                before: list[ast.stmt]) -> ast.expr:
        names, template, stored, aliases, pattern = _expanded(fn)
        if len(names) != len(args):
            raise TypeError(f"{fn.__name__} called with {len(args)} arguments")
        self.aliases.update(aliases)
        # the body's locals renamed apart; arguments that are names or constants of parameters
        # the body never assigns go in as they are (the body assigns only its own renamed
        # locals), the others are evaluated once, in order, into the parameter as a local
        tag = f"_i{next(_counter)}_"
        renamed = {name: tag + name for name in stored}
        lines = []
        for name, arg in zip(names, args, strict=True):
            if isinstance(arg, (ast.Name, ast.Constant)) and name not in stored:
                renamed[name] = ast.unparse(arg)
            else:
                renamed[name] = tag + name
                lines.append(f"{tag}{name} = {ast.unparse(arg)}\n")
        text = pattern.sub(lambda m: renamed[m.group(0)], template) if renamed else template
        body = ast.parse("".join(lines) + text).body  # (parsing is cheaper than copying nodes)
        result = body.pop()
        assert isinstance(result, ast.Return) and result.value is not None
        before += body
        self.changed = True
        return result.value


@functools.cache
def _expanded(fn: Callable[..., Any]
              ) -> tuple[list[str], str, set[str], dict[str, Any], re.Pattern[str]]:
    """A helper's parameters; the source of its body with its own helper calls inlined (ending
    in its one return) and its globals renamed to their aliases; the names it assigns; those
    aliases; and a pattern that finds its parameters and locals in that source: made once,
    renamed and parsed again per call site."""
    tree = _function_def(fn)
    aliases: dict[str, Any] = {}
    body = _Inliner(fn, aliases).statements(tree.body)
    returns = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Return)]
    if len(returns) != 1 or body[-1] is not returns[0]:
        raise TypeError(f"{fn.__name__} returns early")
    names = [a.arg for a in tree.args.args]
    stored = {n.id for stmt in body for n in ast.walk(stmt)
              if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    module = _Globals(fn, stored | set(names), aliases).visit(ast.Module(body, type_ignores=[]))
    template = ast.unparse(ast.fix_missing_locations(module))
    words = "|".join(sorted(stored | set(names), key=len, reverse=True))
    return names, template, stored, aliases, re.compile(rf"(?<![\w.])(?:{words})(?!\w)")


class _Compared(ast.NodeTransformer):
    """Calls of the builtin ``min`` and ``max`` on two or more arguments written as the
    comparisons they make, each argument evaluated once, in order: CPython's ``min(a, b)`` keeps
    its first argument unless the second is less (``b if b < a else a``), ``max`` unless it is
    greater, and ``min(a, b, c)`` is ``min(min(a, b), c)``; so the answers are the same objects,
    where the call costs CPython several times the comparison. (Not within a lambda or a
    comprehension, whose scopes an assignment expression would cross.)"""

    def __init__(self, resolve: Callable[[str], Any]) -> None:
        self.resolve = resolve
        self.changed = False

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda  # type: ignore[assignment]

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.func, ast.Name) or node.keywords or len(node.args) < 2 \
                or any(isinstance(a, ast.Starred) for a in node.args):
            return node
        fn = self.resolve(node.func.id)
        if fn is not builtins.min and fn is not builtins.max:
            return node
        self.changed = True
        kept = node.args[0]
        for arg in node.args[1:]:
            # min: the later one where the kept one is greater (``later < kept``), max: less
            kept, first = self._once(kept)
            arg, second = self._once(arg)
            test = ast.Compare(first, [ast.Gt() if fn is builtins.min else ast.Lt()], [second])
            kept = ast.IfExp(test, arg, kept)
        return ast.copy_location(kept, node)

    @staticmethod
    def _once(node: ast.expr) -> tuple[ast.expr, ast.expr]:
        """``(value, first)``: ``first`` evaluates ``node`` where the comparison reads it,
        ``value`` reads it again after that (a name or constant as it is, else a new local)."""
        if isinstance(node, (ast.Name, ast.Constant)):
            return node, node
        name = f"_m{next(_counter)}"
        return ast.Name(name, ast.Load()), ast.NamedExpr(ast.Name(name, ast.Store()), node)


class _Constants(ast.NodeTransformer):
    """Globals that name floats (the tolerances) written as the constants they are, as numba
    takes them: CPython folds a product of two (``OBB_FRAME_BOUND * FILTER_UNIT * x`` is
    ``(5.0 * 2**-53) * x``) when it compiles, the same multiplication it would make per call."""

    def __init__(self, resolve: Callable[[str], Any]) -> None:
        self.resolve = resolve

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load):
            value = self.resolve(node.id)
            if type(value) is float:
                return ast.copy_location(ast.Constant(value), node)
        return node


def _split_tuples(tree: ast.AST) -> bool:
    """``a, b, c, d = (w, x, y, z)`` written as four assignments wherever no value reads a
    name assigned (the same values; CPython builds and unpacks a tuple of four or more, where a
    helper's returned tuple is written in); whether there were any."""
    split = False
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list) or (field == "body" and body is not statements):
                continue
            out: list[ast.stmt] = []
            for stmt in statements:
                targets = stmt.targets[0].elts if isinstance(stmt, ast.Assign) \
                    and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple) \
                    and isinstance(stmt.value, ast.Tuple) else []
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                if len(targets) >= 4 and len(names) == len(targets) \
                        and len(stmt.value.elts) == len(targets) \
                        and not any(isinstance(n, ast.Name) and n.id in names
                                    for n in ast.walk(stmt.value)):
                    out += [ast.copy_location(ast.Assign([t], v), stmt)
                            for t, v in zip(targets, stmt.value.elts, strict=True)]
                    split = True
                else:
                    out.append(stmt)
            setattr(node, field, out)
    return split


# CPython 3.11's AST conversion keeps its recursion depth in shared state: two threads building
# ASTs at once (one-item calls under dask's threads) can fail with "AST constructor recursion
# depth mismatch" (CPython gh-106905). One filter is inlined at a time.
AST_LOCK = threading.Lock()


def inlined(filter: Callable[..., Any]) -> Callable[..., Any]:
    """``filter`` with the helper calls it may move inlined (module docstring); ``filter``
    itself where there are none, or where its source cannot be had. The helpers' globals are
    the cells of a closure; the filter's own stay its module's. Thread-safe."""
    with AST_LOCK:
        return _inlined(filter)


def _inlined(filter: Callable[..., Any]) -> Callable[..., Any]:
    try:
        tree = _function_def(filter)
        aliases: dict[str, Any] = {}
        inliner = _Inliner(filter, aliases)
        tree.body = inliner.statements(tree.body)
    except (OSError, TypeError, SyntaxError):
        return filter
    local = {a.arg for a in tree.args.args} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    def resolve(name: str) -> Any:
        return None if name in local else aliases[name] if name in aliases \
            else filter.__globals__.get(name, getattr(builtins, name, None))

    compared = _Compared(resolve)
    tree = _Constants(resolve).visit(compared.visit(tree))
    split = _split_tuples(tree)
    if not (inliner.changed or compared.changed or split):
        return filter
    maker = ast.parse(f"def _make({', '.join(aliases)}):\n    return {tree.name}").body[0]
    assert isinstance(maker, ast.FunctionDef)
    maker.body.insert(0, tree)
    module = ast.fix_missing_locations(ast.Module([maker], type_ignores=[]))
    namespace: dict[str, Any] = {}
    exec(compile(module, f"<{filter.__module__}.{filter.__name__}, inlined>", "exec"),
         filter.__globals__, namespace)
    fn: Callable[..., Any] = namespace["_make"](*aliases.values())
    fn.__doc__ = filter.__doc__
    return fn
