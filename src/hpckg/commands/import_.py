"""`hpckg import SOURCE FILE...`: importers write their own output files."""

from __future__ import annotations

import importlib

import click

__all__ = ["IMPORTERS", "command"]

IMPORTERS = ("top500", "epoch")


@click.group()
def command() -> None:
    """Import external datasets into their own RDF files (never the curated graph)."""


for _name in IMPORTERS:
    try:
        command.add_command(importlib.import_module(f"hpckg.importers.{_name}").command, _name)
    except ModuleNotFoundError as missing:
        if missing.name != f"hpckg.importers.{_name}":
            raise
