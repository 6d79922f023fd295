"""Named SPARQL queries kept as ``.rq`` files, with parameters bound as RDF terms, never as text.

A parameter is written in the query file as ``VALUES ?name { UNDEF }``, or for rows of several
variables as ``VALUES (?a ?b) { (UNDEF UNDEF) }`` (a parameter named ``a_b``). The file is a
valid query on its own (the parameter is simply unbound). :meth:`NamedQuery.bind` replaces
the ``UNDEF`` of each placeholder with RDF terms serialised by rdflib (``URIRef.n3()``,
``Literal.n3()``, which escape quotes, backslashes and newlines), so a value can only ever be
a term inside the ``VALUES`` block: text such as ``"} ; DROP ALL`` arrives as a string
literal and cannot change the query. Only :class:`~rdflib.URIRef` and
:class:`~rdflib.Literal` values are accepted; a Python ``str`` is refused, so user text cannot
be pasted in by mistake.

Binding through ``VALUES`` keeps queries as plain strings, which oxrdflib hands to Oxigraph
(``initBindings`` fails on variables that are not projected, and a prepared query makes
rdflib fall back to its own slow engine).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rdflib import Literal, URIRef

QUERY_DIR = Path(__file__).with_name("queries")
"""Where the scene graph's named queries live."""

Term = URIRef | Literal
"""An RDF term that may be bound to a query parameter."""

Binding = Term | Sequence[Term] | Sequence[Sequence[Term]] | None
"""One term; several terms (one solution each, and none gives no solutions); rows of terms for
a parameter of several variables; or None, which leaves the parameter unbound."""

PLACEHOLDER = re.compile(
    r"VALUES\s+\?(?P<one>\w+)\s*\{\s*UNDEF\s*\}"
    r"|VALUES\s*\((?P<many>(?:\s*\?\w+)+)\s*\)\s*\{\s*\((?:\s*UNDEF)+\s*\)\s*\}"
)
"""A parameter placeholder: ``VALUES ?name { UNDEF }`` or ``VALUES (?a ?b) { (UNDEF UNDEF) }``."""


def check_arguments(
    query: str, parameters: Mapping[str, object], values: Mapping[str, object]
) -> None:
    """TypeError unless ``values`` names every parameter of ``query`` and nothing else."""
    missing = [name for name in parameters if name not in values]
    unknown = [name for name in values if name not in parameters]
    if missing or unknown:
        raise TypeError(
            f"query {query} takes parameters {sorted(parameters)}: "
            f"missing {missing}, unknown {unknown}"
        )


def compact(text: str) -> str:
    """``text`` without whole-line ``#`` comments, blank lines and indentation.

    Only lines whose first non-blank character is ``#`` go, so an IRI holding ``#`` stays
    (the shipped queries write no multi-line string literal, where that would matter).
    """
    lines = (line.strip() for line in text.splitlines())
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("#"))


class QueryFileError(ValueError):
    """A query file that cannot be used (unreadable, or a parameter declared twice)."""


