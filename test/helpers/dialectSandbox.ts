import { readFileSync } from "node:fs";
import { createRunner } from "../../src/runner/createRunner.js";
import type { TriggerResult } from "../../src/runner/types.js";
import { runMain } from "./cli.js";
import type { Sandbox } from "./sandbox.js";

/**
 * What the tests of a host dialect (test/dialects.<host>.test.ts) do in a sandbox: write a
 * hooks.yaml of hooks in one dialect, run an event through the library, or through the CLI as a
 * host fires it (`hooks run EVENT --host HOST`, the host's payload on stdin).
 */
export interface DialectHook {
  name: string;
  command: string;
  /** More YAML lines of the hook, each indented by six spaces. */
  extra?: string;
}

export function dialectHarness(current: () => Sandbox, dialect: string) {
  return {
    /** hooks.yaml with these hooks on `event`, all in the dialect. */
    configure(event: string, hooks: DialectHook[]): void {
      const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: ${dialect}\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
      current().write("hooks.yaml", `hooks:\n  ${event}:\n${body}`);
    },
    /** The event run through the library with a canonical context. */
    async result(event: string, context: Record<string, unknown> = {}): Promise<TriggerResult> {
      const sb = current();
      const config = await sb.load();
      const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.dir, env: sb.processEnv });
      try {
        return await runner.trigger(event, { session_id: "s", ...context });
      } finally {
        await runner.close();
      }
    },
    /** `hooks run EVENT --host HOST` with the host's `payload`: the answer parsed when it is JSON. */
    async fire(event: string, host: string, payload: Record<string, unknown>): Promise<{ answer: Record<string, unknown> | string; code: number | null; stderr: string }> {
      const sb = current();
      const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.dir, env: sb.env, input: JSON.stringify(payload) });
      const out = r.stdout.trim();
      return { answer: out.startsWith("{") ? (JSON.parse(out) as Record<string, unknown>) : r.stdout, code: r.code, stderr: r.stderr };
    },
    /** The JSON a hook wrote with `cat > FILE`. */
    read(file: string): Record<string, unknown> {
      return JSON.parse(readFileSync(current().path(file), "utf8")) as Record<string, unknown>;
    },
  };
}

/** A hook command that prints `json` (one line). */
export const printing = (json: unknown): string => `printf '%s\\n' '${JSON.stringify(json)}'`;

/** Claude Code's PreToolUse payload for a Bash call. */
export const claudePreToolUse = (dir: string, command: string): Record<string, unknown> => ({
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: dir,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "toolu_1",
});
