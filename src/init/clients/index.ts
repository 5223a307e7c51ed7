// Every client installer, by name.
import type { ClientInstaller } from "../client.ts";
import type { ClientName } from "../layout.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { opencode } from "./opencode.ts";
import { pi } from "./pi.ts";

export const CLIENTS: Readonly<Record<ClientName, ClientInstaller>> = { claude, codex, opencode, pi };
