"""`hpckg query` and `hpckg queries`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from hpckg.cli import main


def test_queries_lists_titles_and_parameters(runner: CliRunner) -> None:
    result = runner.invoke(main, ["queries"])
    assert result.exit_code == 0
    assert "a100-systems-by-current-parent: A100 systems by their supplier's current parent company" in result.output
    assert "--param as_of=<date> = today" in result.output


def test_saved_query_as_csv(runner: CliRunner) -> None:
    result = runner.invoke(main, ["query", "system-components", "--param", "system=seren", "--format", "csv"])
    assert result.exit_code == 0, result.output
    table = list(csv.DictReader(io.StringIO(result.output)))
    assert [r["partLabel"] for r in table] == ["NVIDIA A100 SXM4 80GB", "NVIDIA InfiniBand HDR"]


def test_json_is_sparql_results_json(runner: CliRunner) -> None:
    result = runner.invoke(main, ["query", "parent-as-of", "--param", "org=mellanox", "--format", "json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["head"]["vars"][0] == "parent"
    assert doc["results"]["bindings"][0]["parent"] == {"type": "uri", "value": "https://w3id.org/hpckg/id/org/nvidia"}
    assert doc["results"]["bindings"][0]["hops"]["datatype"] == "http://www.w3.org/2001/XMLSchema#integer"


def test_tsv_and_table(runner: CliRunner) -> None:
    tsv = runner.invoke(main, ["query", "parent-as-of", "--param", "org=mellanox", "--format", "tsv"])
    assert tsv.output.splitlines()[0].startswith("?parent\t?parentLabel")
    assert "<https://w3id.org/hpckg/id/org/nvidia>" in tsv.output
    table = runner.invoke(main, ["query", "parent-as-of", "--param", "org=mellanox"])
    assert "NVIDIA" in table.output and "1 row(s)" in table.output


def test_min_tier_option(runner: CliRunner) -> None:
    weak = runner.invoke(main, ["query", "a100-systems-by-current-parent", "--format", "csv"])
    verified = runner.invoke(
        main, ["query", "a100-systems-by-current-parent", "--format", "csv", "--min-tier", "verified"]
    )
    assert "system/seren" in weak.output and "system/seren" not in verified.output
    refused = runner.invoke(main, ["query", "coverage", "--min-tier", "verified"])
    assert refused.exit_code == 2 and "does not take a minimum tier" in refused.output


def test_adhoc_sparql_and_query_file(runner: CliRunner, tmp_path: Path) -> None:
    adhoc = runner.invoke(
        main, ["query", "--sparql", "SELECT (COUNT(*) AS ?n) WHERE { ?s a hk:System }", "--format", "csv"]
    )
    assert adhoc.exit_code == 0 and int(adhoc.output.splitlines()[1]) > 15
    path = tmp_path / "mine.rq"
    path.write_text("#+ title: mine\n#+ param: org (org) : org\nSELECT ?l WHERE { $org rdfs:label ?l }\n")
    result = runner.invoke(main, ["query", str(path), "--param", "org=nvidia", "--format", "csv"])
    assert result.output.splitlines() == ["l", "NVIDIA"]


def test_unknown_query_one_line_exit_1(runner: CliRunner) -> None:
    result = runner.invoke(main, ["query", "nope"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "query nope: unknown saved query" in result.output


def test_wrong_parameter_type_exit_2(runner: CliRunner) -> None:
    result = runner.invoke(main, ["query", "parent-as-of", "--param", "org=dec", "--param", "as_of=last tuesday"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "parameter as_of" in result.output


def test_syntax_error_exit_1(runner: CliRunner) -> None:
    result = runner.invoke(main, ["query", "--sparql", "SELECT ?s WHERE { ?s ?p }"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "SPARQL syntax error" in result.output


def test_hostile_parameter_is_harmless(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "echo.rq"
    path.write_text("#+ title: echo\n#+ param: text (string) : text\nSELECT ?t WHERE { BIND($text AS ?t) }\n")
    hostile = '"} ; DELETE WHERE {?s ?p ?o} #'
    result = runner.invoke(main, ["query", str(path), "--param", f"text={hostile}", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"]["bindings"][0]["t"]["value"] == hostile
    after = runner.invoke(main, ["query", "--sparql", "ASK { ?s a hk:System }", "--format", "json"])
    assert json.loads(after.output)["boolean"] is True


def test_usage_errors_exit_2(runner: CliRunner) -> None:
    assert runner.invoke(main, ["query"]).exit_code == 2
    assert runner.invoke(main, ["query", "coverage", "--param", "novalue"]).exit_code == 2


def test_output_file_is_written_atomically(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    out.write_text("previous\n")
    failed = runner.invoke(main, ["query", "--sparql", "SELECT ?s WHERE { ?s ?p }", "-o", str(out)])
    assert failed.exit_code == 1 and out.read_text() == "previous\n"
    ok = runner.invoke(main, ["query", "coverage", "--format", "csv", "-o", str(out)])
    assert ok.exit_code == 0 and out.read_text().startswith("systems,")
    assert [p.name for p in tmp_path.iterdir()] == ["rows.csv"]


def test_multiline_parser_message_is_one_line(runner: CliRunner) -> None:
    # pyoxigraph lists the expected characters over several lines for this mistake.
    query = "SELECT (DATATYPE(?v) AS ?dt) (COUNT(*) AS ?n) WHERE { ?m hk:value ?v } GROUP BY (DATATYPE(?v))"
    result = runner.invoke(main, ["query", "--sparql", query])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "SPARQL syntax error" in result.output
