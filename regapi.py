import random
from fiveup_solver.bots import register_bot
from fiveup_solver.ladder import place_agent, run_ladder
from fiveup_solver.match import play_pairs
def first_move(obs, rng):
    return obs.legal_moves[0]
register_bot("first", first_move)
p = place_agent("first", levels=["level1", "level3"], games=4, workers=2)
print(p.format_text())
print(run_ladder(2, ["level1", "first"], games=4, workers=2).format_table())
import inspect
print(inspect.signature(play_pairs))
