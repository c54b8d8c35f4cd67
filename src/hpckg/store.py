"""Load the bundled graph and any user data files into one pyoxigraph store.

This module is the single crossing between pyoxigraph (SPARQL, fast loading) and
rdflib (formats, pyshacl, owlrl): :meth:`Dataset.to_rdflib` is the only place a
store becomes an rdflib graph.

>>> ds = Dataset.load()                                  # doctest: +SKIP
>>> ds.select("SELECT (COUNT(*) AS ?n) WHERE { ?s a hk:System }")[0]["n"].value  # doctest: +SKIP
'19'
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import rdflib

from .binding import bind_values
from .derive import DERIVED_VERSION, materialise_summaries
from .errors import DataError, QueryError
from .namespaces import DERIVED_GRAPH, GRAPH_BASE, PREFIXES

__all__ = ["Dataset", "find_root", "graph_files", "rdf_format_for", "sparql_prefixes"]

META_GRAPH = ox.NamedNode(GRAPH_BASE + "meta")
_FINGERPRINT = ox.NamedNode(GRAPH_BASE + "meta#fingerprint")

_FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
}
_LOCATION = re.compile(r"line (\d+)|at (\d+):")


def sparql_prefixes() -> str:
    """The PREFIX lines every saved query may rely on."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())


def find_root(start: Path | None = None) -> Path:
    """The project root: ``$HPCKG_ROOT``, else the nearest folder above ``start``
    (default: the working directory, then this package) holding ``ontology/hpckg.ttl``."""
    env = os.environ.get("HPCKG_ROOT")
    if env:
        return Path(env)
    candidates = [start or Path.cwd(), Path(__file__).resolve()]
    for base in candidates:
        for folder in [base, *base.parents]:
            if (folder / "ontology" / "hpckg.ttl").is_file():
                return folder
    raise DataError("cannot find the hpckg data (ontology/hpckg.ttl); set HPCKG_ROOT")


def graph_files(root: Path) -> list[Path]:
    """The bundled data set: the ontology and every Turtle file under ``graph/``.

    The shapes are not data: they live beside the ontology but are loaded only by
    :mod:`hpckg.validate`.
    """
    return [root / "ontology" / "hpckg.ttl", *sorted((root / "graph").rglob("*.ttl"))]


def rdf_format_for(path: Path) -> ox.RdfFormat:
    """The RDF format of a file, guessed from its extension."""
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise DataError(f"unsupported file type {path.suffix!r} (use .ttl, .nt, .nq, .trig, .jsonld)", path)
    return fmt


def _syntax_error(path: Path, error: SyntaxError) -> DataError:
    line = getattr(error, "lineno", None)
    if line is None:
        match = _LOCATION.search(str(error))
        if match:
            line = int(match.group(1) or match.group(2))
    message = str(error.msg if hasattr(error, "msg") and error.msg else error)
    return DataError(f"syntax error: {message}", path, line)


