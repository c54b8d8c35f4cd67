"""Parameters are bound as RDF terms in an inline VALUES block, never as text."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from hpckg.binding import bind_values
from hpckg.errors import QueryError

HOSTILE = '"} ; DELETE WHERE {?s ?p ?o} #'


def run(query: str, **bindings: object) -> list[dict[str, str]]:
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("http://e/a"), ox.NamedNode("http://e/p"), ox.Literal("1")))
    out = store.query(bind_values(query, bindings))
    return [{v.value: s[v.value].value for v in out.variables if s[v.value] is not None} for s in out]


def test_hostile_string_is_one_literal() -> None:
    assert run("SELECT ?x WHERE { BIND($v AS ?x) }", v=ox.Literal(HOSTILE)) == [{"x": HOSTILE}]


def test_braces_in_prefixes_comments_and_strings_are_skipped() -> None:
    query = 'PREFIX e: <http://e/x> # a { comment\nSELECT ?s WHERE { ?s ?p "1" FILTER(?s = $s) }'
    assert run(query, s=ox.NamedNode("http://e/a")) == [{"s": "http://e/a"}]


def test_exists_in_the_projection_is_not_the_group() -> None:
    query = "SELECT ?s (EXISTS { ?s ?p ?o } AS ?e) WHERE { ?s ?p ?o FILTER(?o = $o) }"
    assert run(query, o=ox.Literal("1")) == [{"s": "http://e/a", "e": "true"}]


def test_construct_template_is_skipped() -> None:
    bound = bind_values("CONSTRUCT { ?s ?p $o } WHERE { ?s ?p ?x }", {"o": ox.Literal("2")})
    assert bound.index("VALUES") > bound.index("WHERE")


def test_construct_short_form_is_refused() -> None:
    with pytest.raises(QueryError, match="CONSTRUCT WHERE short form"):
        bind_values("CONSTRUCT WHERE { ?s ?p ?o }", {"s": ox.NamedNode("http://e/a")})


def test_filter_in_aggregate_query_sees_the_parameter() -> None:
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(?o = $o) }"
    assert run(query, o=ox.Literal("1")) == [{"n": "1"}]
    assert run(query, o=ox.Literal("2")) == [{"n": "0"}]


def test_bad_names_and_blank_nodes_are_refused() -> None:
    with pytest.raises(QueryError):
        bind_values("SELECT * WHERE { }", {"a b": ox.Literal("x")})
    with pytest.raises(QueryError):
        bind_values("SELECT * WHERE { }", {"b": ox.BlankNode()})


def test_sub_select_sees_a_parameter_it_uses() -> None:
    # Without its own VALUES block the sub-SELECT would count every row.
    query = "SELECT ?n WHERE { { SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(?o = $o) } } }"
    assert run(query, o=ox.Literal("1")) == [{"n": "1"}]
    assert run(query, o=ox.Literal("2")) == [{"n": "0"}]


def test_sub_select_not_using_a_parameter_is_left_alone() -> None:
    bound = bind_values("SELECT * WHERE { ?s ?p $o { SELECT ?s WHERE { ?s ?p ?x } } }", {"o": ox.Literal("1")})
    assert bound.count("VALUES") == 1


def test_hostile_string_in_a_sub_select_is_one_literal() -> None:
    query = "SELECT ?x WHERE { { SELECT ?x WHERE { BIND($v AS ?x) } } }"
    assert run(query, v=ox.Literal(HOSTILE)) == [{"x": HOSTILE}]


def test_a_variable_named_select_is_not_a_sub_select() -> None:
    bound = bind_values("SELECT ?select WHERE { ?select ?p $o { ?select ?p ?x } }", {"o": ox.Literal("1")})
    assert bound.count("VALUES") == 1
