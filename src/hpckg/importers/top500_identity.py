"""Recognise one machine across TOP500 list editions.

From the 2017-11 list on, rows carry a System ID and identity is simply that ID.
Before, the same machine must be recognised by its site, computer description and
name. Lists are chained in date order: each row joins the *track* (a machine seen in
earlier lists) that matches it best, most specific key first, at most one row per
track per list. When a track without an ID later meets a row with a System ID under
the same key, the whole track takes that ID, so its early rows join the system page.

A track's IRI is, in order: the curated system carrying its System ID
(``hk:top500SystemId``), ``system:top500-<ID>``, or for machines that left the list
before IDs existed a stable digest of their first key.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from rdflib import URIRef

from ..namespaces import digest, id_iri
from .top500_entries import Entry

__all__ = ["Track", "assign_systems", "keys_for"]

# Site names that hide the operator: matching on them alone would glue unrelated machines.
_ANONYMOUS_SITE = re.compile(
    r"^(government|industry|it service provider|service provider|"
    r"internet company|software company|hosting services|energy company|"
    r"semiconductor company|telecommunication company|manufacturing company|"
    r"financial institution|e commerce|logistic services|automotive|"
    r"cloud provider|web services|electronics|aerospace company)\b"
)
_DECIMAL = re.compile(r"\d+\.\d+")


def _norm(text: str) -> str:
    text = _DECIMAL.sub(lambda m: repr(float(m.group(0))), text.lower())
    return " ".join(re.sub(r"[^a-z0-9.]+", " ", text).split())


def keys_for(entry: Entry) -> list[tuple[str, ...]]:
    """Identity keys of a row, most specific first."""
    site, computer, name = _norm(entry.get("site")), _norm(entry.get("computer")), _norm(entry.get("name"))
    keys: list[tuple[str, ...]] = [("full", site, computer, name)]
    anonymous = bool(_ANONYMOUS_SITE.match(site))
    if name and not anonymous:
        keys.append(("site-name", site, name))
    if computer:
        keys.append(("site-computer", site, computer))
    if name and not computer and not anonymous:
        keys.append(("name", name))
    return keys


@dataclass
class Track:
    """One machine followed across lists."""

    entries: list[Entry] = field(default_factory=list)
    system_id: str | None = None
    keys: set[tuple[str, ...]] = field(default_factory=set)
    linked: bool = False  # rows without an ID were joined to a System ID

    @property
    def first(self) -> Entry:
        return self.entries[0]

    @property
    def last(self) -> Entry:
        return self.entries[-1]


def assign_systems(
    entries: Iterable[Entry],
    curated: dict[str, URIRef],
    curated_ranks: dict[tuple[str, int], URIRef] | None = None,
) -> tuple[list[Track], dict[int, URIRef]]:
    """Group entries into tracks and give each track its system IRI.

    Returns the tracks and, for each track index, its IRI. ``curated`` maps a
    System ID to the curated system that carries it; ``curated_ranks`` maps
    (edition, rank) to a curated system that states that ranking entry itself, so
    a curated system without a System ID (or with an older one) still absorbs its rows.
    """
    anchors = curated_ranks or {}
    by_edition: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_edition[entry.edition].append(entry)
    tracks: list[Track] = []
    by_id: dict[str, Track] = {}
    by_key: dict[tuple[str, ...], list[Track]] = defaultdict(list)

    def attach(track: Track, entry: Entry) -> None:
        track.entries.append(entry)
        for key in keys_for(entry):
            if key not in track.keys:
                track.keys.add(key)
                by_key[key].append(track)
        if entry.system_id and track.system_id is None:
            track.system_id = entry.system_id
            by_id[entry.system_id] = track
            track.linked = len(track.entries) > 1

    for edition in sorted(by_edition):
        rows = sorted(by_edition[edition], key=lambda e: e.rank)
        used: set[int] = set()
        pending: list[Entry] = []
        # Rows with a known System ID go first: their identity is certain.
        for entry in rows:
            track = by_id.get(entry.system_id) if entry.system_id else None
            if track is not None and id(track) not in used:
                attach(track, entry)
                used.add(id(track))
            else:
                pending.append(entry)
        # Then every other row, by its most specific key, against tracks not yet used
        # in this list; the most recently seen candidate wins.
        for level in range(4):
            still: list[Entry] = []
            for entry in pending:
                keys = keys_for(entry)
                chosen: Track | None = None
                if level < len(keys):
                    candidates = [
                        t
                        for t in by_key.get(keys[level], [])
                        if id(t) not in used
                        and t.last.edition < edition
                        and (t.system_id is None or not entry.system_id or t.system_id == entry.system_id)
                    ]
                    if candidates:
                        chosen = max(candidates, key=lambda t: (t.last.edition, -t.last.rank))
                if chosen is None:
                    still.append(entry)
                    continue
                attach(chosen, entry)
                used.add(id(chosen))
            pending = still
        for entry in pending:
            track = Track()
            tracks.append(track)
            attach(track, entry)
            used.add(id(track))

    iris: dict[int, URIRef] = {}
    seen_digests: dict[str, int] = defaultdict(int)
    ordered = sorted(range(len(tracks)), key=lambda i: tracks[i].first.sort_key)
    for index in ordered:
        track = tracks[index]
        anchored = next((anchors[(e.edition, e.rank)] for e in track.entries if (e.edition, e.rank) in anchors), None)
        if anchored is not None:
            iris[index] = anchored
            continue
        if track.system_id is not None:
            iris[index] = curated.get(track.system_id) or id_iri("system", "top500-" + track.system_id)
            continue
        first = track.first
        base = digest(*keys_for(first)[0], length=12)
        seen_digests[base] += 1
        suffix = "" if seen_digests[base] == 1 else f"-{seen_digests[base]}"
        iris[index] = id_iri("system", f"top500-{first.edition}-{base}{suffix}")
    return tracks, iris
