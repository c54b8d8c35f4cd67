"""The ``hpckg`` command line: a thin layer over the library.

Each command lives in ``hpckg.commands.<name>`` and builds one object, calls one
library function and formats the result. Library errors become one line and an
exit code here, in one place: 0 success, 1 data or validation failure, 2 usage.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from .errors import HpckgError

__all__ = ["COMMANDS", "main"]

# Module name -> command name. Explicit, so a missing module fails loudly.
COMMANDS = {
    "validate": "validate",
    "queries": "queries",
    "query": "query",
    "export": "export",
    "show": "show",
    "stats": "stats",
    "import_": "import",
    "conflicts": "conflicts",
    "verify": "verify",
    "site": "site",
    "serve": "serve",
    "push": "push",
}


class HpckgGroup(click.Group):
    """Maps :class:`HpckgError` to a one-line message; tracebacks only with --debug."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HpckgError as error:
            if ctx.params.get("debug") or ctx.obj and ctx.obj.get("debug"):
                raise
            # One line, whatever the message: parser errors can carry newlines.
            click.echo("Error: " + " ".join(str(error).split()), err=True)
            if error.hint:
                click.echo(f"Hint: {error.hint}", err=True)
            ctx.exit(error.exit_code)


@click.group(cls=HpckgGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show full tracebacks on errors.")
@click.version_option(package_name="hpckg")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """hpckg: a knowledge graph of supercomputers and AI clusters.

    Every command reads the bundled graph (ontology/ and graph/) plus any data
    files given with --data.
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


for _module, _name in COMMANDS.items():
    _command = importlib.import_module(f"hpckg.commands.{_module}").command
    main.add_command(_command, _name)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
