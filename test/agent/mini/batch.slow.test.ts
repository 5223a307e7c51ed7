// Every committed game in one batch of mini-agent runs on one scripted server (slow tier: twenty child
// processes). The fast tier plays two games the same way (batch.test.ts).
import { describe, expect, test } from "bun:test";
import { playMiniBatch } from "./batch-play.ts";

describe("a batch of mini-agent runs on one server (slow)", () => {
  test("play --games all --runs 2 --parallel 2: every run done, its own conversation, tokens from usage", async () => {
    expect((await playMiniBatch("all")).length).toBeGreaterThanOrEqual(10);
  }, 300_000);
});
