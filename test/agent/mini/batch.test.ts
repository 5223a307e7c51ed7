// One scripted Chat Completions server drives a batch of mini-agent runs (batch-play.ts): two games, two runs
// each, two at a time, each run a child process with its own conversation. Every committed game in one batch
// (twenty child processes) is in batch.slow.test.ts.
import { describe, expect, test } from "bun:test";
import { playMiniBatch } from "./batch-play.ts";

describe("a batch of mini-agent runs on one server", () => {
  test("play --games glide,vault --runs 2 --parallel 2: every run done, its own conversation, tokens from usage", async () => {
    expect(await playMiniBatch("glide,vault")).toEqual(["glide-r1", "glide-r2", "vault-r1", "vault-r2"]);
  }, 180_000);
});
