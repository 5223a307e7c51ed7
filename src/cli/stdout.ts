// The stdout stream for what is written through it, ending quietly when its reader goes away.
//
// Output read by a program that stops early (`prolong log grep ... | head`) closes the pipe: end with status 0,
// as grep does, instead of an EPIPE stack trace. console.log needs nothing for that (it drops the write), but a
// write through the process.stdout stream raises the EPIPE as an error event. Building that stream costs about
// 2 ms of CPU (a tenth of `prolong log stats` on a 20 MB log), so commands that print with console.log only
// never build it: main.ts sets this up for every command but those whose table entry says they print on their
// own, and those call quietStdout() where they write through the stream.
let quiet = false;

/**
 * Writes bytes to stdout without building the stream (Bun writes them to the file descriptor itself); a closed
 * pipe ends the process quietly, as quietStdout's listener does. For a command's one big write.
 */
export async function writeStdoutQuietly(bytes: Uint8Array): Promise<void> {
  try {
    await Bun.write(Bun.stdout, bytes);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
    throw e;
  }
}

/** process.stdout, with the listener that ends the process quietly on a closed pipe (added once). */
export function quietStdout(): NodeJS.WriteStream {
  if (!quiet) {
    quiet = true;
    process.stdout.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(0);
      throw e;
    });
  }
  return process.stdout;
}
