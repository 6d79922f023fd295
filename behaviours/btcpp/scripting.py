"""The BehaviorTree.CPP v4 scripting language: parse a script, say which names it uses, run it.

A script is statements separated by ``;``; its value is the last statement's. Statements are
assignments (``x := 1`` creates or replaces an entry, ``x = 2`` replaces one that exists,
``+=``, ``-=``, ``*=``, ``/=``) or expressions: numbers (``42``, ``3.14``, ``0x1F``), strings
(``'text'``), ``true``/``false``, names (blackboard entries, or enum values), arithmetic
(``+ - * /``), string joining (``..``), bitwise (``& | ^ ~``), comparisons (``== != < <= >
>=``), logic (``&& || !``) and ``cond ? a : b``. The grammar is parsed by lark (LALR).

What a name means is the caller's business (:class:`Environment`): this module parses,
reports the names read, created and assigned, and evaluates against an environment. Errors
are :class:`ScriptError` with the position and what was expected.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # lark is imported when the first script is parsed (_parser)
    from lark import Lark, Tree

GRAMMAR = r"""
program: [statement] (";" [statement])*

?statement: NAME ASSIGN expr -> assignment
          | expr

?expr: logic_or
     | logic_or "?" expr ":" expr -> conditional

?logic_or: logic_and | logic_or "||" logic_and -> or_
?logic_and: comparison | logic_and "&&" comparison -> and_
?comparison: joined | comparison COMPARE joined -> compare
?joined: bit_or | joined JOIN bit_or -> join
?bit_or: bit_xor | bit_or BIT_OR bit_xor -> bitwise
?bit_xor: bit_and | bit_xor BIT_XOR bit_and -> bitwise
?bit_and: sum | bit_and BIT_AND sum -> bitwise
?sum: product | sum SUM_OP product -> arithmetic
?product: unary | product PRODUCT_OP unary -> arithmetic
?unary: atom | UNARY_OP unary -> unary

?atom: HEX -> hex_number
     | NUMBER -> number
     | STRING -> string
     | "true" -> true
     | "false" -> false
     | NAME -> name
     | "(" expr ")"

ASSIGN: ":=" | "+=" | "-=" | "*=" | "/=" | /=(?!=)/
COMPARE: "==" | "!=" | "<=" | ">=" | "<" | ">"
JOIN: ".."
BIT_OR: /\|(?!\|)/
BIT_XOR: "^"
BIT_AND: /&(?!&)/
SUM_OP: "+" | "-"
PRODUCT_OP: "*" | "/"
UNARY_OP: "!" | "-" | "~"
HEX.2: /0[xX][0-9a-fA-F]+/
NUMBER: /(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?/
STRING: /'[^']*'/ | /"[^"]*"/
NAME: /[A-Za-z_][A-Za-z_0-9]*/

