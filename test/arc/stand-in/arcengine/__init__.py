# A stand-in for ARC's engine, written for prolong's tests: exactly the names and calls the arc-local bridge
# (src/game/arc/bridge-source.ts) uses, so the bridge's own protocol (spawn, JSON lines, hex frames, errors,
# a process that dies) runs wherever Python 3.11 and numpy do, as in CI. It is not ARC's engine and plays no
# ARC game: its games are the small ones in ../games, written for these tests.
import enum
from dataclasses import dataclass, field


class GameAction(enum.Enum):
    RESET = 0
    ACTION1 = 1
    ACTION2 = 2
    ACTION3 = 3
    ACTION4 = 4
    ACTION5 = 5
    ACTION6 = 6
    ACTION7 = 7

    @classmethod
    def from_id(cls, action_id):
        return cls(action_id)


class GameState(enum.Enum):
    NOT_PLAYED = "NOT_PLAYED"
    NOT_FINISHED = "NOT_FINISHED"
    WIN = "WIN"
    GAME_OVER = "GAME_OVER"


@dataclass
class ActionInput:
    id: GameAction
    data: dict = field(default_factory=dict)


@dataclass
class FrameData:
    """What perform_action(..., raw=True) returns: every frame of the step, the last one settled."""
    frame: list
    state: GameState
    levels_completed: int
    win_levels: int
    available_actions: list


class ARCBaseGame:
    """The base class the bridge looks for; a game overrides perform_action."""

    def perform_action(self, action_input, raw=False):
        raise NotImplementedError("a game must implement perform_action")
