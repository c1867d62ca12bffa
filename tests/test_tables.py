"""The constant tables of src/fiveup_solver/fiveup_tables.h, recomputed entry by entry."""
import re
from pathlib import Path

HEADER = Path(__file__).parent.parent / "src" / "fiveup_solver" / "fiveup_tables.h"


def tiles():
    return [(a, b) for a in range(7) for b in range(a, 7)]


def c_array(name):
    text = HEADER.read_text()
    m = re.search(name + r"\[[^=]*=\s*\{(.*?)\};", text, re.S)
    assert m, name
    return [int(x.rstrip("u"), 0) for x in re.findall(r"0x[0-9a-f]+u?|\d+", m.group(1))]


def test_tile_order_and_pips():
    t = tiles()
    assert len(t) == 28
    assert c_array("TILE_LO") == [a for a, _ in t]
    assert c_array("TILE_HI") == [b for _, b in t]
    assert c_array("TILE_PIPS") == [a + b for a, b in t]
    assert c_array("TILE_INDEX") == [t.index((min(a, b), max(a, b))) for a in range(7) for b in range(7)]


def test_pip_masks_and_playable_table():
    t = tiles()
    masks = [sum(1 << i for i, (a, b) in enumerate(t) if v in (a, b)) for v in range(7)]
    assert c_array("PIP_MASK") == masks
    playable = c_array("PLAYABLE_BY_OPEN_VALUES")
    assert len(playable) == 128
    for m in range(128):
        want = 0
        for v in range(7):
            if m >> v & 1:
                want |= masks[v]
        assert playable[m] == want


def test_pips_by_byte():
    t = tiles()
    table = c_array("PIPS_BY_BYTE")
    assert len(table) == 4 * 256
    for k in range(4):
        for b in range(256):
            want = sum(t[8 * k + j][0] + t[8 * k + j][1] for j in range(8) if b >> j & 1 and 8 * k + j < 28)
            assert table[256 * k + b] == want


def test_doubles_mask():
    text = HEADER.read_text()
    value = int(re.search(r"DOUBLES_MASK (0x[0-9a-f]+)u", text).group(1), 16)
    assert value == sum(1 << i for i, (a, b) in enumerate(tiles()) if a == b)


# ---------------------------------------------------------------- placements by table (issue 24)
# The search reads what a placement does from these tables instead of branching on its
# kind. Here they are rebuilt from the ports of RULES §3 (a non-double attaches the half
# equal to the port's value; its other half becomes a new regular end; a double attaches
# by its lineA on a regular end of its value) and the scoring ends of §4.1 (a regular end
# counts its value, a double with a free line port 2 x its value, a filled one 0).

MK_OPEN, MK_END_LO, MK_END_HI, MK_LINE_LO, MK_LINE_HI, MK_BRANCH_LO, MK_BRANCH_HI = range(7)
DS_NONE, DS_LINE2, DS_LINE1, DS_BRANCH2, DS_BRANCH1, DS_BRANCH0 = range(6)
# a double's state: (free line ports, free branches); branches open once both line ports are taken
DS_PORTS_OF = {DS_NONE: (0, 0), DS_LINE2: (2, 0), DS_LINE1: (1, 0), DS_BRANCH2: (0, 2), DS_BRANCH1: (0, 1),
               DS_BRANCH0: (0, 0)}


def signed_array(name):
    text = HEADER.read_text()
    m = re.search(name + r"\[[^=]*=\s*\{(.*?)\};", text, re.S)
    assert m, name
    return [int(x) for x in re.findall(r"-?\d+", m.group(1))]


