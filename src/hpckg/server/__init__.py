"""hpckg's read-only SPARQL 1.1 endpoint (an ASGI app served by ``hpckg serve``)."""

from __future__ import annotations

from .app import ServerConfig, create_app

__all__ = ["ServerConfig", "create_app"]
