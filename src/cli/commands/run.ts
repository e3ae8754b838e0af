import type { RegisterCommand } from "./index.js";

const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(",").map((s) => s.trim()).filter(Boolean)];

export interface RunFlags {
  context?: string;
  sessionId?: string;
  turnCount?: string;
  lastMessage?: string;
  set?: string[];
  output?: string;
  json?: boolean;
  dryRun?: boolean;
  only?: string[];
  skip?: string[];
  wait?: boolean;
  maxParallel?: string;
}

export const registerRun: RegisterCommand = (program, context, setCode) => {
  program
    .command("run")
    .description("fire EVENT: read the context, run the matching hooks, print their results")
    .argument("<event>", "event name in any spelling (stop, Stop, PreToolUse, tool.execute.pre)")
    .option("--context <file>", "read the context JSON object from FILE (- for stdin)")
    .option("--session-id <id>", "session_id (default $HOOKS_SESSION_ID, else \"default\")")
    .option("--turn-count <n>", "turn_count (default 0)")
    .option("--last-message <text>", "last_assistant_message")
    .option("--set <key=value>", "set a context field (dotted keys; VALUE parsed as JSON when it parses); repeatable", (v: string, prev: string[] = []) => [...prev, v])
    .option("--output <format>", "text | json | junit | claude", "text")
    .option("--json", "same as --output json")
    .option("--dry-run", "print the plan and the context; run nothing")
    .option("--only <names>", "run only these hooks (comma-separated or repeated)", collect)
    .option("--skip <names>", "do not run these hooks (comma-separated or repeated)", collect)
    .option("--wait", "wait for async hooks and report them in this run (default when CI is set)")
    .option("--no-wait", "do not wait for async hooks, even when CI is set")
    .option("--max-parallel <n>", "concurrency cap for parallel events (default: CPUs × 2)")
    .action(async (event: string, opts: RunFlags, cmd) => {
      const { runHooks } = await import("../actions/runHooks.js");
      setCode(await runHooks(context(cmd), event, opts));
    });
};
