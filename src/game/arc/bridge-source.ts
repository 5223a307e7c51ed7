// The Python side of --env arc-local: a small program that loads one ARC-AGI-3 game the way the toolkit's
// local wrapper does (exec the game file as a module, take the class named after the id, construct it with
// seed 0 when it accepts a seed) and speaks JSON lines on stdin/stdout. It is a string here so that
// `bun build --compile` carries it; arc-bridge.ts writes it to a temporary file when a game is opened.
//
// Protocol (one JSON object per line):
//   start-up   argv: <game file> <class name> <game id> <seed>
//              → {"ready": true, "python": "3.11.7", "arcengine": "<path>"}
//              → {"ready": false, "code": "...", "message": "...", "fix": "..."} and exit 2
//   request    {"op": "step", "id": 0..7, "x"?: int, "y"?: int}     (id 0 is RESET)
//   reply      {"ok": true, "width": 64, "height": 64, "frames": ["<one hex digit per cell>", ...],
//               "state": "NOT_FINISHED", "levels_completed": 0, "win_levels": 6, "available_actions": [6]}
//              {"ok": false, "message": "..."}   (the game raised; its traceback goes to stderr)
//
// Why hex strings: a step can return 65 frames of 64x64; as nested JSON arrays that is ~0.5 MB per step,
// as hex 266 KB, encoded by one numpy lookup instead of a Python loop.
// Why fd juggling: games may print; anything they print must not corrupt the protocol, so stdout (fd 1) is
// pointed at stderr and the protocol gets a private duplicate of the original stdout.
//
// Keep this free of backticks and "${": it is embedded in a String.raw template.
export const BRIDGE_SOURCE = String.raw`# prolong arc-local bridge (written by prolong; see src/game/arc/bridge-source.ts)
import importlib.util
import inspect
import json
import os
import sys
import traceback

proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)


def send(obj):
    proto.write(json.dumps(obj, separators=(",", ":")) + "\n")
    proto.flush()


def fail(code, message, fix):
    send({"ready": False, "code": code, "message": message, "fix": fix})
    sys.exit(2)


if sys.version_info < (3, 11):
    fail("python-too-old",
         "arc-local needs Python 3.11 or newer; " + sys.executable + " is " + sys.version.split()[0],
         "install Python 3.11+ and point PROLONG_PYTHON at it")

try:
    import numpy as np
    from arcengine import ARCBaseGame, ActionInput, GameAction
    import arcengine
except Exception as e:  # ImportError, or an engine that fails while importing
    fail("arcengine-missing",
         "arcengine is not importable by " + sys.executable + ": " + type(e).__name__ + ": " + str(e),
         "install ARC's toolkit (pip install arc-agi, which brings arcengine and numpy), "
         "or set PROLONG_ARC_ENGINE to a directory holding the arcengine/ package")

game_file, class_name, game_id, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

try:
    with open(game_file, encoding="utf-8") as fh:
        source = fh.read()
except OSError as e:
    fail("game-file", "cannot read the game file " + game_file + ": " + str(e),
         "the games directory needs <id>/<version>/<id>.py beside metadata.json")

spec = importlib.util.spec_from_loader("arc_agi_3." + game_id, loader=None)
module = importlib.util.module_from_spec(spec)
try:
    exec(compile(source, game_file, "exec"), module.__dict__)
except Exception as e:
    traceback.print_exc()
    fail("game-file", "the game file " + game_file + " fails to load: " + type(e).__name__ + ": " + str(e),
         "restore the file from the games' source (it must run under the installed arcengine)")

cls = getattr(module, class_name, None)
if not isinstance(cls, type) or not issubclass(cls, ARCBaseGame):
    fail("game-file", "the game file " + game_file + " has no ARCBaseGame subclass named " + class_name,
         "the class must be named after the game id (first four characters, first letter upper case) "
         "or given as class_name in metadata.json")

try:
    kwargs = {"seed": seed} if "seed" in inspect.signature(cls).parameters else {}
    game = cls(**kwargs)
except Exception as e:
    traceback.print_exc()
    fail("game-file", "constructing " + class_name + " from " + game_file + " fails: " + type(e).__name__ + ": " + str(e),
         "restore the file from the games' source")

HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
send({"ready": True, "python": sys.version.split()[0], "arcengine": os.path.dirname(arcengine.__file__)})


def encode(frame):
    a = np.asarray(frame)
    if a.ndim != 2:
        raise ValueError("a frame is not two-dimensional: shape " + str(a.shape))
    if a.size and (a.min() < 0 or a.max() > 15):
        raise ValueError("a frame holds colours outside 0..15")
    return a.shape, HEX[a.astype(np.intp)].tobytes().decode("ascii")


for line in sys.stdin:
    if not line.strip():
        continue
    try:
        req = json.loads(line)
        action = GameAction.from_id(int(req["id"]))
        data = {"x": int(req["x"]), "y": int(req["y"])} if action == GameAction.ACTION6 else {}
        raw = game.perform_action(ActionInput(id=action, data=data), raw=True)
        frames = []
        shape = (0, 0)
        for f in raw.frame:
            shape, text = encode(f)
            frames.append(text)
        state = raw.state.value if hasattr(raw.state, "value") else str(raw.state)
        send({"ok": True, "height": int(shape[0]), "width": int(shape[1]), "frames": frames, "state": state,
              "levels_completed": int(raw.levels_completed), "win_levels": int(raw.win_levels),
              "available_actions": [int(a) for a in raw.available_actions]})
    except Exception as e:
        traceback.print_exc()
        send({"ok": False, "message": type(e).__name__ + ": " + str(e)})
`;
