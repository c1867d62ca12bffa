"""PettingZoo adapter: Exact 61 Five Up as an AEC environment for 2-4 players.

A thin layer over the engine (:class:`fiveup_solver.game.Game` plays the
rules). Needs the ``pettingzoo`` extra (``pip install
'fiveup_solver[pettingzoo]'``); importing this module works without it, and
building an environment then raises :class:`~fiveup_solver.errors.OptionError`.

    from fiveup_solver.pettingzoo import env
    e = env(players=3, render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

``env(**kw)`` is ``raw_env(**kw)`` in the usual wrappers (an illegal action ends the
game with the least return there is for its agent, no better than any legal outcome:
-1 for a whole game, -305 for a round, -475 for a 4-player round; with 4 players its
partner gets the same, and the other agents get 0.
An action that is no action id, 999 or -1 or 2.5, step() or observe() before
reset(), and last() once every agent has left are one-line OptionErrors (``raw_env``'s
step() then too; ``env()``'s warns and does nothing, PettingZoo's rule); after an illegal
action the game is over in the observations and the text too). Options: ``players``
(2-4, default 2), ``whole_game`` (default True: to exactly 305; False: one round),
``max_rounds`` (default 1000, D6; a whole game not won by then is *truncated*),
``perfect_recall`` (default False: the observation of the position; True: adds the
current round's history as the agent saw it), ``render_mode`` (``"ansi"``: ``render()``
returns the table as text; ``"human"``: prints it; or None).

Agents are ``player_0`` ... (seat numbers). The action space is ``Discrete(450)`` with
the OpenSpiel adapter's mapping (:mod:`fiveup_solver.encoding`: 0-27 open with a
tile, 28-447 a placement of a tile on a port, 448 draw, 449 pass); draws and
passes are the agent's own (forced) actions, as in records. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is the
OpenSpiel observation tensor of that seat (:class:`fiveup_solver.encoding.Encoder`:
own hand, board, open ports, end sum, hand sizes, boneyard size, scores, ...),
nothing another seat hides; the mask is all zeros for an agent not to move.

Chance stays inside: ``reset(seed=...)`` seeds the environment's generator, which
seeds the engine's deals (every round's tiles and boneyard order, and the starter
when the rules draw one). The boneyard order is hidden from every agent, so the
tile a draw takes is uniform among the tiles not yet dealt nor drawn, as it
would be if picked at the moment of the draw.

Rewards come at the end only (zero-sum): whole game +1 for the winning side's
agents, -1 for the others (3 players: +1 and -0.5 each); one round: the raw points
the agent's side gained minus the other side's (3 players: minus the mean of the
two others). ``terminations`` are set when the game (or the round) ends,
``truncations`` when ``max_rounds`` stops an unfinished game. Rewards are floats.

A round's end: in a whole game the step that ends a round deals the next one, so the
observations after it show the new round (an empty board, five tiles each). How the
round ended is in ``infos[agent]["round_end"]`` of every agent from that step until the
agent acts again (each reads it in ``last()`` at its next turn; the last round's too, as
the agents leave), and ``render()`` shows it ("Round 0 ended: domino by seat 0, last seat
0 2-3@2-2:branchA (domino +10); hands shown: seat 0 -, seat 1 0-0,5-5") until the next
round ends: :meth:`raw_env.round_end_summary`, only what every seat sees then (the
hands left, shown for scoring; never another seat's drawn tile nor the boneyard).
"""
from __future__ import annotations

import random

import numpy as np

from fiveup_solver.errors import OptionError, check_seed, check_switch, short_repr as _short
from fiveup_solver.game import Game
from fiveup_solver.notation import raw_to_display
from fiveup_solver.encoding import (
    DEFAULT_PARAMS, NUM_ACTIONS, OVER, PLAY, Encoder, Table, action_to_move, check_params, move_to_action,
    outcome_returns, utility_bound,
)

try:  # the extra is optional: the module imports without it
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:  # pragma: no cover - depends on the environment
    AECEnv = None

__all__ = ["env", "raw_env", "ENV_NAME"]

