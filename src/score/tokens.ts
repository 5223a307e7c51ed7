// Token arithmetic, one definition: what a run's agent calls cost as the paper counts it.
import type { TokenUsage } from "../agent/agent.ts";

/** Billed tokens as the paper counts them: (input − cached) + 6 × output + 0.1 × cached. */
export function billedTokens(t: TokenUsage): number {
  return t.input - t.cached + 6 * t.output + 0.1 * t.cached;
}