%ignore /\s+/
"""


@functools.cache
def _parser() -> Lark:
    """The parser of :data:`GRAMMAR`, built when the first script is parsed.

    Building it costs 30 ms of CPU, and importing lark some 30 ms more, which a tree without
    scripts (the assistant's) never needs.
    """
    from lark import Lark

    return Lark(GRAMMAR, start="program", parser="lalr", propagate_positions=True)


Value = bool | int | float | str


MAX_SCRIPT_CHARS = 4000
"""The longest script that is parsed: a node's script is a line or two, not a program."""

MAX_SCRIPT_DEPTH = 64
"""The deepest nesting of a script's expression; deeper (a thousand terms in one chain) is
refused when the tree loads instead of exhausting Python's stack on its first tick."""


class ScriptError(ValueError):
    """A script that cannot be parsed, or that cannot run on these values."""


class Environment(Protocol):
    """What a running script reads and writes: named entries and enum values."""

    def enum(self, name: str) -> Value | None:
        """The value of enum ``name``, or None when no enum is called so."""

    def get(self, name: str) -> Any:
        """The value of entry ``name`` (ScriptError when it is not set)."""

    def set(self, name: str, value: Any, *, create: bool) -> None:
        """Write entry ``name``; ``create`` allows a new entry (``:=``)."""


@dataclass(frozen=True)
class ScriptProgram:
    """A parsed script: its text, its syntax tree and the names it uses."""

    text: str
    tree: Tree
    reads: frozenset[str]
    created: frozenset[str]
    assigned: frozenset[str]

    @property
    def names(self) -> frozenset[str]:
        """Every name the script reads or writes."""
        return self.reads | self.assigned

    def run(self, environment: Environment) -> Any:
        """Run every statement; the value of the last one (None for an empty script)."""
        result: Any = None
        for statement in self.tree.children:
            if statement is not None:
                result = _evaluate(statement, environment)
        return result


def parse_script(text: str) -> ScriptProgram:
    """Parse ``text``; ScriptError names the column and what was expected there.

    A script over :data:`MAX_SCRIPT_CHARS` characters, or whose expression nests deeper than
    :data:`MAX_SCRIPT_DEPTH`, is refused with what to do instead.
    """
    if len(text) > MAX_SCRIPT_CHARS:
        raise ScriptError(
            f"the script is {len(text)} characters long, over the {MAX_SCRIPT_CHARS} a node's "
            "script may have: split it over several Script nodes or compute the value in Python"
        )
    parser = _parser()
    from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput

    try:
        tree = parser.parse(text)
    except UnexpectedCharacters as error:
        raise ScriptError(
            f"unexpected {text[error.pos_in_stream]!r} at column {error.column} of {text!r}"
        ) from None
    except UnexpectedInput as error:
        where = getattr(error, "column", "?")
        token = getattr(error, "token", None)
        found = "the end" if token is None or token.type == "$END" else repr(str(token))
        if found == "the end":
            raise ScriptError(f"the script ends too early: {text!r}") from None
        raise ScriptError(f"unexpected {found} at column {where} of {text!r}") from None
    except LarkError as error:
        raise ScriptError(f"cannot parse {text!r}: {error}") from None
    depth = _depth(tree)
    if depth > MAX_SCRIPT_DEPTH:
        raise ScriptError(
            f"the script's expression nests {depth} levels deep, over the {MAX_SCRIPT_DEPTH} a "
            "script may have: split the expression over several statements (x := ...; x += ...)"
        )
    reads: set[str] = set()
    created: set[str] = set()
    assigned: set[str] = set()
    for node in tree.iter_subtrees():
        if node.data == "name":
            reads.add(str(node.children[0]))
        elif node.data == "assignment":
            target, op = str(node.children[0]), str(node.children[1])
            assigned.add(target)
            if op == ":=":
                created.add(target)
            elif op != "=":
                reads.add(target)
    return ScriptProgram(text, tree, frozenset(reads), frozenset(created), frozenset(assigned))


def _depth(tree: Tree) -> int:
    """How deep ``tree`` nests, counted without recursion (the tree may be very deep)."""
    deepest = 0
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        # a child is a rule's tree, a token (a str) or None (an optional part left out)
        rules = [child for child in node.children if not isinstance(child, str | None)]
        stack.extend((child, level + 1) for child in rules)
    return deepest


def truth(value: Any) -> bool:
    """A value as a condition: booleans, numbers (not 0), ``'true'``/``'false'``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ScriptError(f"{value!r} is not a condition (true, false or a number)")


# -- evaluation ---------------------------------------------------------------------------------

_ARITHMETIC: Mapping[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
}
_BITWISE: Mapping[str, Callable[[Any, Any], Any]] = {
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}
_COMPARE: Mapping[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _evaluate(node: Tree | str, env: Environment) -> Any:
    if node is None or isinstance(node, str):  # every rule is named: a token is no expression
        raise ScriptError(f"unexpected token {node!r}")
    kind = node.data
    children = node.children
    if kind == "number":
        text = str(children[0])
        return float(text) if any(c in text for c in ".eE") else int(text)
    if kind == "hex_number":
        return int(str(children[0]), 16)
    if kind == "string":
        return str(children[0])[1:-1]
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "name":
        return _name(str(children[0]), env)
    if kind == "assignment":
        return _assign(str(children[0]), str(children[1]), children[2], env)
    if kind == "conditional":
        chosen = children[1] if truth(_evaluate(children[0], env)) else children[2]
        return _evaluate(chosen, env)
    if kind == "or_":
        return truth(_evaluate(children[0], env)) or truth(_evaluate(children[1], env))
    if kind == "and_":
        return truth(_evaluate(children[0], env)) and truth(_evaluate(children[1], env))
    if kind == "unary":
        return _unary(str(children[0]), _evaluate(children[1], env))
    left, op, right = _evaluate(children[0], env), str(children[1]), _evaluate(children[2], env)
    if kind == "join":
        return f"{_text(left)}{_text(right)}"
    return _binary(kind, op, left, right)


def _name(name: str, env: Environment) -> Any:
    enum_value = env.enum(name)
    return enum_value if enum_value is not None else env.get(name)


def _assign(target: str, op: str, expression: Tree | str, env: Environment) -> Any:
    value = _evaluate(expression, env)
    if op in (":=", "="):
        env.set(target, value, create=op == ":=")
        return value
    current = env.get(target)
    combined = (
        f"{current}{_text(value)}"
        if op == "+=" and isinstance(current, str)
        else _binary("arithmetic", op[0], current, value)
    )
    env.set(target, combined, create=False)
    return combined


def _unary(op: str, value: Any) -> Any:
    if op == "!":
        return not truth(value)
    if op == "-":
        return -_number(value)
    number = _number(value)
    if not isinstance(number, int):
        raise ScriptError(f"~ takes an integer, got {value!r}")
    return ~number


def _binary(kind: str, op: str, left: Any, right: Any) -> Any:
    if kind == "compare":
        return _compare(op, left, right)
    a, b = _number(left), _number(right)
    if kind == "bitwise":
        if not (isinstance(a, int) and isinstance(b, int)):
            raise ScriptError(f"{op} takes integers, got {left!r} and {right!r}")
        return _BITWISE[op](a, b)
    if op == "/" and b == 0:
        raise ScriptError(f"division by zero ({left!r} / {right!r})")
    result = _ARITHMETIC[op](a, b)
    return (
        int(result) if isinstance(result, float) and result.is_integer() and op != "/" else result
    )


def _compare(op: str, left: Any, right: Any) -> bool:
    if isinstance(left, str) != isinstance(right, str) and not (left is None or right is None):
        left, right = _as_number(left), _as_number(right)
    try:
        return _COMPARE[op](left, right)
    except TypeError:
        raise ScriptError(f"cannot compare {left!r} {op} {right!r}") from None


def _as_number(value: Any) -> Any:
    """A string that spells a number, as that number (BT.CPP compares them so); else as is."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _number(value: Any) -> int | float:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    raise ScriptError(f"{value!r} is not a number (strings are joined with ..)")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