@dataclass(frozen=True)
class NamedQuery:
    """A SPARQL query read from a file, with the parameters its placeholders declare."""

    name: str
    text: str
    parameters: Mapping[str, tuple[str, ...]]
    """Parameter name -> the variables of its ``VALUES`` block (one for a simple parameter)."""

    @classmethod
    def from_text(cls, name: str, text: str) -> NamedQuery:
        """Parse the placeholders of ``text``; a parameter may appear only once.

        The query keeps its text without comment lines and indentation (:func:`compact`): they
        are for the reader of the file, and a query's length is capped where it runs.
        """
        text = compact(text)
        found = [_variables(match) for match in PLACEHOLDER.finditer(text)]
        names = ["_".join(variables) for variables in found]
        duplicates = sorted({param for param in names if names.count(param) > 1})
        if duplicates:
            raise QueryFileError(
                f"query {name}: parameter(s) {', '.join(duplicates)} declared more than once; "
                "write one `VALUES ?name { UNDEF }` placeholder per parameter"
            )
        return cls(name=name, text=text, parameters=dict(zip(names, found, strict=True)))

    @classmethod
    def from_file(cls, path: Path) -> NamedQuery:
        """Read ``path``; the query is named after the file's stem."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise QueryFileError(f"cannot read query file {path}: {error.strerror}") from error
        return cls.from_text(path.stem, text)

    def bind(self, **values: Binding) -> str:
        """The query text with every parameter bound; each one must be passed (None = unbound).

        Raises TypeError when a parameter is missing or unknown, or a value is not an RDF
        term; ValueError when rdflib cannot serialise a term (e.g. an IRI with a space).
        """
        check_arguments(self.name, self.parameters, values)
        blocks = {name: self._values_block(name, value) for name, value in values.items()}

        def substitute(match: re.Match[str]) -> str:
            block = blocks["_".join(_variables(match))]
            return match.group(0) if block is None else block

        return PLACEHOLDER.sub(substitute, self.text)

    def _values_block(self, name: str, value: Binding) -> str | None:
        if value is None:
            return None
        variables = self.parameters[name]
        header = " ".join(f"?{variable}" for variable in variables)
        items: Sequence[object] = [value] if isinstance(value, URIRef | Literal) else value
        if len(variables) == 1:
            return f"VALUES {header} {{ {' '.join(self._n3(name, term) for term in items)} }}"
        rows = []
        for row in items:
            if isinstance(row, str) or not isinstance(row, Sequence) or len(row) != len(variables):
                raise TypeError(
                    f"query {self.name}: parameter {name} takes rows of {len(variables)} "
                    f"terms ({header}), got {row!r}"
                )
            rows.append("(" + " ".join(self._n3(name, cell) for cell in row) + ")")
        return f"VALUES ({header}) {{ {' '.join(rows)} }}"

    def _n3(self, name: str, term: object) -> str:
        if not isinstance(term, URIRef | Literal):
            raise TypeError(
                f"query {self.name}: parameter {name} takes rdflib URIRef or Literal values, "
                f"got {type(term).__name__}; wrap text in Literal(...)"
            )
        try:
            return term.n3()
        except Exception as error:  # rdflib raises a bare Exception for unsafe IRIs
            raise ValueError(f"query {self.name}: cannot bind {name}: {error}") from error


class QueryTemplate(Protocol):
    """A query read from a file with named parameters.

    SPARQL (:class:`NamedQuery`) or SQL (:class:`~knowledge.packs.sql_query.SqlTemplate`).
    """

    @property
    def name(self) -> str:
        """The query's name (its file's stem)."""

    @property
    def text(self) -> str:
        """The query text, parameters unbound."""

    @property
    def parameters(self) -> Mapping[str, tuple[str, ...]]:
        """Parameter name -> the variables it binds."""

    def bind(self, **values: Binding) -> str:
        """The query text with every parameter bound (None: unbound)."""


class QueryLibrary(Mapping[str, QueryTemplate]):
    """The named queries of a directory of ``.rq`` files, read once (a pack may add SQL ones)."""

    def __init__(self, queries: Mapping[str, QueryTemplate]) -> None:
        self._queries = dict(queries)

    @classmethod
    def load(cls, directory: Path = QUERY_DIR) -> QueryLibrary:
        """Read every ``*.rq`` file of ``directory``."""
        paths = sorted(directory.glob("*.rq"))
        if not paths:
            raise QueryFileError(f"no .rq query files in {directory}")
        return cls({path.stem: NamedQuery.from_file(path) for path in paths})

    def __getitem__(self, name: str) -> QueryTemplate:
        try:
            return self._queries[name]
        except KeyError:
            known = ", ".join(sorted(self._queries))
            raise KeyError(f"no query named {name!r}; known queries: {known}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)


def _variables(match: re.Match[str]) -> tuple[str, ...]:
    if match.group("one"):
        return (match.group("one"),)
    return tuple(variable.lstrip("?") for variable in match.group("many").split())
