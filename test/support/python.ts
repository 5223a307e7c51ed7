// The Python the arc-local bridge tests run, asked once: whether it can run the bridge, and the interpreter's
// own path. A version manager's `python3` may be a shim (pyenv's is a shell script that runs `pyenv exec`,
// about half a CPU-second a start), and every arc-local run starts Python twice (the engine probe and the
// bridge); pointing PROLONG_PYTHON at the interpreter the shim would have run spares that, and runs the same
// Python with the same packages.
import { afterAll, beforeAll } from "bun:test";

/** The interpreter's own path, or why the bridge cannot run here (Python ≥ 3.11 with numpy, as docs/arc.md says). */
export function bridgePython(): { readonly path: string } | { readonly skip: string } {
  const r = Bun.spawnSync([
    process.env.PROLONG_PYTHON ?? "python3",
    "-c",
    "import sys, numpy; assert sys.version_info >= (3, 11); print(sys.executable)",
  ]);
  const path = r.stdout.toString().trim();
  return r.exitCode === 0 && path !== "" ? { path } : { skip: "python3 ≥ 3.11 with numpy is not installed" };
}

/** Sets PROLONG_PYTHON to `path` for the test file's whole run, then puts back what was there. */
export function usePython(path: string): void {
  const saved = process.env.PROLONG_PYTHON;
  beforeAll(() => {
    process.env.PROLONG_PYTHON = path;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PROLONG_PYTHON;
    else process.env.PROLONG_PYTHON = saved;
  });
}
