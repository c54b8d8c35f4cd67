"""Exports: deterministic Turtle, JSON-LD round trip, golden files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rdflib
from click.testing import CliRunner
from rdflib.compare import isomorphic

from hpckg.cli import main
from hpckg.export import export
from hpckg.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
SEREN = [ROOT / "ontology" / "hpckg.ttl", ROOT / "graph" / "systems" / "seren.ttl"]


def seren_only() -> Dataset:
    return Dataset.load(SEREN, root=ROOT, bundled=False)


@pytest.mark.parametrize("fmt", ["ttl", "nt", "jsonld"])
def test_golden_export_of_seren(fmt: str, request: pytest.FixtureRequest) -> None:
    text = export(seren_only(), fmt)
    golden = GOLDEN / f"seren.{fmt}"
    if request.config.getoption("--update-golden"):
        golden.write_text(text, encoding="utf-8")
    expected = golden.read_text(encoding="utf-8")
    parse_as = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld"}[fmt]
    assert isomorphic(
        rdflib.Graph().parse(data=text, format=parse_as), rdflib.Graph().parse(data=expected, format=parse_as)
    )
    assert text == expected, f"{golden.name} differs byte for byte; rerun pytest --update-golden if intended"


def test_turtle_export_is_byte_identical_twice(dataset: Dataset) -> None:
    first = export(dataset, "ttl")
    second = export(Dataset.load(root=ROOT), "ttl")
    assert first == second


def test_turtle_jsonld_turtle_is_isomorphic(dataset: Dataset, tmp_path: Path) -> None:
    turtle = export(dataset, "ttl")
    (tmp_path / "graph.ttl").write_text(turtle, encoding="utf-8")
    as_jsonld = export(Dataset.load([tmp_path / "graph.ttl"], root=ROOT, bundled=False), "jsonld")
    (tmp_path / "graph.jsonld").write_text(as_jsonld, encoding="utf-8")
    back = export(Dataset.load([tmp_path / "graph.jsonld"], root=ROOT, bundled=False), "ttl")
    original = rdflib.Graph().parse(data=turtle, format="turtle")
    assert len(original) > 1000
    assert isomorphic(original, rdflib.Graph().parse(data=back, format="turtle"))
    assert back == turtle  # no blank nodes, so even the bytes survive the round trip


def test_jsonld_is_compact_and_readable(dataset: Dataset) -> None:
    document = json.loads(export(dataset, "jsonld"))
    nodes = {node["@id"]: node for node in document["@graph"]}
    seren = next(n for i, n in nodes.items() if i.endswith("system/seren"))
    assert seren["@type"] == "System"
    assert seren["label"] == "Seren (Shanghai AI Lab)"
    assert seren["country"] == "CN"


def test_no_blank_nodes_in_the_graph(dataset: Dataset) -> None:
    assert not dataset.ask("ASK { { ?s ?p ?o FILTER(isBlank(?s)) } UNION { ?s ?p ?o FILTER(isBlank(?o)) } }")


def test_context_is_generated_from_the_ontology() -> None:
    from hpckg.context import build_context

    ontology = rdflib.Graph().parse(ROOT / "ontology" / "hpckg.ttl")
    committed = json.loads((ROOT / "ontology" / "context.jsonld").read_text(encoding="utf-8"))
    assert committed == build_context(ontology), "run python -m hpckg.context to regenerate"


def test_export_command_writes_atomically(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "graph.ttl"
    out.write_text("old\n")
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle\n")
    failed = runner.invoke(main, ["export", "-o", str(out), "--data", str(bad)])
    assert failed.exit_code == 1 and "bad.ttl:1" in failed.output
    assert out.read_text() == "old\n"
    ok = runner.invoke(main, ["export", "--format", "nt", "-o", str(out)])
    assert ok.exit_code == 0
    assert out.read_text().startswith("<https://w3id.org/hpckg/")