ENV_NAME = "exact61_five_up_v0"
INSTALL_HINT = "pip install 'fiveup_solver[pettingzoo]'"
GAME_OVER = "the game is over and every agent has left: reset() the environment"


def _require_pettingzoo() -> None:
    if AECEnv is None:
        raise OptionError(f"the PettingZoo adapter needs pettingzoo: {INSTALL_HINT}")


def env(**kwargs):
    """The environment in PettingZoo's usual wrappers (see the module doc)."""
    _require_pettingzoo()
    e = raw_env(**kwargs)
    # an illegal action is no better than any legal outcome for the offender's side: the least
    # return there is (-1 for a whole game; a round's points reach -305, with 4 players -475)
    e = _TerminateIllegal(e, illegal_reward=-utility_bound(e.players, e.whole_game))
    e = _CheckActions(e)
    e = _OrderEnforcing(e)
    return e


if AECEnv is not None:
    class _TerminateIllegal(wrappers.TerminateIllegalWrapper):
        """PettingZoo's illegal-move rule, and the game then over for the environment too: its
        observations (phase, an all-zero mask) and its text say so."""

        def step(self, action):
            offender, before = self.agent_selection, self._terminated
            super().step(action)
            if self._terminated:
                u = self.env.unwrapped
                u._over = u._illegal = True
                # PettingZoo's wrapper gives the other agents an int 0: every reward is a float
                u.rewards = {a: float(r) for a, r in u.rewards.items()}
                u._cumulative_rewards = {a: float(r) for a, r in u._cumulative_rewards.items()}
                if not before and u.players == 4:
                    # the offender's partner shares its side's return, as in every legal end: left
                    # at PettingZoo's 0, a losing side would end better off by an illegal action
                    partner = u.possible_agents[(u.possible_agents.index(offender) + 2) % 4]
                    u.rewards[partner] = float(self._illegal_value)
                    u._cumulative_rewards[partner] += float(self._illegal_value)

    class _CheckActions(wrappers.BaseWrapper):
        """An action that is no action id (999, -1, 2.5, "3", True) is refused as raw_env refuses
        it, a one-line OptionError, before the illegal-move rule reads the action mask with it
        (an IndexError, or -1 read as the last action; PettingZoo's own bounds check is an
        assert, gone under python -O). An action id that is not legal now ends the game there."""

        def step(self, action):
            agent = self.agent_selection
            if not (self.terminations.get(agent) or self.truncations.get(agent)):
                action_to_move(action)
            super().step(action)

    class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
        """PettingZoo's order checks, with step(), observe(), last() or render() before reset() a
        one-line OptionError."""

        def step(self, action):
            if not self._has_reset:
                raise OptionError("reset() the environment before step() or observe()")
            super().step(action)

        def observe(self, agent):
            if not self._has_reset:
                raise OptionError("reset() the environment before step() or observe()")
            return super().observe(agent)

        def last(self, observe: bool = True):
            # (a review: PettingZoo's own AttributeError before reset(); the same line as step's)
            if not self._has_reset:
                raise OptionError("reset() the environment before last()")
            if not self.agents:
                # (a review: a bare KeyError once agent_iter() had taken every agent off)
                raise OptionError(GAME_OVER)
            return super().last(observe)

        def render(self):
            if not self._has_reset:
                raise OptionError("reset() the environment before render()")
            return super().render()


