"""Test positions as plain dicts (players, hands, boneyard, starter, scores, actions),
built the same way in the reference rules and in the engine."""
from __future__ import annotations

try:
    from . import reference as R
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R
    import reference_minimax as M

from fiveup_solver.game import Game, action_to_move
from fiveup_solver.types import Tile


def build_reference(spec) -> R.RoundState:
    st = R.RoundState(spec["players"], spec["hands"], spec["boneyard"], spec["starter"],
                      list(spec["scores"]))
    for a in spec["actions"]:
        st.apply(a)
    return st


def build_game(spec) -> Game:
    g = Game(players=spec["players"], deal=False)
    g.start_round([[Tile.parse(t) for t in h] for h in spec["hands"]],
                  [Tile.parse(t) for t in spec["boneyard"]], spec["starter"],
                  scores=list(spec["scores"]))
    for a in spec["actions"]:
        g.push(action_to_move(a))
    assert g.current.actions == spec["actions"]
    return g


def tiles_left(st: R.RoundState) -> int:
    return sum(len(h) for h in st.hands) + len(st.boneyard_left())


def choices(st: R.RoundState) -> int:
    """Number of concrete moves of the seat to move (after its forced draws)."""
    s = M.forced_draws(st)
    return 0 if s.over else len(s.legal_actions())
