import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Payload } from "../../src/hosts/types.js";

const ROOT = path.join(import.meta.dirname, "..", "fixtures", "hosts");

/** The documented payloads of one host (test/fixtures/hosts/<host>/*.json), by file name without `.json`. */
export function hostFixtures(host: string): Record<string, Payload> {
  const dir = path.join(ROOT, host);
  const out: Record<string, Payload> = {};
  for (const f of readdirSync(dir).sort()) if (f.endsWith(".json")) out[f.slice(0, -5)] = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Payload;
  return out;
}

/** Every host's fixtures except `host`'s, labelled `other/name`. */
export function otherHostsFixtures(host: string): [string, Payload][] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== host)
    .flatMap((d) => Object.entries(hostFixtures(d.name)).map(([n, p]): [string, Payload] => [`${d.name}/${n}`, p]));
}

/** Claude Code payloads (Claude's own shape, no host marker), which no other host may claim. */
export const CLAUDE_PAYLOADS: Payload[] = [
  {
    session_id: "s1",
    transcript_path: "/home/dev/.claude/projects/p/s1.jsonl",
    cwd: "/p",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "toolu_1",
  },
  { session_id: "s1", transcript_path: "/home/dev/.claude/projects/p/s1.jsonl", cwd: "/p", permission_mode: "default", hook_event_name: "Stop", stop_hook_active: false },
  { session_id: "s1", transcript_path: "/home/dev/.claude/projects/p/s1.jsonl", cwd: "/p", hook_event_name: "SessionStart", source: "startup" },
];
