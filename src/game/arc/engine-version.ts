// Which ARC engine plays a run, for its provenance: the arcengine package the bridge imports (the same
// interpreter and search path: PROLONG_PYTHON, PROLONG_ARC_ENGINE first on PYTHONPATH), named by its installed
// version and a hash of its Python files, so an edited or another checkout of one version shows too.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import * as v from "valibot";

// The interpreter prints where arcengine lies and its version (the package metadata's, else __version__).
const PROBE = `
import importlib.metadata, json, os, arcengine
try:
    version = importlib.metadata.version("arcengine")
except Exception:
    version = getattr(arcengine, "__version__", None)
print(json.dumps({"dir": os.path.dirname(os.path.abspath(arcengine.__file__)), "version": version}))
`;

const ProbeSchema = v.object({
  dir: v.pipe(v.string(), v.maxLength(4096)),
  version: v.nullable(v.pipe(v.string(), v.maxLength(100))),
});

/** At most this many files of the package are hashed (an engine is tens): a runaway directory is not read whole. */
const MAX_FILES = 2_000;

function pythonFiles(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (out.length >= MAX_FILES) return;
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "__pycache__") pythonFiles(p, out);
    else if (e.isFile() && e.name.endsWith(".py")) out.push(p);
  }
}

// The engine does not change while a process runs: asked once.
let cached: string | undefined;

/** "arc engine": "<version> <16 hex digits of its files>", or why it could not be read. */
export function arcEngineProvenance(): Record<string, string> {
  cached ??= probe();
  return { "arc engine": cached };
}

function probe(): string {
  const python = process.env.PROLONG_PYTHON ?? "python3";
  const pythonPath = [process.env.PROLONG_ARC_ENGINE, process.env.PYTHONPATH].filter((p): p is string => !!p).join(delimiter);
  const r = spawnSync(python, ["-c", PROBE], {
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, PYTHONPATH: pythonPath },
  });
  let parsed: v.InferOutput<typeof ProbeSchema> | undefined;
  try {
    const out = v.safeParse(ProbeSchema, JSON.parse((r.stdout ?? "").trim().split("\n").pop() ?? ""));
    parsed = out.success ? out.output : undefined;
  } catch {
    parsed = undefined;
  }
  if (r.status !== 0 || !parsed) return "not importable";
  const files: string[] = [];
  pythonFiles(parsed.dir, files);
  const h = createHash("sha256");
  // Paths relative to the package, so two installs of the same files hash alike.
  for (const f of files) h.update(relative(parsed.dir, f)).update("\0").update(readFileSync(f)).update("\0");
  return `${parsed.version ?? "unversioned"} ${h.digest("hex").slice(0, 16)}`;
}
