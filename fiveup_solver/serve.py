"""``fiveup serve``: the browser app (play the bots with hints, then an analysis board) and its JSON API.

Needs the ``serve`` extra (FastAPI and uvicorn): ``pip install 'fiveup_solver[serve]'``.
The pages are plain HTML, CSS and ES modules shipped in ``fiveup_solver/static``;
every board picture comes from :mod:`fiveup_solver.svg`. The API answers with the
same JSON as the command line (``fiveup hint --json``, ``solve --json``,
``equity --json``, ``analyze --json``), from the same library calls.

Limits (also in docs/serve.md):

* bound to 127.0.0.1 by default; every request's ``Host`` header must name a
  loopback host (127.0.0.1, localhost, [::1]), the host the server was bound to or a
  name given with ``--allow-host`` (:func:`check_allowed_host`), so a page of another
  site cannot reach the server through DNS rebinding;
* request bodies of at most :data:`MAX_BODY_BYTES` (one larger than
  :data:`LOOP_BODY_BYTES` is checked for repeated keys off the event loop);
* searches (hints, solves, the bots' moves, analyses) run in a pool of worker
  threads, one per core, each search on one thread; analyses take at most
  ``cores - 1`` of them (at least one), so analyses alone never take every core from a hint;
  at most :data:`MAX_WAITING_SEARCHES` requests run or wait for a worker at once (every
  request that needs one: hints, solves, new games, moves, a game's pending bot replies,
  undos, game boards, positions, an analysis's record replay), one more is refused with
  429 before its body is parsed; a web game's bots search within the strongest level's
  budget (:func:`_check_web_bots`);
* games and analyses live in memory only: at most :data:`MAX_GAMES` games, a
  game untouched for :data:`GAME_IDLE_SECONDS` is dropped, and a new game past
  the cap drops the game untouched longest if that is :data:`KEEP_RECENT_SECONDS`
  or more, else it is refused with 429; at most :data:`MAX_ANALYSES`
  analyses, a finished one kept :data:`ANALYSIS_KEEP_SECONDS`, a new one past
  the cap drops the oldest finished one if it finished :data:`KEEP_RECENT_SECONDS`
  or more ago, else it is refused with 429;
* at most :data:`MAX_CONNECTIONS` connections and requests at once (uvicorn's
  ``limit_concurrency``: 503 past it); no TLS, login or rate limit of its own: on a
  network it belongs behind a reverse proxy (docs/serve.md, "Putting it on a network");
* every bad input gets a 4xx answer ``{"error": "<one line>"}``.

>>> app = create_app()
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/"))[:3]
['/api/analyses', '/api/analyses/{analysis_id}', '/api/analyses/{analysis_id}/cancel']
"""
from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import html
import io
import json
import math
import os
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal, Optional, Union

try:
    from fastapi import FastAPI, Query, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from pydantic import BaseModel, ConfigDict, Field, field_validator
    from starlette.exceptions import HTTPException as StarletteHTTPException
except ImportError as _missing:   # the extra is optional: say which one
    raise ImportError(f"the browser app needs the serve extra ({_missing.name} is missing): "
                      f"pip install 'fiveup_solver[serve]'") from _missing

from fiveup_solver import __version__
from fiveup_solver.analysis import AnalysisBudget, _seats_to_analyse, analyze
from fiveup_solver.beliefs import check_beliefs
from fiveup_solver.bots import BOTS, bot_function, check_bot, names_a_module
from fiveup_solver.equity import equity_result
from fiveup_solver.errors import (FiveUpError, OptionError, SearchStopped, check_seed, is_digits, is_int as _is_int,
                                  json_kind, short_repr as _short)
from fiveup_solver.hint import (ALPHAMU_LEAF_NODES, DEFAULT_DEPTH, HINT_METHODS, Hinter, SearchBudget,
                                 use_hinter)
from fiveup_solver.levels import LEVELS
from fiveup_solver.notation import ALL_TILES, format_domino_parts, format_move, same_as_earlier
from fiveup_solver.play import TerminalGame, bots_for_seats
from fiveup_solver.record import (check_record, game_at, game_from_record, observation_at, past_observations,
                                  repeated_key_fault)
from fiveup_solver.solver import Solver, check_search
from fiveup_solver.svg import DEFAULT_BOUNDS, NARROW_BOUNDS, arrow_groups, board_svg

