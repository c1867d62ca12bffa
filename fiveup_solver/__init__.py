"""fiveup_solver: exact rules, records, solvers and hints for Exact 61 Five Up.

>>> from fiveup_solver import Game, Move, Tile
>>> g = Game(players=4, seed=11)
>>> len(g.legal_moves) == len(g.hand(g.to_move))   # the starter may open with any tile
True
"""
try:
    from fiveup_solver import _core  # noqa: F401  (the compiled core: every module stands on it)
except ImportError as _missing:   # pragma: no cover - a source tree without its build
    raise ImportError(
        f"fiveup_solver's compiled core is missing from {__path__[0]}: this is the source tree, not an "
        f"installed package; run from another directory (the installed package is then imported) "
        f"or build it here with pip install -e ."
    ) from _missing
from fiveup_solver.errors import (
    BotError, CoreError, FiveUpError, IllegalMoveError, InconsistentObservationError, OptionError, ParseError, RecordError,
    SearchStopped, WorkerError,
)
from fiveup_solver.notation import (
    ALL_TILES, TARGET_RAW, Event, Move, Port, Tile, format_move, format_port, format_tile, parse_move,
    parse_port, parse_tile, raw_to_display,
)
from fiveup_solver.game import Game, Observation
from fiveup_solver.record import (
    check_record, game_at, game_from_record, load_record, replay, save_record,
)

__all__ = [
    "ALL_TILES", "TARGET_RAW", "Event", "BotError", "CoreError", "FiveUpError", "IllegalMoveError",
    "InconsistentObservationError", "Move", "OptionError",
    "ParseError", "Port", "RecordError", "SearchStopped", "WorkerError", "Tile", "format_move", "format_port", "format_tile",
    "parse_move", "parse_port", "parse_tile", "raw_to_display", "Game", "Observation",
    "check_record", "game_at", "game_from_record", "load_record", "replay", "save_record",
]
__version__ = "0.1.0"
