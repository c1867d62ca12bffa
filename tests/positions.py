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
from fiveup_solver.notation import Tile


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


# Hand-written positions: actions "SEAT:TILE", "SEAT:TILE@PORT", "SEAT:draw TILE", "SEAT:pass".

def parse_actions(text):
    out = []
    for tok in text.split(";"):
        seat, _, mv = tok.strip().partition(":")
        seat = int(seat)
        if mv.startswith("draw "):
            out.append({"seat": seat, "draw": mv[5:]})
        elif mv == "pass":
            out.append({"seat": seat, "pass": True})
        elif "@" in mv:
            tile, _, at = mv.partition("@")
            out.append({"seat": seat, "play": tile, "at": at})
        else:
            out.append({"seat": seat, "play": mv})
    return out


def deal_spec(players, hands, boneyard, starter, actions):
    return {"players": players, "hands": [h.split() for h in hands], "boneyard": boneyard.split(),
            "starter": starter, "actions": parse_actions(actions)}


def random_scores(rng, players, mode, low=270):
    """Side scores for a test position: all 0 ("zero"), or ("near") some sides
    low..300 (multiples of 5), where exact hits and rejected events decide, the
    others anywhere from 0 to 300."""
    sides = R.n_sides(players)
    if mode == "zero":
        return [0] * sides
    near = [rng.random() < 0.6 for _ in range(sides)]
    if not any(near):
        near[rng.randrange(sides)] = True
    return [rng.randrange(low, 305, 5) if nr else rng.randrange(0, 305, 5) for nr in near]


def random_deal(rng, players, scores):
    """A shuffled deal on the reference rules: (hands, boneyard, starter, scores, state)."""
    tiles = list(R.ALL_TILES)
    rng.shuffle(tiles)
    hands = [tiles[5 * s:5 * s + 5] for s in range(players)]
    boneyard = tiles[5 * players:]
    starter = rng.randrange(players)
    return hands, boneyard, starter, scores, R.RoundState(players, hands, boneyard, starter, scores)
