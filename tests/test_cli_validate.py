"""`hpckg validate`: conforming graph, and each kind of bad curated input."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hpckg.cli import main


def test_bundled_graph_conforms(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Conforms:")


def test_malformed_turtle_names_file_and_line(runner: CliRunner, project_copy: Path) -> None:
    bad = project_copy / "graph" / "systems" / "broken.ttl"
    bad.write_text('@prefix hk: <https://w3id.org/hpckg/ontology#> .\n\nhk:x hk:y "unterminated .\n', encoding="utf-8")
    result = runner.invoke(main, ["validate"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "broken.ttl:3" in lines[0] and "syntax error" in lines[0]


def test_claim_without_citation_or_tier_fails(runner: CliRunner, project_copy: Path) -> None:
    seren = project_copy / "graph" / "systems" / "seren.ttl"
    text = seren.read_text(encoding="utf-8")
    text = text.replace(
        "    hk:tier hk:Reported .\n\nclaim:seren-supply-accelerator",
        "    hk:citation cite:arxiv-2403-07648 .\n\nclaim:seren-supply-accelerator",
        1,
    )
    text = text.replace(
        """    hk:partDescription "286 nodes of 8 NVIDIA A100-SXM 80GB GPUs" ;
    hk:citation cite:arxiv-2403-07648 ;""",
        """    hk:partDescription "286 nodes of 8 NVIDIA A100-SXM 80GB GPUs" ;""",
    )
    seren.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["validate"])
    assert result.exit_code == 1
    assert "claim:seren-operation" in result.output and "hk:tier" in result.output
    assert "claim:seren-supply-accelerator" in result.output and "hk:citation" in result.output
    assert "Does not conform" in result.output


def test_ownership_cycle_fails(runner: CliRunner, project_copy: Path) -> None:
    (project_copy / "graph" / "cycle.ttl").write_text(
        """@prefix hk: <https://w3id.org/hpckg/ontology#> .
@prefix org: <https://w3id.org/hpckg/id/org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<https://w3id.org/hpckg/id/change/nvidia-to-mellanox> a hk:OwnershipChange ;
    hk:acquired org:nvidia ; hk:acquirer org:mellanox ; hk:changeKind hk:Acquisition ;
    hk:completedOn "2021-01-01"^^xsd:date ;
    hk:citation <https://w3id.org/hpckg/id/citation/arxiv-2403-07648> ; hk:tier hk:Weak .
""",
        encoding="utf-8",
    )
    result = runner.invoke(main, ["validate"])
    assert result.exit_code == 1
    assert "ownership cycle" in result.output
    # Queries refuse to roll up through a cycle, with one line.
    query = runner.invoke(main, ["query", "parent-as-of", "--param", "org=mellanox"])
    assert query.exit_code == 1
    assert query.output.count("\n") == 1 and "ownership cycle" in query.output


def test_extra_data_file_is_validated_too(runner: CliRunner, tmp_path: Path) -> None:
    extra = tmp_path / "extra.ttl"
    extra.write_text(
        """@prefix hk: <https://w3id.org/hpckg/ontology#> .
<https://w3id.org/hpckg/id/system/x> a hk:System ; hk:country "Narnia" .
""",
        encoding="utf-8",
    )
    result = runner.invoke(main, ["validate", "--data", str(extra)])
    assert result.exit_code == 1
    assert "system:x" in result.output


def test_inference_option_runs_owlrl(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--inference"])
    assert result.exit_code == 0, result.output