__all__ = ["create_app", "run", "MAX_BODY_BYTES", "MAX_GAMES", "GAME_IDLE_SECONDS", "MAX_ANALYSES",
           "ANALYSIS_KEEP_SECONDS", "KEEP_RECENT_SECONDS", "MAX_WAITING_SEARCHES", "MAX_CONNECTIONS",
           "DEFAULT_HOST", "DEFAULT_PORT"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8061
# a record takes about 1 kB a round (0.85 to 1.2 kB in 80 self-played games of 2 to 4 players,
# compact JSON; the largest game, 21 rounds, 22 kB), so this holds some 800 to 1,100 rounds
MAX_BODY_BYTES = 1_000_000
BODY_SECONDS = 30                    # a request body must arrive whole within this (else 408)
# a body larger than this is checked for repeated keys (a full JSON parse) off the event loop,
# on the light thread: 1 MB of {} took about 0.2 s of the loop, /api/health waited behind it
LOOP_BODY_BYTES = 64_000
MAX_GAMES = 64
GAME_IDLE_SECONDS = 6 * 3600
MAX_ANALYSES = 16
ANALYSIS_KEEP_SECONDS = 3600
# a game touched, or an analysis finished, this recently is never dropped to make room for a
# new one: the new one is refused with 429 instead (a review: one client's 64 new games in
# 0.3 s ended every other client's game, and 16 analyses every finished one)
KEEP_RECENT_SECONDS = 10 * 60
# uvicorn's limit_concurrency: connections and requests at once, past it a 503 (a review: idle
# connections were never timed out and nothing bounded their number)
MAX_CONNECTIONS = 256
BOARD_SIZE = 560
# how a board is laid out for the screen showing it: "narrow" bends its lines sooner, into a
# square a phone's portrait screen shows at a readable size (svg.NARROW_BOUNDS)
BOARD_LAYOUTS = {"wide": DEFAULT_BOUNDS, "narrow": NARROW_BOUNDS}
Layout = Literal["wide", "narrow"]
_LAYOUT_HELP = "wide (the default) or narrow: a board for a narrow, portrait screen, its lines bent sooner"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
STATIC = Path(__file__).parent / "static"

# what one request may ask of the search (the library takes more; a shared server caps it)
HINT_MAX_SAMPLES = 1024
HINT_MAX_TIME_MS = 30_000
HINT_MAX_WORLD_NODES = 1_000_000
DISCONNECT_POLL_SECONDS = 0.1        # how often a running hint asks whether its client is still there
# requests running or waiting for a search worker (hints, solves, new games, moves, undos, game
# boards, positions, an analysis's record replay: _State.pool_slot, _POOL_ROUTES); more: 429
MAX_WAITING_SEARCHES = 32
# what a web game's bot may search a decision: a bot named with a budget (hint:SAMPLES:NODES,
# METHOD@MSms, hint-alphamu-dN) at most the strongest level's (the last, level8: 48 worlds of
# 20,000 nodes; a review: hint:1024:1000000 took 59 s of a worker at one game's start); alphamu's
# nodes are per leaf and its depth its own: at most the hint-alphamu bot's (2,000, depth 1); a
# time budget at most WEB_BOT_MAX_TIME_MS (level8's own decisions took 0.004-0.013 s at the median
# and up to 0.05-0.64 s, 2 to 4 players, measured on a loaded 2-core machine)
WEB_BOT_LEVEL = list(LEVELS.values())[-1]
WEB_BOT_MAX_SAMPLES = WEB_BOT_LEVEL.samples
WEB_BOT_MAX_WORLD_NODES = WEB_BOT_LEVEL.world_nodes
WEB_BOT_MAX_LEAF_NODES = ALPHAMU_LEAF_NODES
WEB_BOT_MAX_DEPTH = DEFAULT_DEPTH
WEB_BOT_MAX_TIME_MS = 250
SOLVE_DEFAULT_NODES = 20_000_000
SOLVE_MAX_NODES = 200_000_000
ANALYSIS_MAX_SAMPLES = 512
ANALYSIS_MAX_DD_NODES = 10_000_000
# more actions than any round holds (a move's or an undo's `action` above it names no position):
# at most 28 placements and 18 draws (the largest boneyard, 2 players), and at most 3 passes in a
# row between them (RULES §5.4, D2: a seat passes only while another seat can still place)
MAX_ROUND_ACTIONS = 28 + 18 + 3 * (28 + 18 + 1)


class ApiError(Exception):
    """A 4xx answer: ``{"error": message}`` with this status."""

    def __init__(self, status: int, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        # a 429's Retry-After in seconds (None: RETRY_AFTER_SECONDS)
        self.retry_after = retry_after


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# a 429's Retry-After (seconds) when nothing says better: a busy search pool frees within
# seconds (a review found the 429s gave a client no hint when to come back)
RETRY_AFTER_SECONDS = 2
ANALYSIS_RETRY_SECONDS = 30          # every analysis slot queued or running: an analysis takes minutes


def _retry_headers(status: int, retry_after: int | None = None) -> dict:
    if status != 429:
        return {}
    return {"retry-after": str(max(1, int(retry_after if retry_after is not None else RETRY_AFTER_SECONDS)))}


def _error(status: int, message: str, retry_after: int | None = None) -> JSONResponse:
    return JSONResponse({"error": _one_line(message) or "error"}, status_code=status,
                        headers=_retry_headers(status, retry_after))


# a page that is not there, for a browser's navigation (a review: it showed the raw JSON error)
NOT_FOUND_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Exact 61 Five Up: page not found</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body data-state="not-found">
<header>
  <h1>Exact 61 Five Up</h1>
  <nav><a href="/">Play</a> <a href="/analysis">Analysis board</a></nav>
</header>
<main>
<section class="panel" aria-labelledby="not-found-title">
  <h2 id="not-found-title">Page not found</h2>
  <p id="not-found">There is no page at <code>{path}</code>: go to the <a href="/">play page</a> or the
    <a href="/analysis">analysis board</a>.</p>
</section>
</main>
</body>
</html>
"""


def _api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def _wants_html(request: Request) -> bool:
    """A browser's navigation to a page: not an /api path, and an Accept header that names
    text/html (fetch(), curl and API clients send */* or JSON: they get the JSON error)."""
    if _api_path(request.url.path):
        return False
    for part in request.headers.get("accept", "").split(","):
        kind, *params = [p.strip().lower() for p in part.split(";")]
        if kind in ("text/html", "application/xhtml+xml"):
            q = next((p[2:].strip() for p in params if p.startswith("q=")), "1")
            try:
                return float(q) > 0         # (q=0: "not HTML")
            except ValueError:
                return True
    return False


def _not_found(request: Request, message: str) -> Response:
    """404: the page above for a browser's navigation, else ``{"error": message}``."""
    if _wants_html(request):
        page = NOT_FOUND_PAGE.replace("{path}", html.escape(_one_line(request.url.path, 80)))
        answer = HTMLResponse(page, status_code=404)
    else:
        answer = _error(404, message)
    if not _api_path(request.url.path):
        answer.headers["vary"] = "Accept"      # (the answer depends on it)
    return answer


# --------------------------------------------------------------------------- request bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorAnswer(BaseModel):
    """Every error the API answers: one line naming what is wrong and where."""

    error: str


# every operation's error answers as the server gives them (a review: the schema had FastAPI's
# 422 {"detail": [...]} only, and no 400, 404, 409, 413 or 429: a client generated from it
# modelled none of the real errors)
ERROR_RESPONSES = {code: {"model": ErrorAnswer, "description": text} for code, text in (
    (400, "bad input: a record, a move, an option (one line naming it)"),
    (404, "no such game, analysis or page"),
    (409, "the game is busy with another request, or has moved on (another tab)"),
    (413, "the request body is too large"),
    (422, "a field is missing or of the wrong kind"),
    (429, "too many analyses queued or running"))}


class HintRequest(_Body):
    record: dict = Field(description="a fiveup-record/1 object: a full record or the seat's view")
    seat: int
    round: Optional[int] = Field(None, description="default: the record's last position (with action)")
    action: Optional[int] = None
    method: str = Field("pimc", description="pimc, expectimax or alphamu (2 players)")
    time_ms: Optional[float] = Field(None, description=f"anytime budget, 1..{HINT_MAX_TIME_MS}")
    samples: Optional[int] = Field(None, description=f"sampled worlds, 1..{HINT_MAX_SAMPLES} (default 48)")
    seed: int = 0
    world_nodes: int = 20_000
    objective: Optional[str] = None
    beliefs: Optional[str] = None
    search: Optional[str] = Field(None, description="3 players: maxn or paranoid (none: the hint's default, "
                                                    "paranoid; an analysis searches maxn); 2 and 4 players are "
                                                    "two sides either way")


class SolveRequest(_Body):
    record: dict = Field(description="a full fiveup-record/1 object (every hand known)")
    round: int
    action: int
    objective: str = "points"
    node_limit: int = Field(SOLVE_DEFAULT_NODES, description=f"1..{SOLVE_MAX_NODES}")


class NewGameRequest(_Body):
    players: int = 2
    seat: int = 0
    bots: list[str] = Field(default_factory=lambda: ["level1"],
                            description="one bot per other seat, in seat order (a shorter list repeats)")
    seed: Optional[Union[int, str]] = Field(
        None, description="the deal's seed, 0..2^64-1, a number or a string of decimal digits (a page's "
                          "JavaScript numbers hold integers up to 2^53 exactly); none: a secret one the server "
                          "draws (a known seed makes every hidden tile computable)")
    record: Optional[dict] = Field(None, description="go on from this record's last position (full or the seat's view)")
    layout: Layout = Field("wide", description=_LAYOUT_HELP + " (the game's boards from now on)")

    @field_validator("seed")
    @classmethod
    def _seed_digits(cls, seed):
        """A seed given as text: decimal digits, read exactly (check_seed checks its range)."""
        if isinstance(seed, str):
            if not is_digits(seed) or len(seed) > 30:
                raise ValueError(f"a seed given as a string must be decimal digits, 0..2^64-1, not {_short(seed, 40)}")
            return int(seed)
        return seed


class UndoRequest(_Body):
    round: Optional[int] = Field(None, description="the position the request was made on: the view's round "
                                                   "(with action; a page always sends both)")
    action: Optional[int] = Field(None, description="the length of that view's history: a request made on a "
                                                    "position the game has left (another tab moved) is refused "
                                                    "with 409")
    layout: Optional[Layout] = Field(None, description=_LAYOUT_HELP + " (the game's boards from now on; "
                                                                      "none: as before)")


class MoveRequest(UndoRequest):
    move: str = Field(description="record notation, e.g. 3-4@4-4:lineB, read as `fiveup play` reads a typed move: "
                                  "a port's name in any case, a tile alone where it has one legal placement")


class AnalysisRequest(_Body):
    record: dict
    seat: Optional[int] = None
    samples: int = 96
    luck_samples: int = 48
    dd_nodes: int = 2_000_000
    seed: int = 0
    beliefs: Optional[str] = None


class RecordRequest(_Body):
    record: dict


class BoardRequest(_Body):
    placements: list[str] = Field(description="the round's placements in order, record notation")
    arrows: list[list[str]] = Field(default_factory=list, description="[move, colour] pairs")
    lastmove: Optional[str] = None
    size: int = BOARD_SIZE
    layout: Layout = Field("wide", description=_LAYOUT_HELP)


class GameBoardRequest(_Body):
    round: int = Field(description="the view's round the board is asked on (with action)")
    action: int = Field(description="the length of that view's history: a position the game has left is refused "
                                    "with 409")
    arrows: list[list[str]] = Field(default_factory=list, description="[move, colour] pairs (a hint's best move)")
    layout: Layout = Field("wide", description=_LAYOUT_HELP)


class PositionRequest(_Body):
    record: dict
    round: int
    action: int
    arrows: list[list[str]] = Field(default_factory=list)
    size: int = BOARD_SIZE
    layout: Layout = Field("wide", description=_LAYOUT_HELP)


# --------------------------------------------------------------------------- games
_BOT_HINTERS = threading.local()    # each search worker thread's Hinter for the games' bot replies


class WebGame(TerminalGame):
    """One person against bots, as ``fiveup play`` runs it (the same flow: forced draws
    and passes made for the person, rounds dealt by the server), answered as JSON views.

    ``bots``: one name per seat (the person's entry is ignored)."""

    def __init__(self, players, bots, seat, seed, record=None, layout: str = "wide"):
        super().__init__(players, bots, seat, seed, out=io.StringIO())
        self.bounds = DEFAULT_BOUNDS
        self.use_layout(layout)
        self.from_view = False
        if record is not None:
            record = check_record(record)
            # a game going on from a seat's view plays its hidden tiles as sampled ones: its record
            # stays that seat's view to the end, never a "full" record of tiles nobody held
            self.from_view = record.get("view") is not None
            if record["players"] != players:
                raise OptionError(f"the record is a {record['players']}-player game, not {players}")
            if record.get("view") is not None and record["view"] != seat:
                raise OptionError(f"the record is seat {record['view']}'s view: play it as seat {record['view']}")
            if not record["rounds"]:
                raise OptionError("the record has no rounds")
            game = game_from_record(record, seed=self.seed)
            game.seats = list(self.game.seats)
            self.game = game
            if self.from_view and not game.round_over:
                # the view's replay filled the unseen tiles of its last round from a fixed
                # seed (record.view_deal): the person could compute them. They are dealt
                # again from this game's seed, as after an undo.
                self._deal_hidden_again("view")
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.steps: list = []
        # set when nobody waits for the bots' replies any more (the client left, the server
        # stops): advance() stops before the next bot's move, and goes on at the next view
        self.stopped = threading.Event()

    def stop_requested(self) -> bool:
        return self.stopped.is_set()

    def advance(self) -> None:
        # the bots' replies search on their worker thread's own Hinter, one thread as every pool
        # worker's search: on the package's one default, every game's bot decisions took turns
        # (a review). One a worker, kept (about 8 MB once used): not one a game (64 games), nor
        # one a call, whose fresh table cost more than a cheap level's search (0.22 s against
        # 0.12 s for 80 level6 moves). Two games' level8 replies side by side: 0.17-0.19 s against
        # 0.31-0.37 s on the default (benchmarks/web_bots_side_by_side.py). A fixed budget's moves do
        # not depend on the table's past (the same moves either way).
        hinter = getattr(_BOT_HINTERS, "hinter", None)
        if hinter is None:
            hinter = _BOT_HINTERS.hinter = Hinter(threads=1)
        with use_hinter(hinter):
            super().advance()

    @property
    def bots_to_move(self) -> bool:
        """Stopped with the bots' replies not all made: a view asked for goes on with them."""
        g = self.game
        return not self.finished and (g.round_over or g.to_move != self.seat)

    def go_on(self) -> dict:
        """The bots' replies left when a request was stopped, then the view."""
        self.stopped.clear()
        self.advance()
        return self.view()

    def use_layout(self, layout) -> None:
        """Draw the game's boards from now on in `layout` (BOARD_LAYOUTS), as the person's
        screen asked; None: as before."""
        if layout is not None:
            self.bounds = BOARD_LAYOUTS[layout]

    def say(self, text: str = "") -> None:   # the terminal's text is not wanted here
        pass

    def report_events(self, seat: int, move, events) -> None:
        """After every action: what the person may see of it (another seat's draw
        hides its tile), the scores, hand sizes and boneyard after it (the page's status
        line while the bots' replies are shown one by one), the board after it, and the
        round's end when it ended one."""
        g = self.game
        r = g.current
        action = r.history(self.seat)[-1]
        step = {"round": len(g.rounds) - 1, "action": len(r.moves) - 1, "seat": seat,
                "name": g.seats[seat], "act": action, "move": _action_text(action),
                "forced": seat == self.seat and move.kind != "play",
                "events": [e.to_dict() for e in events], "scores": list(g.scores), "end_sum": g.end_sum,
                "hand_sizes": [len(r.core.hand(s)) for s in range(g.players)],
                "boneyard_size": r.core.boneyard_size,
                "board": _board(g, last=move if move.kind == "play" else None, bounds=self.bounds)}
        if g.round_over:
            step["round_end"] = self.round_end()
        self.steps.append(step)

    def round_end(self, index: int = -1) -> dict:
        """The ended round ``index`` (the last by default) as everyone sees it: how it ended,
        the hands left, the scoring (``domino``: a domino event's parts, else None);
        ``scores_before``: the scores at the round's start."""
        g = self.game
        index = range(len(g.rounds))[index]
        r = g.rounds[index]
        last = index == len(g.rounds) - 1
        parts = r.domino_parts()
        end = r.end()
        hands = [[ALL_TILES[t] for t in r.core.hand(s)] for s in range(g.players)]
        return {"round": index, "end": end,
                "hands": [[str(t) for t in hand] for hand in hands],
                # how a domino's credit is made of those hands (RULES §6.3), in words too
                "domino": None if parts is None else dict(parts, text=format_domino_parts(parts)),
                # and a blocked round's credits (RULES §6.5), seat by seat
                "block": r.block_parts(),
                "scores_before": list(r.scores_before), "scores": list(r.core.scores),
                "events": [e.to_dict() for per in r.events for e in per],
                "game_over": g.game_over and last, "winner": g.winner if last else None}

    def last_round_end(self) -> dict | None:
        """The latest round's end: this round's once it is over, else the round before's
        (shown until the person's first decision of this round, again after an undo)."""
        g = self.game
        if g.round_over:
            return self.round_end()
        return self.round_end(-2) if len(g.rounds) > 1 else None

    def check_position(self, round_: int | None, action: int | None, what: str = "the move was chosen") -> None:
        """A move chosen (an undo asked) on position (round, action) (a view's round and the
        length of its history): refused with 409 when the game has left that position since.
        A round or action no view of the game can have named (below 0, a round the game has
        not reached: rounds are never taken back; more actions than any round holds) is
        no position at all: a 400 naming the field (a review: 409 "moved on" for -1)."""
        if round_ is None and action is None:
            return
        if round_ is None or action is None:
            raise OptionError(f"round and action go together: the position {what} on")
        g = self.game
        now = (len(g.rounds) - 1, len(g.current.moves))
        for name, value, meaning in (("round", round_, "round"), ("action", action, "history length")):
            if value < 0:
                raise OptionError(f"{name} must be 0 or more (a view's {meaning}), not {_short(value, 12)}")
        if round_ > now[0]:
            raise OptionError(f"round {_short(round_, 12)} is not a round of this game: it is at round {now[0]} "
                              "(a view's round; rounds are never taken back)")
        if action > MAX_ROUND_ACTIONS:
            raise OptionError(f"action {_short(action, 12)} is not an action of a round: a round has at most "
                              f"{MAX_ROUND_ACTIONS} (a view's history length)")
        if (round_, action) != now:
            raise ApiError(409, f"the game has moved on (in another tab?): {what} at round "
                                f"{_short(round_, 12)} action {_short(action, 12)}, the game is at round {now[0]} "
                                f"action {now[1]}")

    def play(self, text: str) -> None:
        g = self.game
        if g.game_over or self.finished:
            raise OptionError("the game is over")
        if g.to_move != self.seat:
            raise OptionError(f"seat {self.seat} is not to move")
        if not isinstance(text, str) or not text.strip():
            raise OptionError("move must be a move in record notation, like 3-4@4-4:lineB")
        move = self.parse_move_text(text.strip())
        events = g.push(move)
        self.report_events(self.seat, move, events)
        self.advance()

    def parse_move_text(self, text: str):
        """The legal move ``text`` names, read as ``fiveup play`` reads a typed move
        (:meth:`Game.parse_move`: record notation, a port's name in any case, a tile alone
        where it has one legal placement; a tile not in the hand said so), its refusal one
        OptionError (a 400)."""
        try:
            return self.game.parse_move(text)
        except FiveUpError as e:
            raise OptionError(str(e)) from None

    def view(self) -> dict:
        """The person's observation exactly as ``Observation.to_dict()`` gives it (its
        legal moves too), and round_over, game_over, winner, the actions since the person's
        last decision (``last_moves``, bots' replies included) and the board."""
        g = self.game
        obs = g.observation(self.seat)
        d = obs.to_dict()
        d.update({  # each legal move's earlier one that is the same choice (RULES §3.4), or None
                  "legal_same_as": same_as_earlier(obs.legal_moves),
                  "round_over": g.round_over, "game_over": g.game_over, "winner": g.winner,
                  "unfinished": g.unfinished, "seats": list(g.seats),
                  "placements": [format_move(m) for _, m in g.current.moves if m.kind == "play"],
                  "last_moves": list(self.steps),
                  "round_end": self.last_round_end(),
                  "board": _board(g, last=next((m for _, m in reversed(g.current.moves) if m.kind == "play"),
                                               None), bounds=self.bounds)})
        return d

    def record(self) -> dict:
        """The record so far: the whole game once it is over, before that the person's view
        (to the end, for a game that went on from a view)."""
        g = self.game
        ended = (g.game_over or g.unfinished) and not self.from_view
        return g.to_record() if ended else g.to_record(view=self.seat)


def _action_text(action: dict) -> str:
    if "play" in action:
        return action["play"] if "at" not in action else f"{action['play']}@{action['at']}"
    if "draw" in action:
        return "draw" if action["draw"] is None else f"draw {action['draw']}"
    return "pass"


def _board(game, last=None, arrows=(), size: int = BOARD_SIZE, bounds=DEFAULT_BOUNDS) -> str:
    return board_svg(game, lastmove=last, arrows=arrows, size=size, bounds=bounds)


def _arrows(pairs) -> list:
    out = []
    for i, p in enumerate(pairs):
        if len(p) != 2:
            raise OptionError(f"arrow {i} must be a [move, colour] pair, not {_short(p)}")
        out.append((p[0], p[1]))
    if len(out) > 64:
        raise OptionError(f"at most 64 arrows, not {len(out)}")
    return out


def _check_size(size: int) -> int:
    if not 100 <= size <= 2000:
        raise OptionError(f"size must be 100..2000 pixels, not {size}")
    return size


# --------------------------------------------------------------------------- analyses
class _Cancelled(Exception):
    pass


class AnalysisJob:
    def __init__(self, record: dict, seat, budget, seed: int):
        self.record, self.seat, self.budget, self.seed = record, seat, budget, seed
        self.status = "queued"
        self.done, self.total = 0, 0
        self.result = None
        self.error = None
        self.created = time.monotonic()
        self.finished_at = None
        self.cancelled = False
        self.reason = ""

    def on_progress(self, done: int, total: int) -> None:
        if self.cancelled:
            raise _Cancelled()
        self.done, self.total = done, total

    def cancel(self, reason: str = "the server is shutting down") -> None:
        """Stop the job at its next action, or before it starts (the server is shutting
        down, or its client cancelled it)."""
        if self.finished_at is not None:
            return                          # done already: its answer stays
        self.cancelled, self.reason = True, reason
        if self.status == "queued":
            self.error, self.status = f"the analysis was stopped ({reason})", "error"
            self.finished_at = time.monotonic()

    def run(self) -> None:
        if self.cancelled:
            return
        self.status = "running"
        try:
            self.result = analyze(self.record, seats=self.seat, budget=self.budget, seed=self.seed,
                                  on_progress=self.on_progress).to_dict()
            self.status = "done"
        except _Cancelled:
            self.error, self.status = f"the analysis was stopped ({self.reason})", "error"
        except FiveUpError as e:
            self.error, self.status = _one_line(e), "error"
        except Exception as e:    # the job's answer says so; the server goes on
            self.error, self.status = _one_line(f"analysis failed: {type(e).__name__}: {e}"), "error"
        self.finished_at = time.monotonic()

    def to_dict(self) -> dict:
        progress = 1.0 if self.status == "done" else (self.done / self.total if self.total else 0.0)
        d = {"status": self.status, "progress": round(progress, 4), "done": self.done, "total": self.total}
        if self.result is not None:
            d["result"] = self.result
        if self.error is not None:
            d["error_message"] = self.error
        return d


# --------------------------------------------------------------------------- the app
class _State:
    def __init__(self, workers: int):
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fiveup-search")
        # quick work that should not wait behind the searches, nor hold the event loop: an
        # equity table's first load, a record checked as a file is chosen (a review: in the
        # search pool, such a check waited behind every queued hint)
        self.light = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fiveup-light")
        self.analysis_slots = max(1, workers - 1)
        self.analysis_sem: asyncio.Semaphore | None = None
        self.games: OrderedDict[str, WebGame] = OrderedDict()
        self.analyses: OrderedDict[str, AnalysisJob] = OrderedDict()
        self.tasks: set = set()
        self.hints_stopped = 0       # hints and solves stopped because their client went away
        self.searches = 0            # requests running or waiting for a search worker (pool_slot)

    def busy(self) -> ApiError:
        return ApiError(429, f"busy, try again shortly: {self.searches} searches are running or waiting for one "
                             f"of the {self.workers} workers")

    def take_pool_slot(self) -> None:
        """A place among the MAX_WAITING_SEARCHES requests running or waiting for a search
        worker, or a 429 (an embedder's review: 200 waiting hints took 1.7 GB and seconds; a
        security review: 40 waiting /api/position requests 1 GB, and new games whose bots
        searched a minute a move, none of them counted). _Guard takes it for _POOL_ROUTES
        before their body is parsed; give it back with give_pool_slot."""
        if self.searches >= MAX_WAITING_SEARCHES:
            raise self.busy()
        self.searches += 1

    def give_pool_slot(self) -> None:
        self.searches -= 1

    @contextlib.contextmanager
    def pool_slot(self):
        """take_pool_slot() for the block (a request that needs a worker only sometimes: a
        game's view with bot replies pending)."""
        self.take_pool_slot()
        try:
            yield
        finally:
            self.give_pool_slot()

    async def run(self, fn, *args, **kwargs):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args, **kwargs))

    async def run_light(self, fn, *args, **kwargs):
        """run(), on the one thread of quick work (never behind a search)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.light, functools.partial(fn, *args, **kwargs))

    async def run_while_connected(self, request, stop, fn, *args):
        """run(fn, *args), stopped by ``stop()`` when the client goes away first: a hint
        nobody waits for (``Hinter.stop``) gives its worker back instead of searching on (up
        to a minute at the largest budget), and so do a game's bot replies (``WebGame.stopped``:
        after the bot move being made). Looked at every DISCONNECT_POLL_SECONDS; a stop is
        repeated until the call has ended, so one that had not started yet when the client
        left is stopped as it starts."""
        future = asyncio.ensure_future(self.run(fn, *args))
        gone = False
        while True:
            done, _ = await asyncio.wait({future}, timeout=DISCONNECT_POLL_SECONDS)
            if done:
                break
            if gone or await request.is_disconnected():
                gone = True
                stop()
        if gone:
            # (retrieved either way: a stopped search's SearchStopped is the expected end)
            if isinstance(future.exception(), SearchStopped):
                self.hints_stopped += 1
            return Response(status_code=499)      # nginx's "client closed request"; nobody reads it
        return future.result()

    # ---- games: a cap, an idle expiry
    def purge_games(self) -> None:
        now = time.monotonic()
        for gid in [k for k, g in self.games.items() if now - g.touched > GAME_IDLE_SECONDS]:
            del self.games[gid]

    def room_for_a_game(self) -> None:
        """Make room for a new game: past MAX_GAMES, drop the game untouched longest if that
        is KEEP_RECENT_SECONDS or more; else a 429 (a review: one client's 64 new games in
        0.3 s ended every other client's game, touched seconds before)."""
        self.purge_games()
        now = time.monotonic()
        while len(self.games) >= MAX_GAMES:
            gid, oldest = next(iter(self.games.items()))      # the game untouched longest
            if now - oldest.touched < KEEP_RECENT_SECONDS:
                raise ApiError(429, f"busy, try again later: {len(self.games)} games are held, each touched "
                                    f"within {_minutes(KEEP_RECENT_SECONDS)}",
                               retry_after=math.ceil(KEEP_RECENT_SECONDS - (now - oldest.touched)))
            del self.games[gid]

    def add_game(self, game: WebGame) -> str:
        self.room_for_a_game()
        gid = secrets.token_hex(8)
        game.touched = time.monotonic()
        self.games[gid] = game
        return gid

    def game(self, gid: str) -> WebGame:
        self.purge_games()
        g = self.games.get(gid)
        if g is None:
            raise ApiError(404, f"no game {_short(gid, 30)} (unknown, or dropped: untouched for "
                                f"{GAME_IDLE_SECONDS // 3600} h, or the oldest of {MAX_GAMES} games)")
        g.touched = time.monotonic()
        self.games.move_to_end(gid)
        return g

    # ---- analyses: a cap, finished ones expire
    def purge_analyses(self) -> None:
        now = time.monotonic()
        for aid in [k for k, a in self.analyses.items()
                    if a.finished_at is not None and now - a.finished_at > ANALYSIS_KEEP_SECONDS]:
            del self.analyses[aid]

    def analysis(self, aid: str) -> AnalysisJob:
        self.purge_analyses()
        job = self.analyses.get(aid)
        if job is None:
            raise ApiError(404, f"no analysis {_short(aid, 30)} (unknown, or dropped: "
                                f"{ANALYSIS_KEEP_SECONDS // 60} min after it finished, or the oldest "
                                f"finished one of {MAX_ANALYSES})")
        return job

    def room_for_an_analysis(self) -> None:
        """Make room for a new analysis: past MAX_ANALYSES, drop the one that finished first
        if that was KEEP_RECENT_SECONDS ago or more; else a 429 (a review: 16 new analyses
        dropped every finished one, results their clients had not read yet)."""
        self.purge_analyses()
        now = time.monotonic()
        while len(self.analyses) >= MAX_ANALYSES:
            finished = [(a.finished_at, k) for k, a in self.analyses.items() if a.finished_at is not None]
            if not finished:
                raise ApiError(429, f"{MAX_ANALYSES} analyses are queued or running: try again when one is done",
                               retry_after=ANALYSIS_RETRY_SECONDS)
            at, aid = min(finished)
            if now - at < KEEP_RECENT_SECONDS:
                raise ApiError(429, f"{len(self.analyses)} analyses are queued, running or finished within "
                                    f"{_minutes(KEEP_RECENT_SECONDS)}: try again later",
                               retry_after=math.ceil(KEEP_RECENT_SECONDS - (now - at)))
            del self.analyses[aid]

    def add_analysis(self, job: AnalysisJob) -> str:
        self.room_for_an_analysis()
        aid = secrets.token_hex(8)
        self.analyses[aid] = job
        return aid


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} min"


def _locked(game: WebGame, fn):
    """Run fn on a game under its lock (one request at a time per game)."""
    if not game.lock.acquire(blocking=False):
        raise ApiError(409, "the game is busy with another request")
    try:
        return fn()
    finally:
        game.lock.release()


def _check_range(name: str, value, low, high):
    if value is not None and not low <= value <= high:
        raise OptionError(f"{name} must be {low}..{high}, not {value}")


def _check_web_bots(names, players=None, seat=None) -> None:
    """A web game's bots: the package's and the registered ones (:data:`BOTS`) and hint
    bots with a budget, never ``MODULE:FUNCTION`` (a request must not make the server
    load a module of its choosing); checked before any name is looked up. A hint bot
    named with a budget searches within the strongest level's (:data:`WEB_BOT_LEVEL`):
    one named with a larger budget (hint:1000000:1000000) held a worker for hours at its
    first move, and one within a hint's limits (hint:1024:1000000) a minute; the refusal
    names the limit. An empty or unknown name is said in the web's words: the seat it was
    for, and the bots a web game takes (the library's message offered "your own
    MODULE:FUNCTION", which a web game refuses)."""
    for i, name in enumerate(names):
        budget = SearchBudget.from_bot_name(name) if isinstance(name, str) else None
        if names_a_module(name):
            raise OptionError(f"bot {name[:40]!r}: a web game takes the server's bots (GET /api/bots), "
                              "not a module's function")
        if budget is not None and name not in BOTS:
            _check_web_bot_budget(name, budget)
        elif isinstance(name, str) and name not in BOTS:
            # the seat this entry is for: the others' bots come in seat order, the person's seat skipped
            for_seat = (f"seat {i + (i >= seat)}" if players in (2, 3, 4) and _is_int(seat) and 0 <= seat < players
                        and i < players - 1 else f"bots[{i}]")
            if not name.strip():
                raise OptionError(f"bots: {for_seat} has no bot (an empty name); GET /api/bots lists the "
                                  "server's bots")
            try:
                bot_function(name)      # the library's words for a budget name with a number out of range
            except OptionError as e:
                if not str(e).startswith("unknown bot"):
                    raise
            raise OptionError(f"unknown bot {name[:40]!r} for {for_seat}: a web game takes a bot GET /api/bots "
                              "lists (level1..level8, greedy, hint, ...) or a hint bot with a budget, "
                              f"METHOD[-X]:SAMPLES:NODES or METHOD[-X]@MSms, within {WEB_BOT_LEVEL.name}'s budget "
                              f"({WEB_BOT_MAX_SAMPLES} worlds of {WEB_BOT_MAX_WORLD_NODES:,} nodes, "
                              f"{WEB_BOT_MAX_TIME_MS:,} ms)")


def _check_web_bot_budget(name: str, budget: SearchBudget) -> None:
    """A web game's bot named with a budget: at most the strongest level's, else a 400
    naming the limit (``bot hint:1024:5000: samples must be 1..48 ...``)."""
    lv = WEB_BOT_LEVEL
    why = (f"a web game's bot searches at most as much as {lv.name}, {lv.samples} worlds of "
           f"{lv.world_nodes:,} nodes")
    alphamu = budget.method == "alphamu"
    for what, value, low, high, reason in (
            ("samples", budget.samples, 1, WEB_BOT_MAX_SAMPLES, why),
            ("time_ms", budget.time_ms, 1, WEB_BOT_MAX_TIME_MS, f"{why}, or {WEB_BOT_MAX_TIME_MS:,} ms a decision"),
            ("world nodes", budget.world_nodes, 1, WEB_BOT_MAX_LEAF_NODES if alphamu else WEB_BOT_MAX_WORLD_NODES,
             "alphamu's are per leaf: at most the hint-alphamu bot's" if alphamu else why),
            ("depth", budget.depth, 0, WEB_BOT_MAX_DEPTH, "at most the hint-alphamu bot's")):
        if value is not None and not low <= value <= high:
            raise OptionError(f"bot {name[:60]}: {what} must be {low}..{high:,} ({reason}), not {_short(value, 20)}")


def _players_of(bot: str) -> list:
    """The player counts (2, 3, 4) a bot name can play."""
    out = []
    for n in (2, 3, 4):
        try:
            check_bot(bot, n)
            out.append(n)
        except OptionError:
            pass
    return out


class _StoppableCall:
    """A request's search that ``stop()`` reaches whenever it comes (run_while_connected
    calls it when the client leaves): before a worker takes the request up, the search never
    begins; once its searcher (a Hinter, a Solver) is made, the searcher's stop()."""

    def __init__(self):
        self.lock = threading.Lock()
        self.stopped = False
        self.searcher = None

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            searcher = self.searcher
        if searcher is not None:
            searcher.stop()

    def made(self, make):
        """The call's searcher, ``make()`` (not made: SearchStopped, if a stop came first).
        Made outside the lock: stop(), on the event loop, never waits for a table's making."""
        with self.lock:
            if self.stopped:
                raise SearchStopped("the client went away before the search began")
        searcher = make()
        with self.lock:
            self.searcher = searcher
            stopped = self.stopped
        if stopped:             # (a stop while it was made: it reaches the search that follows, or
            searcher.stop()     # run_while_connected's next one does)
        return searcher


class _HintCall(_StoppableCall):
    """One /api/hint request: its one-thread Hinter is made in the worker as the call starts
    (a fresh one a request: a table kept between requests would make an answer depend on the
    requests before it; an embedder's review: made on the request's arrival, on the event
    loop, 8 MB each for every request still waiting)."""

    def run(self, body) -> dict:
        try:
            return hint_json(self.made(lambda: Hinter(threads=1)), body)
        finally:
            with self.lock:
                self.searcher = None


def hint_json(hinter, body: HintRequest) -> dict:
    """``fiveup hint --json`` for a record given in the request (cmd_hint's library calls)."""
    _check_range("samples", body.samples, 1, HINT_MAX_SAMPLES)
    _check_range("time_ms", body.time_ms, 1, HINT_MAX_TIME_MS)
    _check_range("world_nodes", body.world_nodes, 1, HINT_MAX_WORLD_NODES)
    if body.method == "exact":
        # (a review: "exact" was listed as a method and always refused, its options not in the request;
        # an exact hint takes seconds to minutes, a search the web does not run)
        raise OptionError(f"method must be one of {', '.join(m for m in HINT_METHODS if m != 'exact')} here, not "
                          "'exact': the exact search is the command line's (fiveup hint --method exact) and the "
                          "Python API's")
    search = check_search(body.search)
    record = check_record(body.record)
    obs = observation_at(record, body.seat, body.round, body.action, check=False)
    if obs.to_move != body.seat:
        who = "the round is over" if obs.to_move is None else f"seat {obs.to_move} is to move"
        raise OptionError(f"round {obs.round} action {len(obs.history)}: seat {body.seat} is not to move ({who})")
    past = past_observations(record, body.seat, obs.round) if check_beliefs(body.beliefs) == "model" else None
    h = hinter.hint(obs, method=body.method, samples=body.samples, time_ms=body.time_ms, seed=body.seed,
                    world_nodes=body.world_nodes, objective=body.objective, beliefs=body.beliefs, past=past,
                    search=search)
    return h.to_dict()


class _SolveCall(_StoppableCall):
    """One /api/solve request, stopped when its client leaves (an embedder's review: a solve
    searched on to its node limit, 14 s at the largest, holding a worker nobody waited for);
    solve_json makes its Solver (``made``)."""

    def run(self, body) -> dict:
        try:
            return solve_json(body, self)
        finally:
            with self.lock:
                self.searcher = None


def solve_json(body: SolveRequest, call: "_SolveCall | None" = None) -> dict:
    """``fiveup solve --json`` (cmd_solve's library calls)."""
    _check_range("node_limit", body.node_limit, 1, SOLVE_MAX_NODES)
    record = check_record(body.record)
    if record.get("view") is not None:
        raise OptionError(f"this record is seat {record['view']}'s view: the solver needs every hand "
                          "(the full record); for one seat's view use /api/hint")
    game = game_at(record, body.round, body.action, check=False)
    if game.round_over:
        raise OptionError(f"round {body.round} action {body.action}: the round is over, nothing to solve")
    def make():
        return Solver(tt_mb=16.0, node_limit=body.node_limit, objective=body.objective)
    solver = make() if call is None else call.made(make)      # (a stop from now on reaches it)
    res = solver.solve(game)
    if not res.exact:
        raise OptionError(f"round {body.round} action {body.action}: {res.cut_text(body.node_limit)}")
    return res.to_dict()


def position_json(body: PositionRequest) -> dict:
    """A record's position for the analysis board: the board (with arrows), whose turn,
    the scores, the hands the record shows (a view: the seat's own), the legal moves."""
    size = _check_size(body.size)
    record = check_record(body.record)
    game = game_at(record, body.round, body.action, check=False)
    view = record.get("view")
    r = game.current
    last = next((m for _, m in reversed(r.moves) if m.kind == "play"), None)
    hands = [[str(t) for t in game.hand(s)] if view is None or s == view else None for s in range(game.players)]
    legal = game.legal_moves if view is None or game.to_move == view else []
    # (after a round's last action, the round over: the position after it, the analysis
    # board's final one; a round going on is before its next action)
    after = game.round_over and body.action == len(record["rounds"][body.round]["actions"]) and body.action > 0
    title = f"round {body.round}, " + (f"after action {body.action - 1}" if after else f"before action {body.action}")
    groups = arrow_groups(_arrows(body.arrows))
    # arrows on one end: a board each, its title naming its arrow's move
    boards = [board_svg(game, lastmove=last, arrows=g, size=size, bounds=BOARD_LAYOUTS[body.layout],
                        title=title if len(groups) == 1 else f"{title}: {format_move(g[0][0])}") for g in groups]
    return {"round": body.round, "action": body.action, "to_move": game.to_move, "scores": list(game.scores),
            "scores_before": list(r.scores_before), "end_sum": game.end_sum, "round_over": game.round_over,
            "hands": hands, "hand_sizes": [len(game.hand(s)) for s in range(game.players)],
            "boneyard_size": r.core.boneyard_size, "legal_moves": [format_move(m) for m in legal],
            "legal_same_as": same_as_earlier(legal), "board": boards[0], "boards": boards}


# the requests that need a search worker (POST): a hint, a solve, a new game and a move (the
# bots' replies), an undo and a game's board (under the game's lock, in the pool), a position,
# an analysis (its record's replay). _Guard takes each a place among MAX_WAITING_SEARCHES
# (_State.take_pool_slot) once its body has arrived and before it is parsed, and refuses one
# with 429 before reading its body when none is free. GET /api/games/{id} takes one only when
# the bots' replies are pending (get_game).
_POOL_ROUTES = re.compile(r"/api/(?:hint|solve|games|position|analyses|games/[^/]+/(?:moves|undo|board))")


class _Guard:
    """ASGI middleware: the ``Host`` check against DNS rebinding, the body size limit
    (the body is read here, at most MAX_BODY_BYTES, whole within BODY_SECONDS), a place
    in the search pool's queue for the requests that need a worker (_POOL_ROUTES), the
    repeated-key check (off the event loop for a body over LOOP_BODY_BYTES), and the
    security headers; a HEAD request's answer goes without its body."""

    HEADERS = [(b"content-security-policy",
                b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
               (b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-store")]

    def __init__(self, app, hosts, ip_hosts: bool = False, state: "_State | None" = None):
        self.app = app
        self.hosts = hosts
        self.ip_hosts = ip_hosts
        self.state = state

    def allowed(self, name: str) -> bool:
        if name.lower() in self.hosts:
            return True
        return self.ip_hosts and _ip_literal(name) is not None

    @staticmethod
    def host_name(host: str) -> str:
        if host.startswith("["):
            return host[: host.index("]") + 1] if "]" in host else host
        return host.rsplit(":", 1)[0] if host.count(":") == 1 else host

    async def reply(self, send, status: int, message: str, retry_after: int | None = None) -> None:
        body = json.dumps({"error": _one_line(message)}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]
                    + [(k.encode(), v.encode()) for k, v in _retry_headers(status, retry_after).items()]
                    + self.HEADERS})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if not self.allowed(self.host_name(host)):
            return await self.reply(send, 400, f"host {_short(host, 60)} is not served here (the app answers "
                                               f"on {', '.join(sorted(self.hosts))})")
        length = headers.get("content-length")
        if length is not None and (not is_digits(length) or len(length) > 15):
            return await self.reply(send, 400, "bad Content-Length")
        if length is not None and int(length) > MAX_BODY_BYTES:
            return await self.reply(send, 413, f"request body over {MAX_BODY_BYTES:,} bytes")
        pooled = (self.state is not None and scope.get("method") == "POST"
                  and _POOL_ROUTES.fullmatch(scope.get("path", "")) is not None)
        if pooled and self.state.searches >= MAX_WAITING_SEARCHES:
            busy = self.state.busy()            # (before the body is read)
            return await self.reply(send, busy.status, busy.message, busy.retry_after)
        body, more = b"", True
        deadline = time.monotonic() + BODY_SECONDS
        while more:
            try:
                # a body announced and never sent held the connection open for good
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                return await self.reply(send, 408, f"the request body did not arrive within {BODY_SECONDS} s")
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY_BYTES:
                return await self.reply(send, 413, f"request body over {MAX_BODY_BYTES:,} bytes")
        if pooled:
            # a place in the search pool's queue before the body is parsed (here, then by the
            # framework), held until the answer is sent: a request waiting for a worker holds its
            # parsed body (a review: 26 MB for 1 MB of {}), so their number is bounded
            try:
                self.state.take_pool_slot()
            except ApiError as busy:
                return await self.reply(send, busy.status, busy.message, busy.retry_after)
        try:
            await self.checked(scope, receive, send, body)
        finally:
            if pooled:
                self.state.give_pool_slot()

    async def checked(self, scope, receive, send, body: bytes) -> None:
        """The repeated-key check of the body read whole, then the app."""
        repeated = None
        if body.lstrip()[:1] == b"{":
            if len(body) > LOOP_BODY_BYTES and self.state is not None:
                # a full JSON parse, off the event loop: 1 MB of {} held it 0.2 s (a review:
                # 8 clients posting such bodies kept /api/health waiting a second)
                repeated = await self.state.run_light(repeated_key_fault, body)
            else:
                repeated = repeated_key_fault(body)
        if repeated:
            # as a record file is refused (record.py): the framework would read the last value
            return await self.reply(send, 400, f"malformed JSON: {repeated}")
        sent = False
        head = scope.get("method") == "HEAD"

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + self.HEADERS)
            elif head and message["type"] == "http.response.body" and message.get("body"):
                message = dict(message, body=b"")      # HEAD: GET's answer, its headers only
            await send(message)
        await self.app(scope, replay, send_with_headers)


def create_app(*, allowed_hosts=(), ip_hosts: bool = False, workers: int | None = None) -> FastAPI:
    """The FastAPI application. ``allowed_hosts``: host names accepted in the ``Host``
    header besides the loopback names; ``ip_hosts``: accept any IP address there too (a
    server bound to every interface: DNS rebinding needs a name, an address cannot rebind);
    ``workers``: search threads (default: the cores)."""

    workers = workers or os.cpu_count() or 1
    state = _State(workers)
    hosts = {h.lower() for h in (*LOOPBACK_HOSTS, *allowed_hosts)}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for job in state.analyses.values():
            job.cancel()
        for game in list(state.games.values()):
            game.stopped.set()          # bot replies being made stop after their current move
        state.pool.shutdown(wait=False, cancel_futures=True)
        state.light.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="fiveup_solver", version=__version__, docs_url=None, redoc_url=None,
                  swagger_ui_oauth2_redirect_url=None, lifespan=lifespan, responses=ERROR_RESPONSES,
                  description="Exact 61 Five Up: play the bots, hints, solves, race equity and post-game "
                              "analysis. Every error is a 4xx answer {\"error\": \"<one line>\"}.")
    app.state.fiveup = state

    # ---- errors: one line, never a traceback
    @app.exception_handler(ApiError)
    async def _api_error(request, exc: ApiError):
        return _error(exc.status, exc.message, exc.retry_after)

    @app.exception_handler(FiveUpError)
    async def _fiveup_error(request, exc: FiveUpError):
        return _error(400, str(exc))

    @app.exception_handler(RecursionError)
    async def _deep(request, exc):
        return _error(400, "input nested too deeply")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request, exc: RequestValidationError):
        errors = exc.errors()
        if not errors:
            return _error(400, "bad request")
        e = errors[0]
        if e.get("type") == "json_invalid":
            # where, as the command line says it (errors.json_fault): "line 1 column 12: Unterminated
            # string starting at" (a review: FastAPI's message alone ends "starting at")
            what = e.get("ctx", {}).get("error", "cannot parse the body")
            pos = e.get("loc", (None, None))[-1]
            if _is_int(pos):
                try:
                    text = (await request.body()).decode("utf-8", "replace")
                except Exception:       # the body gone: its offset alone    # pragma: no cover
                    text = None
                where = (f"char {pos}" if text is None else
                         f"line {text.count(chr(10), 0, pos) + 1} column {pos - text.rfind(chr(10), 0, pos)}")
                return _error(400, f"malformed JSON: {where}: {what}")
            return _error(400, f"malformed JSON: {what}")
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        # a field's name as the request has it: pydantic's own path and words ("seed.int: ...",
        # "Value error, ...") named its internals (a review)
        loc = loc.split(".")[0] if loc.split(".")[-1] in ("int", "str", "float", "bool") else loc
        loc = loc[len("query."):] if loc.startswith("query.") else loc
        msg = e.get("msg", "invalid")
        msg = msg[len("Value error, "):] if msg.startswith("Value error, ") else msg
        if e.get("type") == "dict_type" and loc == "record":
            # as the command line says it (record.py): "a record is a JSON object, not an array"
            msg = f"a record is a JSON object, not {json_kind(e.get('input'))}"
        if loc == "body" and e.get("type") in ("missing", "dict_type", "model_attributes_type"):
            kind = request.headers.get("content-type", "")
            msg = ("a JSON object is required" if kind.startswith("application/json") or e.get("type") == "missing"
                   else f"a JSON object is required, sent as Content-Type: application/json (this request's is "
                        f"{_short(kind or 'none', 60)}; curl -d needs -H 'Content-Type: application/json')")
        return _error(422, f"{loc}: {msg}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            return _not_found(request, f"no such page: {_short(request.url.path, 80)}")
        if exc.status_code == 405:
            return _error(405, f"{request.method} is not allowed on {_short(request.url.path, 80)}")
        cause = exc.__cause__
        if exc.status_code == 400 and cause is not None and str(exc.detail).startswith("There was an error parsing"):
            # FastAPI's words for a body its JSON reader refused beyond a syntax error: say why
            if isinstance(cause, RecursionError):
                return _error(400, "malformed JSON: nested too deeply")
            if isinstance(cause, UnicodeDecodeError):
                return _error(400, f"malformed JSON: not UTF-8 text (byte 0x{cause.object[cause.start]:02x} "
                                   f"at offset {cause.start})")
            if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
                return _error(400, "malformed JSON: a number of more than 4,300 digits")
            return _error(400, f"malformed JSON: {' '.join(str(cause).split())[:120]}")
        return _error(exc.status_code, str(exc.detail))

    # ---- the Host check (DNS rebinding) and the body size limit, before anything else
    app.add_middleware(_Guard, hosts=hosts, ip_hosts=ip_hosts, state=state)

    # ---- pages (HEAD too, as GET without the body: a proxy's or a monitor's health check)
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def play_page():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.api_route("/analysis", methods=["GET", "HEAD"], include_in_schema=False)
    async def analysis_page():
        return FileResponse(STATIC / "analysis.html", media_type="text/html")

    @app.api_route("/static/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static_file(name: str, request: Request):
        types = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}
        path = STATIC / name
        if "/" in name or name.startswith(".") or path.suffix not in types or not path.is_file():
            return _not_found(request, f"no such page: /static/{_short(name, 60)}")
        return FileResponse(path, media_type=types[path.suffix])

    # ---- API
    @app.get("/api/health", summary="the server answers")
    async def health():
        return {"status": "ok", "version": __version__, "workers": state.workers,
                "games": len(state.games), "analyses": len(state.analyses), "hints_stopped": state.hints_stopped}

    # (HEAD: the same answer, its body dropped by _Guard; one operation in the schema)
    app.head("/api/health", include_in_schema=False)(health)

    @app.get("/api/bots", summary="the bot names a game may use (levels first)")
    async def bots():
        return {"levels": [{"name": lv.name, "summary": lv.summary} for lv in LEVELS.values()],
                "bots": sorted(b for b in BOTS if b not in LEVELS),
                # the player counts each can play (a review: the page offered the alphamu bots
                # for 3 and 4 players, then Start refused them)
                "players": {b: _players_of(b) for b in BOTS}}

    # (the requests that need a search worker hold a place in its queue, taken by _Guard:
    # _POOL_ROUTES)
    @app.post("/api/hint", summary="the same JSON as `fiveup hint --json`")
    async def api_hint(body: HintRequest, request: Request):
        call = _HintCall()
        return await state.run_while_connected(request, call.stop, call.run, body)

    @app.post("/api/solve", summary="the same JSON as `fiveup solve --json`")
    async def api_solve(body: SolveRequest, request: Request):
        call = _SolveCall()
        return await state.run_while_connected(request, call.stop, call.run, body)

    @app.get("/api/equity", summary="the same JSON as `fiveup equity --json`")
    async def api_equity(players: int = 2, scores: Optional[str] = None, starter: Optional[str] = None):
        if scores is not None and len(scores) > 100:
            raise OptionError("scores: at most 100 characters")
        try:
            # in a worker: the first call of a player count loads its table (a quarter second
            # with 3 players, the event loop held, a review measured)
            return await state.run_light(equity_result, players, scores, starter)
        except OptionError as e:
            # the query's names, not the command line's (a review: "--players must be ...")
            text = re.sub(r"--(players|scores|starter)\b", r"\1", str(e)).replace(" (or: fiveup equity build)", "")
            raise OptionError(text) from None

    @app.post("/api/games", summary="a new game (or one going on from a record): {id, view}")
    async def new_game(body: NewGameRequest, request: Request):
        _check_web_bots(body.bots, body.players, body.seat)
        state.room_for_a_game()                 # (a 429 now, not after the bots' first moves)
        seats = bots_for_seats(body.players, body.seat, body.bots)
        stop = threading.Event()

        def start():
            # no seed: TerminalGame draws a secret one, never sent (a known seed deals every tile)
            game = WebGame(body.players, seats, body.seat, body.seed, record=body.record, layout=body.layout)
            game.stopped = stop
            game.advance()
            return game, game.view()
        answer = await state.run_while_connected(request, stop.set, start)
        if isinstance(answer, Response):
            return answer               # the client left: the game is not kept
        game, view = answer
        game.steps = []
        return {"id": state.add_game(game), "view": view}

    @app.get("/api/games/{game_id}", summary="the person's view: {view}")
    async def get_game(game_id: str, request: Request,
                       layout: Optional[Layout] = Query(None, description=_LAYOUT_HELP + " (from now on)")):
        game = state.game(game_id)
        game.use_layout(layout)                 # (a reload on another screen)
        if game.bots_to_move:
            # a move whose client left stopped before the bots' replies: they are made now, in the
            # search pool (a place in its queue, or a 429)
            with state.pool_slot():
                answer = await state.run_while_connected(request, game.stopped.set, _locked, game, game.go_on)
            return answer if isinstance(answer, Response) else {"view": answer}
        # a view is built at once: it does not wait for a search worker
        return {"view": _locked(game, game.view)}

    @app.post("/api/games/{game_id}/moves", summary="the person's move; {view} once the bots have replied")
    async def play_move(game_id: str, body: MoveRequest, request: Request):
        game = state.game(game_id)

        def move():
            game.check_position(body.round, body.action)
            game.use_layout(body.layout)
            game.steps = []
            game.stopped.clear()
            game.play(body.move)
            return game.view()
        answer = await state.run_while_connected(request, game.stopped.set, _locked, game, move)
        return answer if isinstance(answer, Response) else {"view": answer}

    @app.post("/api/games/{game_id}/undo", summary="take back the person's last move of the round: {view}")
    async def undo(game_id: str, body: Optional[UndoRequest] = None):
        game = state.game(game_id)

        def take_back():
            if body is not None:
                # (a stale tab's undo would take back a move its person never saw made)
                game.check_position(body.round, body.action, "the undo was asked")
                game.use_layout(body.layout)
            game.steps = []
            game.undo()
            return game.view()
        return {"view": await state.run(_locked, game, take_back)}

    @app.post("/api/games/{game_id}/board", summary="the game's board now with arrows (a hint's): {svg}")
    async def game_board(game_id: str, body: GameBoardRequest):
        game = state.game(game_id)

        def draw():
            # the game's own board, so its caption says what the last placement credited
            # (a review: a hint's board drawn from the placements alone said "a multiple of 5")
            game.check_position(body.round, body.action, "the board was asked")
            g = game.game
            last = next((m for _, m in reversed(g.current.moves) if m.kind == "play"), None)
            return {"svg": _board(g, last=last, arrows=_arrows(body.arrows), bounds=BOARD_LAYOUTS[body.layout])}
        return await state.run(_locked, game, draw)

    @app.get("/api/games/{game_id}/record",
             summary="fiveup-record/1 so far: the person's view, the whole game once it is over")
    async def game_record(game_id: str):
        game = state.game(game_id)
        return _locked(game, game.record)       # at once: no search worker is needed

    @app.post("/api/analyses", summary="start an analysis (`fiveup analyze --json`) in the background: {id}")
    async def new_analysis(body: AnalysisRequest):
        _check_range("samples", body.samples, 2, ANALYSIS_MAX_SAMPLES)
        _check_range("luck_samples", body.luck_samples, 1, ANALYSIS_MAX_SAMPLES)
        _check_range("dd_nodes", body.dd_nodes, 0, ANALYSIS_MAX_DD_NODES)
        budget = AnalysisBudget(samples=body.samples, luck_samples=body.luck_samples, dd_nodes=body.dd_nodes,
                                threads=1, beliefs=body.beliefs).check()
        check_seed(body.seed)
        state.room_for_an_analysis()            # (a 429 now, not after the replay)
        record = check_record(body.record)
        # the whole record is replayed before the job is queued: a bad one is a 400 now
        await state.run(game_from_record, record, check=False)
        _seats_to_analyse(record, body.seat)
        job = AnalysisJob(record, body.seat, budget, body.seed)
        aid = state.add_analysis(job)
        if state.analysis_sem is None:
            state.analysis_sem = asyncio.Semaphore(state.analysis_slots)

        async def run_job():
            async with state.analysis_sem:
                await state.run(job.run)
        task = asyncio.get_running_loop().create_task(run_job())
        state.tasks.add(task)
        task.add_done_callback(state.tasks.discard)
        return {"id": aid}

    @app.post("/api/records/check",
              summary="replay a record through the rules (`fiveup replay` without its text): "
                      "{players, rounds, view, scores, finished}, or its first fault as a 400")
    async def check_a_record(body: RecordRequest):
        # the analysis board asks as a file is chosen: an illegal record is said then, not
        # after Analyse has started its progress bar (a browser review)
        record = await state.run_light(check_record, body.record)     # (off the loop: a large body's walk)
        game = await state.run_light(game_from_record, record, check=False)
        return {"players": game.players, "rounds": len(game.rounds),
                "view": record.get("view"), "scores": list(game.scores), "finished": game.game_over}

    @app.get("/api/analyses/{analysis_id}",
             summary="{status, progress, result?}: result is `fiveup analyze --json` once done")
    async def get_analysis(analysis_id: str):
        state.purge_analyses()
        return state.analysis(analysis_id).to_dict()

    @app.post("/api/analyses/{analysis_id}/cancel",
              summary="stop a queued or running analysis (the board does when its page is left): {status, ...}")
    async def cancel_analysis(analysis_id: str):
        job = state.analysis(analysis_id)
        job.cancel("cancelled by its client")
        return job.to_dict()

    @app.post("/api/board", summary="a board picture (SVG) of placements, with arrows")
    async def board(body: BoardRequest):
        if len(body.placements) > 28:
            raise OptionError(f"a board holds at most 28 placements, not {len(body.placements)}")
        svg = board_svg(body.placements, lastmove=body.lastmove, arrows=_arrows(body.arrows),
                        size=_check_size(body.size), bounds=BOARD_LAYOUTS[body.layout])
        return {"svg": svg}

    @app.post("/api/position", summary="a record's position for the analysis board")
    async def position(body: PositionRequest):
        return await state.run(position_json, body)

    return app



def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before serving: uvicorn reports a bad host or a port in
    use as a log line and exit status 3, after the banner; this makes it the one-line error
    of every bad option. Port 0 takes a free port, which the banner then names."""
    s = None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        s = socket.socket(family, kind, proto)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as uvicorn binds
        s.bind(address)
        s.listen(128)
        return s
    except OSError as e:
        if s is not None:
            s.close()
        raise OptionError(f"cannot serve on {host}:{port}: {e.strerror or e}") from None
    except UnicodeError as e:
        # a name the IDNA codec refuses before any lookup: an empty label (a..b), one of
        # over 63 characters, a character no host name holds
        reason = " ".join(str(e.__cause__ or e).split())[:80]
        raise OptionError(f"cannot serve on {host}:{port}: not a host name ({reason})") from None


def _ip_literal(name: str):
    """The IP address a Host header's name gives (an IPv6 one in brackets), or None."""
    import ipaddress
    try:
        return ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)
    except ValueError:
        return None


_HOST_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)")


def check_allowed_host(name) -> str:
    """A name for the ``Host`` allow-list (``fiveup serve --allow-host``), as the header
    names it: lower case, an IPv6 address in brackets; a name that no Host header can
    carry (a port, a path, a wildcard, a space) is a one-line OptionError.

    >>> check_allowed_host("Fiveup.Example.org"), check_allowed_host("::1")
    ('fiveup.example.org', '[::1]')
    """
    what = "--allow-host takes a host name or address as a Host header names it"
    if not isinstance(name, str) or not name.strip():
        raise OptionError(f"{what}, not {_short(name)}")
    text = name.strip().lower()
    address = _ip_literal(text)
    if address is not None:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    if "://" in text or "/" in text:
        raise OptionError(f"{what} (no scheme or path), not {_short(name, 60)}")
    if "*" in text:
        raise OptionError(f"{what} (each name in full: there are no wildcards), not {_short(name, 60)}")
    if ":" in text:
        raise OptionError(f"{what}, without a port, not {_short(name, 60)}")
    labels = text[:-1].split(".") if text.endswith(".") else text.split(".")
    if len(text) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
        raise OptionError(f"{what} (letters, digits and hyphens, dot-separated labels of 1 to 63), "
                          f"not {_short(name, 60)}")
    return text


class _QuietUpgrades:
    """A logging filter: uvicorn's two warnings for each WebSocket upgrade a client asks
    (the app has no WebSocket; a review: 100 such requests wrote 150 log lines)."""

    def filter(self, record) -> bool:
        return not str(record.msg).startswith(("Unsupported upgrade request", "No supported WebSocket library"))


def uvicorn_config(app, host: str, port: int, *, access_log: bool = False):
    """The uvicorn.Config ``run`` serves with: at most MAX_CONNECTIONS connections and
    requests at once (503 past it), no WebSocket protocol (the app has none; the warnings
    for an upgrade asked are left out of the log), no Server header, warnings on standard
    error, and with ``access_log`` each request's line there too."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG
    logs = copy.deepcopy(LOGGING_CONFIG)
    logs["filters"] = {"quiet_upgrades": {"()": _QuietUpgrades}}
    logs["handlers"]["default"]["filters"] = ["quiet_upgrades"]
    logs["handlers"]["access"]["stream"] = "ext://sys.stderr"
    logs["loggers"]["uvicorn"]["level"] = "WARNING"
    logs["loggers"]["uvicorn.error"]["level"] = "WARNING"
    logs["loggers"]["uvicorn.access"]["level"] = "INFO"
    return uvicorn.Config(app, host=host, port=port, server_header=False, limit_concurrency=MAX_CONNECTIONS,
                          ws="none", log_config=logs, log_level=None, access_log=access_log)


def run(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, open_browser: bool = False, *, out=None,
        allow_hosts=(), access_log: bool = False) -> int:
    """Serve the app until interrupted (``fiveup serve``). ``allow_hosts``: more names the
    ``Host`` header may give (``--allow-host``: the name a reverse proxy forwards);
    ``access_log``: a line for each request on standard error (``--access-log``)."""
    import sys

    import uvicorn
    out = out or sys.stdout
    if not _is_int(port) or not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0..65535, not {_short(port)}")
    if not isinstance(host, str) or not host or any(c.isspace() for c in host):
        raise OptionError(f"--host must be a host name or address, not {host!r}")
    if isinstance(allow_hosts, str):
        allow_hosts = (allow_hosts,)
    extra = tuple(check_allowed_host(name) for name in allow_hosts or ())
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    everywhere = host in ("0.0.0.0", "::")
    app = create_app(allowed_hosts=(() if everywhere else (host,)) + extra, ip_hosts=everywhere)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if host not in ("127.0.0.1", "localhost", "::1"):
        out.write(f"warning: serving on {host}, not only this machine (there is no login)\n")
    out.write(f"fiveup serve: {url} (Ctrl-C stops)\n")
    out.flush()
    if open_browser:
        import webbrowser
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    config = uvicorn_config(app, host, port, access_log=access_log)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except OSError as e:
        raise OptionError(f"cannot serve on {host}:{port}: {e.strerror or e}") from None
    finally:
        sock.close()
    return 0