def placement(t, kind):
    """(covered value, new regular end or None, kind of port covered) of a canonical
    move on a non-empty board, or None when the kind does not exist for the tile."""
    a, b = tiles()[t]
    if kind == MK_OPEN:
        return None
    if a == b:
        return (a, None, "end") if kind == MK_END_LO else None
    covered, new = (a, b) if kind in (MK_END_LO, MK_LINE_LO, MK_BRANCH_LO) else (b, a)
    port = {MK_END_LO: "end", MK_END_HI: "end", MK_LINE_LO: "line", MK_LINE_HI: "line",
            MK_BRANCH_LO: "branch", MK_BRANCH_HI: "branch"}[kind]
    return covered, new, port


def test_double_ports():
    assert c_array("DS_PORTS") == [sum(DS_PORTS_OF[ds]) for ds in range(6)]


def test_double_attach_kind():
    # a tile on the double lo-lo: its free line port if it has one, else a free branch
    want = [MK_LINE_LO if DS_PORTS_OF[ds][0] else MK_BRANCH_LO if DS_PORTS_OF[ds][1] else 0 for ds in range(6)]
    assert c_array("DS_ATTACH_KIND") == want
    assert MK_LINE_HI == MK_LINE_LO + 1 and MK_BRANCH_HI == MK_BRANCH_LO + 1   # the hi-hi kinds: one more


def test_end_sum_tables_agree_with_every_double_state():
    # end sum after = before + MOVE_SUM_DELTA - 2 x MOVE_LINE_VALUE when that double is left
    # with no free line port; checked against the scoring ends counted before and after
    delta, line = signed_array("MOVE_SUM_DELTA"), c_array("MOVE_LINE_VALUE")
    assert len(delta) == len(line) == 256
    for t, (a, b) in enumerate(tiles()):
        assert delta[t | MK_OPEN << 5] == a + b            # the opening tile: both ends count
        for kind in range(1, 8):
            move = t | kind << 5
            p = placement(t, kind) if kind < 7 else None
            if p is None:
                assert delta[move] == 0 and line[move] == 0
                continue
            covered, new, port = p
            if new is None:                                  # a double on a regular end
                assert (delta[move], line[move]) == (-covered + 2 * covered, 0)
                continue
            for ds in range(6):
                free_line, free_branch = DS_PORTS_OF[ds]
                if port == "line" and not free_line or port == "branch" and not free_branch:
                    continue
                before_double = 2 * covered if free_line else 0
                after_double = before_double
                if port == "line":
                    after_double = 2 * covered if free_line - 1 else 0
                change = new - (covered if port == "end" else 0) + after_double - before_double
                got = delta[move] - (2 * line[move] if ds == DS_LINE1 else 0)
                assert got == change, (tiles()[t], kind, ds)


def test_board_change_tables():
    at, new_end, shape = c_array("MOVE_AT"), c_array("MOVE_NEW_END"), c_array("MOVE_SHAPE")
    assert len(at) == len(new_end) == len(shape) == 256
    for t in range(28):
        for kind in range(8):
            move = t | kind << 5
            p = placement(t, kind) if 1 <= kind <= 6 else None
            if p is None:
                assert (at[move], new_end[move], shape[move]) == (0, 0, 0)
                continue
            covered, new, port = p
            covers_end = port == "end"
            # the covered double moves on one state (LINE2 -> LINE1 -> BRANCH2, BRANCH2 ->
            # BRANCH1 -> BRANCH0); a double placed on an end goes from NONE to LINE1
            ds_step = 0 if covers_end and new is not None else (DS_LINE1 - DS_NONE if new is None else 1)
            assert at[move] == covered
            assert new_end[move] == (covered if new is None else new)
            assert shape[move] == int(covers_end) | ds_step << 1 | int(new is not None) << 3
    # the state steps of a line or branch placement are the next states
    assert DS_PORTS_OF[DS_LINE2 + 1][0] == DS_PORTS_OF[DS_LINE2][0] - 1
    assert DS_PORTS_OF[DS_LINE1 + 1] == (0, 2) and DS_PORTS_OF[DS_BRANCH2 + 1][1] == 1
    assert DS_PORTS_OF[DS_BRANCH1 + 1] == (0, 0)
