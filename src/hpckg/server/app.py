"""The read-only SPARQL 1.1 endpoint as a Starlette ASGI application.

Routes::

    GET  /                  an offline HTML query page, saved queries as examples
    GET  /sparql            SPARQL 1.1 Protocol query (?query=...)
    POST /sparql            form-encoded or application/sparql-query body
    GET  /queries           the saved queries (JSON)
    GET  /queries/<name>    run one saved query; other URL parameters bind its params

Errors are one line of ``text/plain``: 400 malformed query or bad parameter,
403 update refused, 404 unknown saved query, 406 no acceptable format, 415 bad
body type, 422 result above the row cap, 503 query timeout.

>>> from hpckg.store import Dataset                       # doctest: +SKIP
>>> app = create_app(Dataset.load(), ServerConfig(timeout=5))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..binding import bind_values
from ..errors import HpckgError
from ..queries import SavedQuery, all_saved, bind_params
from ..store import Dataset
from .execute import Outcome, QueryFailed, QueryTimeout, RowCapExceeded, evaluate, render
from .protocol import (
    FORMAT_ALIASES,
    GRAPH_TYPES,
    READ_ONLY,
    RESULT_TYPES,
    MediaType,
    ProtocolError,
    looks_like_update,
    negotiate,
    parse_request,
)

__all__ = ["ServerConfig", "create_app"]


@dataclass(frozen=True)
class ServerConfig:
    """Limits of the endpoint: seconds per query, rows per result, worker threads."""

    timeout: float = 10.0
    max_rows: int = 10_000
    workers: int = 4
    cache_size: int = 256


# Results of queries calling these differ from run to run, so they are never cached.
_VOLATILE = re.compile(r"\b(NOW|RAND|UUID|STRUUID|BNODE|SERVICE)\b", re.IGNORECASE)
_CACHEABLE_BYTES = 1_000_000
# (HTTP status, body, content type) of one answered query.
Reply = tuple[int, bytes, str]


def _choose(kind: str, fmt: str | None, accept: str | None) -> MediaType:
    table = GRAPH_TYPES if kind == "triples" else RESULT_TYPES
    if fmt is not None:
        pair = FORMAT_ALIASES.get(fmt.lower())
        media = None if pair is None else (pair[1] if kind == "triples" else pair[0])
        if media is None:
            names = sorted({m.name for m in table.values()})
            raise ProtocolError(400, f"format {fmt!r} is not available for this query (use one of {', '.join(names)})")
        return media
    media = negotiate(accept, table)
    if media is None:
        offered = ", ".join(dict.fromkeys(m.media_type for m in table.values()))
        raise ProtocolError(406, f"no acceptable format for Accept: {accept}; this result is offered as {offered}")
    return media


class Endpoint:
    """Holds the dataset, the saved queries and the worker pool behind the routes."""

    def __init__(self, dataset: Dataset, config: ServerConfig, saved: Sequence[SavedQuery]) -> None:
        self.dataset = dataset
        self.config = config
        self.saved = {q.name: q for q in saved}
        self.pool = ThreadPoolExecutor(config.workers, thread_name_prefix="hpckg-query")
        # The store never changes while served, so a repeated request can reuse its bytes.
        self.cache: OrderedDict[tuple[Any, ...], Reply] = OrderedDict()
        self.inflight: dict[tuple[Any, ...], asyncio.Future[Reply]] = {}

    async def answer(
        self,
        text: str,
        fmt: str | None,
        accept: str | None,
        *,
        default_graphs: Sequence[str] = (),
        named_graphs: Sequence[str] = (),
    ) -> Response:
        """Run a query and answer it; identical requests share one run and then the cache."""
        key = (text, fmt, accept, tuple(default_graphs), tuple(named_graphs))
        reply = self.cache.get(key)
        if reply is not None:
            self.cache.move_to_end(key)
        else:
            task = self.inflight.get(key)
            if task is None:
                task = asyncio.ensure_future(self._compute(text, fmt, accept, default_graphs, named_graphs))
                self.inflight[key] = task
                task.add_done_callback(lambda _: self.inflight.pop(key, None))
            # shield: one client hanging up must not cancel the run the others wait on.
            reply = await asyncio.shield(task)
            cacheable = reply[0] == 200 and len(reply[1]) <= _CACHEABLE_BYTES and not _VOLATILE.search(text)
            if self.config.cache_size and cacheable:
                self.cache[key] = reply
                if len(self.cache) > self.config.cache_size:
                    self.cache.popitem(last=False)
        status, body, content_type = reply
        return Response(body, status_code=status, media_type=content_type, headers={"Vary": "Accept"})

    async def _compute(
        self,
        text: str,
        fmt: str | None,
        accept: str | None,
        default_graphs: Sequence[str],
        named_graphs: Sequence[str],
    ) -> Reply:
        deadline = time.monotonic() + self.config.timeout

        def work() -> tuple[bytes, MediaType]:
            outcome: Outcome = evaluate(
                self.dataset.store,
                text,
                deadline=deadline,
                max_rows=self.config.max_rows,
                default_graphs=default_graphs,
                named_graphs=named_graphs,
            )
            media = _choose(outcome.kind, fmt, accept)
            return render(outcome, media), media

        future = asyncio.get_running_loop().run_in_executor(self.pool, work)
        try:
            body, media = await asyncio.wait_for(future, self.config.timeout)
        except (TimeoutError, QueryTimeout):
            return _failure(503, f"query timed out after {self.config.timeout:g} s (the server's limit)")
        except SyntaxError as error:
            if looks_like_update(text):
                return _failure(403, READ_ONLY)
            return _failure(400, f"SPARQL syntax error: {error}")
        except RowCapExceeded as error:
            return _failure(422, str(error))
        except QueryFailed as error:
            return _failure(400, f"query failed: {error}")
        except ProtocolError as error:
            return _failure(error.status, error.message)
        return 200, body, media.content_type

    async def sparql(self, request: Request) -> Response:
        try:
            parsed = parse_request(
                request.method, request.url.query, request.headers.get("content-type"), await request.body()
            )
        except ProtocolError as error:
            return _error(error.status, error.message)
        return await self.answer(
            parsed.query,
            parsed.format,
            request.headers.get("accept"),
            default_graphs=parsed.default_graphs,
            named_graphs=parsed.named_graphs,
        )

    async def list_queries(self, request: Request) -> Response:
        return JSONResponse([_describe(q) for q in self.saved.values()])

    async def run_saved(self, request: Request) -> Response:
        name = request.path_params["name"]
        query = self.saved.get(name)
        if query is None:
            known = ", ".join(self.saved) or "none"
            return _error(404, f"unknown saved query {name!r} (known: {known})")
        values: dict[str, str] = {}
        fmt: str | None = None
        for key, value in parse_qsl(request.url.query, keep_blank_values=True):
            if key == "format" and query.param("format") is None:
                fmt = value
            elif key in values:
                return _error(400, f"parameter {key}: given more than once")
            else:
                values[key] = value
        try:
            # The same binding as the embedded engine and hpckg.remote: a VALUES block.
            text = bind_values(query.text, bind_params(query, values))
        except HpckgError as error:
            return _error(400, str(error))
        return await self.answer(text, fmt, request.headers.get("accept"))

    async def page(self, request: Request) -> Response:
        examples = [{"name": q.name, "title": q.title or q.name, "text": q.text} for q in self.saved.values()]
        # "<" escaped so a query text cannot close the <script> element.
        blob = json.dumps(examples).replace("<", "\\u003c")
        template = resources.files("hpckg").joinpath("static/sparql.html").read_text(encoding="utf-8")
        return HTMLResponse(template.replace("/*EXAMPLES*/[]", blob))


def _describe(query: SavedQuery) -> dict[str, Any]:
    return {
        "name": query.name,
        "title": query.title,
        "description": query.description,
        "tags": list(query.tags),
        "params": [
            {
                "name": p.name,
                "type": p.type,
                "default": p.default,
                "required": p.required,
                "description": p.description,
            }
            for p in query.params
        ],
        "url": f"queries/{query.name}",
        "text": query.text,
    }


def _failure(status: int, message: str) -> Reply:
    return status, (message.replace("\n", " ") + "\n").encode("utf-8"), "text/plain; charset=utf-8"


def _error(status: int, message: str) -> Response:
    return PlainTextResponse(message.replace("\n", " ") + "\n", status_code=status)


def create_app(
    dataset: Dataset,
    config: ServerConfig | None = None,
    saved: Sequence[SavedQuery] | None = None,
) -> Starlette:
    """The ASGI app serving ``dataset`` read-only; ``saved`` defaults to the project's queries."""
    endpoint = Endpoint(dataset, config or ServerConfig(), all_saved(dataset.root) if saved is None else saved)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        endpoint.pool.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", endpoint.page, methods=["GET"]),
        Route("/sparql", endpoint.sparql, methods=["GET", "POST"]),
        Route("/queries", endpoint.list_queries, methods=["GET"]),
        Route("/queries/{name}", endpoint.run_saved, methods=["GET"]),
    ]
    middleware = [
        Middleware(
            CORSMiddleware,
            allow_origins=["*"],
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["*"],
            max_age=3600,
        )
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.endpoint = endpoint
    return app
