// Plain-TS twins of the native file and line functions: read the file into fresh memory with the same
// refusals, count '\n' bytes one indexOf at a time. Slow on purpose (see CONTRACT in src/native.ts).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { MapFailure } from "../../src/native.ts";

export function lineCountOracle(buf: Uint8Array, start = 0, end = buf.length): number {
  let n = 0;
  for (let i = buf.indexOf(10, start); i !== -1 && i < end; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

export function mapFileOracle(path: string, limit?: number): Uint8Array | MapFailure {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? { kind: "missing-file", message: "no such file" }
      : { kind: "unreadable", message: `cannot open: ${(e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { kind: "is-directory", message: "is a directory, expected a log file" };
    if (!st.isFile()) {
      const what = st.isFIFO()
        ? "a FIFO (named pipe)"
        : st.isCharacterDevice()
          ? "a character device"
          : st.isBlockDevice()
            ? "a block device"
            : st.isSocket()
              ? "a socket"
              : "something other than a regular file";
      return { kind: "not-a-file", message: `is ${what}; a log must be a regular file` };
    }
    const out = new Uint8Array(Math.min(st.size, limit ?? st.size));
    let got = 0;
    while (got < out.length) {
      const n = readSync(fd, out, got, out.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return out.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
