# tn01: a two-level test game for the stand-in engine. A player cell walks a 64x64 board (ACTION1-4 move it
# by 8 cells); reaching the goal cell completes the level. ACTION6 on the lamp lights it in two frames (an
# animation); ACTION5 does nothing. Level 2 has its goal further away. Deterministic; the seed is accepted
# and ignored.
from arcengine import ARCBaseGame, FrameData, GameAction, GameState

SIZE = 64
STEP = 8
LEVELS = [
    {"start": (8, 8), "goal": (40, 8)},
    {"start": (8, 8), "goal": (40, 24)},
]
LAMP = (56, 56)


class Tn01(ARCBaseGame):
    def __init__(self, seed=0):
        self.seed = seed
        self.level = 0
        self.completed = 0
        self.state = GameState.NOT_PLAYED
        self.pos = LEVELS[0]["start"]
        self.lit = False

    def board(self):
        rows = [[0] * SIZE for _ in range(SIZE)]
        gx, gy = LEVELS[min(self.level, len(LEVELS) - 1)]["goal"]
        rows[gy][gx] = 3
        lx, ly = LAMP
        rows[ly][lx] = 11 if self.lit else 4
        px, py = self.pos
        rows[py][px] = 8
        return rows

    def result(self, frames):
        return FrameData(frames, self.state, self.completed, len(LEVELS), [1, 2, 3, 4, 5, 6])

    def perform_action(self, action_input, raw=False):
        a = action_input.id
        if a == GameAction.RESET:
            if self.state == GameState.WIN:
                self.level = 0
                self.completed = 0
            self.pos = LEVELS[self.level]["start"]
            self.lit = False
            self.state = GameState.NOT_FINISHED
            return self.result([self.board()])
        if self.state != GameState.NOT_FINISHED:
            return self.result([self.board()])
        if a == GameAction.ACTION6:
            x, y = action_input.data["x"], action_input.data["y"]
            if (x, y) == LAMP and not self.lit:
                before = self.board()
                self.lit = True
                return self.result([before, self.board()])
            return self.result([self.board()])
        moves = {GameAction.ACTION1: (0, -STEP), GameAction.ACTION2: (0, STEP), GameAction.ACTION3: (-STEP, 0), GameAction.ACTION4: (STEP, 0)}
        if a in moves:
            dx, dy = moves[a]
            x, y = self.pos[0] + dx, self.pos[1] + dy
            if 0 <= x < SIZE and 0 <= y < SIZE:
                self.pos = (x, y)
            if self.pos == LEVELS[self.level]["goal"]:
                self.completed += 1
                if self.completed == len(LEVELS):
                    self.state = GameState.WIN
                else:
                    self.level += 1
                    self.pos = LEVELS[self.level]["start"]
        return self.result([self.board()])
