// The agent a RunConfig names. One place that knows every backend.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunConfig } from "../run/config.ts";
import type { Agent } from "./agent.ts";
import { commandAgent } from "./command.ts";
import { createExplorer } from "./explorer/explorer.ts";

export function createAgent(config: RunConfig): Result<Agent, ProlongError> {
  switch (config.agent) {
    case "explorer":
      return ok(createExplorer());
    case "command":
      if (!config.cmd) return err(prolongError("bad-config", "--agent command needs --cmd '<shell command>'", { fix: "e.g. --agent command --cmd 'python3 my_agent.py'" }));
      return ok(commandAgent({ cmd: config.cmd, timeoutSec: config.agentTimeoutSec }));
    case "human":
      return err(prolongError("bad-config", "the human player does not run inside the agent loop", { fix: "use `prolong play <game> --agent human`" }));
    case "claude":
    case "codex":
      return err(prolongError("not-available", `the ${config.agent} backend is not built yet`, { fix: "use --agent explorer or --agent command --cmd '...'" }));
  }
}
