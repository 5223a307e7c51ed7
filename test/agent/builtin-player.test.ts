// `--agent explorer` (the default) is each environment kind's own built-in player, as game/kinds.ts names it.
import { describe, expect, test } from "bun:test";
import { createAgent } from "../../src/agent/create.ts";
import { ENV_KINDS, newConfig } from "../../src/config/run-config.ts";
import { envKind } from "../../src/game/kinds.ts";

describe("built-in players", () => {
  test("the grid explorer for the grid games, the NetHack agent for NetHack: whatever the kind names is made", () => {
    const made = Object.fromEntries(
      ENV_KINDS.map((env) => {
        const config = newConfig({ game: "glide", env })._unsafeUnwrap();
        return [env, [envKind(env).builtinPlayer, createAgent(config)._unsafeUnwrap().name]];
      }),
    );
    expect(made).toEqual({
      local: ["explorer", "explorer"],
      "arc-local": ["explorer", "explorer"],
      "arc-online": ["explorer", "explorer"],
      nethack: ["nethack-agent", "nethack-bot"],
      toy: ["explorer", "explorer"],
    });
  });
});
