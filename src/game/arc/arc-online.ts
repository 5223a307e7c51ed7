import { err, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { GameEnv } from "../env.ts";
export function arcOnlineEnv(o: { game: string }): Result<GameEnv, ProlongError> {
  return err(prolongError("not-available", `arc-online ${o.game}: not built yet`));
}