@dataclass
class Dataset:
    """The loaded graph: a pyoxigraph store with one named graph per source file."""

    store: ox.Store
    root: Path
    sources: list[Path] = field(default_factory=list)
    rollup_errors: list[str] = field(default_factory=list)

    @classmethod
    def load(
        cls,
        data: Iterable[str | Path] = (),
        *,
        root: str | Path | None = None,
        store_dir: str | Path | None = None,
        bundled: bool = True,
        derive: bool = True,
        strict: bool = True,
    ) -> Dataset:
        """Load the bundled data set plus ``data`` files.

        With ``store_dir`` the store lives on disk and is reused as long as the
        source files are unchanged (same paths, sizes and modification times).
        With ``strict`` an ownership cycle raises :class:`ValidationError`; without
        it the cycle is kept in ``rollup_errors`` for the validation report.
        """
        base = Path(root) if root is not None else find_root()
        files = (graph_files(base) if bundled else []) + [Path(p) for p in data]
        for path in files:
            if not path.is_file():
                raise DataError("no such file", path)
            rdf_format_for(path)
        fingerprint = _fingerprint(files)
        if store_dir is not None:
            store = ox.Store(str(store_dir))
            if _stored_fingerprint(store) == fingerprint:
                return cls(store, base, files)
            store.clear()
        else:
            store = ox.Store()
        dataset = cls(store, base, files)
        for path in files:
            dataset._load_file(path, base)
        if derive:
            from .rollup import materialise_rollups

            dataset.rollup_errors = materialise_rollups(dataset, strict=strict)
            materialise_summaries(dataset)
        if store_dir is not None:
            store.add(ox.Quad(META_GRAPH, _FINGERPRINT, ox.Literal(fingerprint), META_GRAPH))
            store.flush()
        return dataset

    def _load_file(self, path: Path, base: Path) -> None:
        graph = graph_name(path, base)
        fmt = rdf_format_for(path)
        try:
            if path.stat().st_size > 8_000_000 and fmt in (ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N_QUADS):
                self.store.bulk_load(path=str(path), format=fmt, to_graph=graph)
            else:
                self.store.load(path=str(path), format=fmt, to_graph=graph, base_iri=None)
        except SyntaxError as error:
            raise _syntax_error(path, error) from None
        except (OSError, ValueError) as error:
            raise DataError(str(error), path) from None

    # -- querying ---------------------------------------------------------------

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None, *, name: str | None = None) -> Any:
        """Run any SPARQL query over the union of all graphs.

        ``bindings`` (variable name -> RDF term) are bound through an inline VALUES
        block (see :mod:`hpckg.binding`), never pasted in as text.
        """
        text = bind_values(sparql, {k: _to_ox(v) for k, v in bindings.items()}) if bindings else sparql
        try:
            return self.store.query(text, prefixes=PREFIXES, use_default_graph_as_union=True)
        except SyntaxError as error:
            raise QueryError(f"SPARQL syntax error: {error}", name) from None
        except (OSError, ValueError, TypeError, RuntimeError) as error:
            raise QueryError(str(error), name) from None

    def select(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Rows of a SELECT query as dicts of pyoxigraph terms (unbound keys absent)."""
        solutions = self.query(sparql, bindings)
        names = [v.value for v in solutions.variables]
        rows: list[dict[str, Any]] = []
        for solution in solutions:
            row = {}
            for n in names:
                term = solution[n]
                if term is not None:
                    row[n] = term
            rows.append(row)
        return rows

    def ask(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> bool:
        return bool(self.query(sparql, bindings))

    def construct(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[ox.Triple]:
        return list(self.query(sparql, bindings))

    def triple_count(self, include_derived: bool = True) -> int:
        graphs = self.source_graphs(include_derived=include_derived)
        return sum(len(list(self.store.quads_for_pattern(None, None, None, g))) for g in graphs)

    def source_graphs(self, include_derived: bool = False, include_ontology: bool = True) -> list[ox.NamedNode]:
        graphs = [graph_name(p, self.root) for p in self.sources]
        if not include_ontology:
            graphs = [g for g in graphs if "/file/ontology/" not in g.value]
        if include_derived:
            graphs.append(ox.NamedNode(str(DERIVED_GRAPH)))
        return graphs

    # -- the one crossing into rdflib ---------------------------------------------

    def ntriples(self, include_derived: bool = False, include_ontology: bool = True) -> bytes:
        """The union of the source graphs as N-Triples (duplicates across files merged)."""
        graphs: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = list(
            self.source_graphs(include_derived, include_ontology)
        )
        triples = self.store.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", default_graph=graphs)
        assert isinstance(triples, ox.QueryTriples)
        return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""

    def to_rdflib(self, include_derived: bool = False, include_ontology: bool = True) -> rdflib.Graph:
        """An rdflib copy of the data, for pyshacl, owlrl and the rdflib serialisers."""
        graph = rdflib.Graph()
        for prefix, iri in PREFIXES.items():
            graph.bind(prefix, iri, override=True, replace=True)
        graph.parse(data=self.ntriples(include_derived, include_ontology), format="nt")
        return graph


def graph_name(path: Path, root: Path) -> ox.NamedNode:
    """The named graph a source file is loaded into: stable for bundled files."""
    try:
        rel = path.resolve().relative_to(root.resolve()).as_posix()
        return ox.NamedNode(GRAPH_BASE + "file/" + rel)
    except ValueError:
        key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
        return ox.NamedNode(GRAPH_BASE + "data/" + key + "/" + path.name)


def _fingerprint(files: Sequence[Path]) -> str:
    stats = [(str(p.resolve()), p.stat().st_size, p.stat().st_mtime_ns) for p in files]
    # The derivation version too: a store written before the summaries changed is rebuilt.
    return hashlib.sha256(json.dumps([DERIVED_VERSION, stats]).encode()).hexdigest()


def _stored_fingerprint(store: ox.Store) -> str | None:
    for quad in store.quads_for_pattern(None, _FINGERPRINT, None, META_GRAPH):
        if isinstance(quad.object, ox.Literal):
            return quad.object.value
    return None


def _to_ox(term: Any) -> Any:
    """Accept pyoxigraph terms as they are and convert rdflib terms."""
    if isinstance(term, (ox.NamedNode, ox.Literal, ox.BlankNode)):
        return term
    if isinstance(term, rdflib.URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, rdflib.Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise TypeError(f"cannot bind {term!r} as an RDF term")