class raw_env(AECEnv if AECEnv is not None else object):
    """The AEC environment without wrappers."""

    metadata = {"render_modes": ["human", "ansi"], "name": ENV_NAME, "is_parallelizable": False}

    def __init__(self, players: int = 2, whole_game: bool = True, max_rounds: int = DEFAULT_PARAMS["max_rounds"],
                 perfect_recall: bool = False, render_mode: str | None = None):
        _require_pettingzoo()
        super().__init__()
        p = check_params({"players": players, "whole_game": whole_game, "max_rounds": max_rounds})
        # (typed first: an array's or an odd object's == is not a truth value)
        if render_mode is not None and (not isinstance(render_mode, str) or render_mode not in ("ansi", "human")):
            raise OptionError(f"render_mode must be 'human', 'ansi' or None, not {_short(render_mode)}")
        self.players, self.whole_game, self.max_rounds = p["players"], p["whole_game"], p["max_rounds"]
        self.render_mode = render_mode
        # a switch, as whole_game: "false" must not turn it on
        perfect_recall = check_switch("perfect_recall", perfect_recall)
        self._encoder = Encoder(self.players, perfect_recall, "single")
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self._encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[self._check_agent(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._check_agent(agent)]

    def _check_agent(self, agent) -> str:
        # (typed first: an array's == is not a truth value)
        if not isinstance(agent, str) or agent not in self.agent_name_mapping:
            raise OptionError(f"agent must be one of {', '.join(self.possible_agents)}, not {_short(agent)}"[:200])
        return agent

    # ------------------------------------------------------------------ episode
    def reset(self, seed=None, options=None):
        if seed is not None:
            # a numpy integer seed is taken as its int (errors.check_seed, as every integer)
            self._rng = random.Random(check_seed(seed))
        self.game = Game(self.players, seed=self._rng.getrandbits(63), max_rounds=self.max_rounds)
        self._over = False
        self._illegal = False       # ended by an illegal action (env()'s wrapper)
        self._round_end = None      # how the last round to end ended (round_end_summary)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def _check_reset(self) -> None:
        if self.game is None:
            raise OptionError("reset() the environment before step() or observe()")

    def step(self, action):
        self._check_reset()
        if not self.agents:
            # (a review: a bare KeyError; env()'s PettingZoo wrapper warns and does nothing instead)
            raise OptionError(GAME_OVER)
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        game = self.game
        move = action_to_move(action)      # an integer action id (0.9 or True were read as 0 and 1)
        if move not in game.legal_moves:
            raise OptionError(f"{agent} cannot play action {int(action)} ({move}) now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {}             # a round's end stays in an agent's infos until it acts again
        game.push(move)
        if game.round_over:
            # the next round is dealt in this same step: keep how this one ended, as every seat saw it
            self._round_end = self.round_end_summary()
            for a in self.agents:
                self.infos[a] = {"round_end": self.round_end_summary()}
            if game.game_over or not self.whole_game:
                self._over = True
                for a, r in zip(self.possible_agents, outcome_returns(game, self.whole_game)):
                    self.rewards[a] = r
                self.terminations = dict.fromkeys(self.agents, True)
            elif game.unfinished:
                self._over = True
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                game.next_round()
        if not self._over:
            self.agent_selection = self.possible_agents[game.to_move]
        else:
            seat = self.agent_name_mapping[agent]
            self.agent_selection = self.possible_agents[(seat + 1) % self.players]
        self._accumulate_rewards()

    def last(self, observe: bool = True):
        self._check_reset()
        if not self.agents:
            raise OptionError(GAME_OVER)
        return super().last(observe)

    def _clear_rewards(self) -> None:
        # (PettingZoo's clears to an int 0: a reward is a float throughout)
        self.rewards = dict.fromkeys(self.rewards, 0.0)

    def observe(self, agent):
        self._check_reset()
        seat = self.agent_name_mapping[self._check_agent(agent)]
        table = Table(self.players, OVER if self._over else PLAY, self.game, self.game)
        vector = np.zeros(self._encoder.size, np.float32)
        self._encoder.fill(self._encoder.views(vector), table, seat)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not self._over and self.game.to_move == seat:
            mask[[move_to_action(m) for m in self.game.legal_moves]] = 1
        return {"observation": vector, "action_mask": mask}

    def round_end_summary(self) -> dict:
        """How the current round ended (it must be over), with only what every seat sees then
        (RULES 2.2: the hands left are shown for scoring; a drawn tile and the boneyard are not):
        ``round`` (index), ``end`` (:meth:`RoundLog.end`: domino and its seat, blocked and the
        side that wins it or None for a tie, or won), ``last`` (the last action: seat and move,
        a draw without its tile), ``events`` (the scoring events of that action, as in records),
        ``domino`` (a domino's parts, P + O - D, :meth:`RoundLog.domino_parts`; else None),
        ``block`` (a blocked round's credits seat by seat, RULES §6.5,
        :meth:`RoundLog.block_parts`; else None), ``scores`` (raw, after the round) and
        ``hands`` (the hands left, tiles as text)."""
        g = self.game
        r = g.current
        seat, move = r.moves[-1]
        return {"round": len(g.rounds) - 1, "end": r.end(),
                "last": {"seat": seat, "move": "draw" if move.kind == "draw" else str(move)},
                "events": [e.to_dict() for e in r.events[-1]], "domino": r.domino_parts(), "block": r.block_parts(),
                "scores": list(g.scores),
                "hands": [[str(t) for t in sorted(g.hand(s), key=lambda t: t.index)] for s in range(self.players)]}

    # ------------------------------------------------------------------ display
    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "human":
            print(self.board_text())        # PettingZoo's convention: "human" shows it, returns None
            return None
        return self.board_text()

    def board_text(self) -> str:
        """The table as text: round, scores, board, open ends with their values, end sum."""
        g = self.game
        if g is None:
            return "(not reset)"
        r = g.current
        lines = [f"Round {len(g.rounds) - 1}, starter seat {r.starter}"
                 + (f", to move: seat {g.to_move}" if g.to_move is not None else f", {r.core.status}")]
        if self._round_end is not None:
            lines.append(_round_end_text(self._round_end))
        lines.append("Scores (raw/display): " + "  ".join(
            f"side {i}: {s} ({raw_to_display(s)})" for i, s in enumerate(g.scores)))
        lines.append("Board: " + (" ".join(str(m) for _, m in r.moves if m.kind == "play") or "-"))
        lines.append("Open ends: " + (", ".join(f"{p} ({p.value})" for p in g.open_ports()) or "-"))
        ends = " + ".join(f"{t}:{v}" for t, v in g.scoring_ends())
        lines.append(f"End sum: {g.end_sum}" + (f" = {ends}" if ends else ""))
        lines.append("Hands: " + ", ".join(f"seat {s} {len(g.hand(s))}" for s in range(self.players))
                     + f"; boneyard {len(g.boneyard)}")
        if r.moves:
            s, m = r.moves[-1]
            shown = "draw" if m.kind == "draw" else str(m)   # another seat's draw stays hidden
            events = _events_text(e.to_dict() for e in r.events[-1])
            lines.append(f"Last: seat {s} {shown}" + (f" ({events})" if events else ""))
        if self._illegal:
            lines.append("Game over: an illegal action")
        elif self._over:
            lines.append("Game over: " + ("unfinished" if g.winner is None and self.whole_game
                                           else f"side {g.winner} wins" if g.winner is not None else "round over"))
        return "\n".join(lines)

    def close(self):
        pass


def _events_text(events) -> str:
    """Scoring events as the text shows them: ``domino +10``, ``block +5 rejected`` (record dicts)."""
    return ", ".join(f"{e['kind']} {'+' if e['raw'] >= 0 else ''}{e['raw']}{'' if e['accepted'] else ' rejected'}"
                     for e in events)


def _round_end_text(summary: dict) -> str:
    """The summary as one line: ``Round 0 ended: domino by seat 0, last seat 0 2-3@2-2:branchA
    (domino +10); hands shown: seat 0 -, seat 1 0-0,5-5``."""
    end = summary["end"]
    if end["end"] == "blocked":
        how = "blocked, " + ("a tie" if end["winner"] is None else f"side {end['winner']} wins the round")
    else:
        how = f"{end['end']} by seat {end['seat']}"
    last = summary["last"]
    events = _events_text(summary["events"])
    return (f"Round {summary['round']} ended: {how}, last seat {last['seat']} {last['move']}"
            + (f" ({events})" if events else "") + "; hands shown: "
            + ", ".join(f"seat {s} {','.join(h) or '-'}" for s, h in enumerate(summary["hands"])))
