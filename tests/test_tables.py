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
