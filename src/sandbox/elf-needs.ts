// The shared libraries a program loads, read from its ELF headers (PT_INTERP, DT_NEEDED, DT_RUNPATH) and
// resolved the way the dynamic loader resolves them, without running anything: ldd starts the loader once
// per file, which for Python's extension modules takes seconds; this reads a few pages. 64-bit
// little-endian ELF only (x86-64, aarch64): anything else is reported so the caller can fall back to ldd.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const DT_NEEDED = 1n;
const DT_STRTAB = 5n;
const DT_RPATH = 15n;
const DT_RUNPATH = 29n;
/** ELF headers are read from the file's start; a dynamic section is small. Bigger reads are refused. */
const MAX_READ = 4 * 1024 * 1024;

interface ElfDeps {
  readonly interp: string | null;
  readonly needed: readonly string[];
  readonly runpath: readonly string[];
}

/** The loader and DT_NEEDED names of one ELF file; null when it is not a 64-bit little-endian ELF. */
export function elfDeps(path: string): ElfDeps | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const read = (at: number, n: number): Buffer => {
      if (at < 0 || n < 0 || n > MAX_READ || at + n > size) throw new Error("out of range");
      const b = Buffer.alloc(n);
      readSync(fd!, b, 0, n, at);
      return b;
    };
    const h = read(0, 64);
    if (h.readUInt32BE(0) !== 0x7f454c46 || h[4] !== 2 || h[5] !== 1) return null;
    const phoff = Number(h.readBigUInt64LE(32));
    const phentsize = h.readUInt16LE(54);
    const phnum = h.readUInt16LE(56);
    const ph = read(phoff, phentsize * phnum);
    const loads: { vaddr: bigint; offset: bigint; filesz: bigint }[] = [];
    let dynamic: { offset: number; size: number } | null = null;
    let interp: string | null = null;
    for (let i = 0; i < phnum; i++) {
      const at = i * phentsize;
      const type = ph.readUInt32LE(at);
      const offset = ph.readBigUInt64LE(at + 8);
      const vaddr = ph.readBigUInt64LE(at + 16);
      const filesz = ph.readBigUInt64LE(at + 32);
      if (type === PT_LOAD) loads.push({ vaddr, offset, filesz });
      else if (type === PT_DYNAMIC) dynamic = { offset: Number(offset), size: Number(filesz) };
      else if (type === PT_INTERP) interp = cString(read(Number(offset), Number(filesz)), 0);
    }
    if (dynamic === null) return { interp, needed: [], runpath: [] };
    const dyn = read(dynamic.offset, dynamic.size);
    const needed: bigint[] = [];
    const paths: bigint[] = [];
    let strtab: bigint | null = null;
    for (let at = 0; at + 16 <= dyn.length; at += 16) {
      const tag = dyn.readBigInt64LE(at);
      const val = dyn.readBigUInt64LE(at + 8);
      if (tag === 0n) break;
      if (tag === DT_NEEDED) needed.push(val);
      else if (tag === DT_STRTAB) strtab = val;
      else if (tag === DT_RPATH || tag === DT_RUNPATH) paths.push(val);
    }
    if (strtab === null) return { interp, needed: [], runpath: [] };
    // The string table's address is a virtual one: find the file offset through the segment that holds it.
    const seg = loads.find((l) => strtab! >= l.vaddr && strtab! < l.vaddr + l.filesz);
    if (!seg) return null;
    const base = Number(strtab - seg.vaddr + seg.offset);
    const str = (off: bigint) => cString(read(base + Number(off), Math.min(4096, size - base - Number(off))), 0);
    const origin = dirname(path);
    return {
      interp,
      needed: needed.map(str),
      runpath: paths
        .flatMap((p) => str(p).split(":"))
        .map((d) => d.replaceAll("$ORIGIN", origin).replaceAll("${ORIGIN}", origin)),
    };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function cString(b: Buffer, at: number): string {
  const end = b.indexOf(0, at);
  return b.toString("latin1", at, end === -1 ? b.length : end);
}

/** The loader's search directories: /etc/ld.so.conf (and its includes), then the defaults. */
export function loaderDirs(): string[] {
  const out: string[] = [];
  const readConf = (file: string, depth: number) => {
    if (depth > 4) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    for (const raw of text.split("\n")) {
      const line = raw.replace(/#.*/, "").trim();
      if (line === "") continue;
      const inc = /^include\s+(.+)$/.exec(line);
      if (inc) {
        for (const pattern of inc[1]!.split(/\s+/)) {
          const glob = new Bun.Glob(pattern.startsWith("/") ? pattern.slice(1) : pattern);
          for (const f of [...glob.scanSync({ cwd: pattern.startsWith("/") ? "/" : dirname(file) })].sort())
            readConf(pattern.startsWith("/") ? `/${f}` : join(dirname(file), f), depth + 1);
        }
      } else out.push(line);
    }
  };
  readConf("/etc/ld.so.conf", 0);
  return [...out, "/lib64", "/usr/lib64", "/lib", "/usr/lib"];
}

/**
 * Every library the files load, transitively, and their loaders; null when one cannot be read as ELF or a
 * needed library is not found (the caller then asks ldd).
 */
export function librariesNeeded(files: readonly string[], dirs: readonly string[] = loaderDirs()): string[] | null {
  const found = new Set<string>();
  const queue = [...files];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const d = elfDeps(f);
    if (d === null) return null;
    if (d.interp !== null && !found.has(d.interp)) found.add(d.interp);
    for (const name of d.needed) {
      const lib = name.includes("/") ? name : [...d.runpath, ...dirs].map((dir) => join(dir, name)).find((p) => existsSync(p));
      if (lib === undefined) return null;
      if (!found.has(lib)) found.add(lib), queue.push(lib);
    }
  }
  return [...found];
}

/** Every shared library (and the loader) the ELF files load, from their headers, else by ldd; scripts have none. */
export function librariesOf(files: readonly string[]): Result<string[], ProlongError> {
  const elves = files.filter(isElf);
  if (elves.length === 0) return ok([]);
  const read = librariesNeeded(elves);
  if (read !== null) return ok(read);
  const r = spawnSync("ldd", elves, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error || typeof r.stdout !== "string")
    return err(
      prolongError("no-tools", `cannot list the sandboxed programs' libraries with ldd: ${r.error?.message ?? "no output"}`, {
        fix: "install libc-bin (it provides ldd)",
      }),
    );
  const libs = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    const m = /=>\s+(\/\S+)\s+\(/.exec(line) ?? /^\s+(\/\S+)\s+\(/.exec(line);
    if (m) libs.add(m[1]!);
  }
  return ok([...libs]);
}

function isElf(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const b = Buffer.alloc(4);
    readSync(fd, b, 0, 4, 0);
    return b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
