import { readFileSync } from "node:fs";
import { HookrunError } from "../errors.js";

/**
 * The agent cannot switch off its own guards (docs/trust.md#an-agent-cannot-switch-off-its-guards):
 * `hooks trust`, `untrust`, `enable`, `disable`, `init --force`, `install` and `uninstall`, run
 * from an agent's tool call, change nothing until a person confirms. An agent's tool call is told
 * by the variables each agent sets for the commands its model runs, and by an agent's process
 * among this process's ancestors (Linux's /proc: a marker unset with `env -u` does not hide it).
 */

/** The variables each agent sets for its tool calls (read from each agent's real CLI; docs/trust.md lists the evidence). */
export const AGENT_MARKERS: readonly { agent: string; variable: string; value?: string }[] = [
  { agent: "Claude Code", variable: "CLAUDECODE", value: "1" },
  { agent: "Claude Code", variable: "CLAUDE_CODE_ENTRYPOINT" },
  { agent: "Codex", variable: "CODEX_SANDBOX" },
  { agent: "Codex", variable: "CODEX_SANDBOX_NETWORK_DISABLED" },
  { agent: "Gemini CLI", variable: "GEMINI_CLI", value: "1" },
  { agent: "Qwen Code", variable: "QWEN_CODE", value: "1" },
  { agent: "Cursor", variable: "CURSOR_AGENT", value: "1" },
];

/** An agent's own process, by its command line: the agents' binaries and their npm packages. */
const AGENT_PROCESSES: readonly { agent: string; pattern: RegExp }[] = [
  { agent: "Claude Code", pattern: /(?:^|\/)claude(?:\0|$)|@anthropic-ai\/claude-code/ },
  { agent: "Codex", pattern: /(?:^|\/)codex(?:\0|$)|@openai\/codex/ },
  { agent: "Gemini CLI", pattern: /(?:^|\/)gemini(?:\0|$)|@google\/gemini-cli/ },
  { agent: "Qwen Code", pattern: /(?:^|\/)qwen(?:\0|$)|@qwen-code\/qwen-code/ },
  { agent: "Copilot CLI", pattern: /(?:^|\/)copilot(?:\0|$)|@github\/copilot/ },
  { agent: "Cursor", pattern: /(?:^|\/)cursor-agent(?:\0|$)/ },
  { agent: "Factory Droid", pattern: /(?:^|\/)droid(?:\0|$)/ },
];

/** The agent whose tool call this process looks like: by its variables, else by an ancestor process; null: none found. */
export function agentCaller(env: Readonly<Record<string, string | undefined>>, pid: number = process.ppid): string | null {
  for (const m of AGENT_MARKERS) {
    const v = env[m.variable];
    if (v !== undefined && v !== "" && (m.value === undefined || v === m.value)) return m.agent;
  }
  return agentAncestor(pid);
}

/** The first ancestor (from `pid` up, at most 64) whose command line is an agent's; null off Linux or when none is. */
export function agentAncestor(pid: number): string | null {
  for (let i = 0, p = pid; i < 64 && p > 1; i++) {
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${p}/cmdline`, "latin1").slice(0, 4096);
      stat = readFileSync(`/proc/${p}/stat`, "latin1").slice(0, 1024);
    } catch {
      return null;
    }
    // The first two words of the command line: the program, and the script a runtime runs.
    const words = cmdline.split("\0").slice(0, 2).join("\0");
    const found = AGENT_PROCESSES.find((a) => a.pattern.test(words));
    if (found) return found.agent;
    // stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!Number.isInteger(ppid) || ppid === p) return null;
    p = ppid;
  }
  return null;
}

/** A command that changes what runs, called from an agent's tool call without a person's confirmation. */
export class AgentCallError extends HookrunError {
  constructor(command: string, agent: string) {
    super(
      `\`hooks ${command}\` changes which hooks run, and this looks like ${agent}'s tool call (no terminal, and ${agent}'s environment), so nothing was changed: an agent cannot switch off its own guards. Ask the user to run \`hooks ${command}\` themselves, in their own terminal`,
      { code: "agent" },
    );
  }
}

/**
 * Refuse `command` when an agent runs it: without a terminal, when it looks like an agent's tool
 * call. A terminal is a person's; so is `--person`, a flag documented as one only a person types
 * (docs/trust.md#an-agent-cannot-switch-off-its-guards).
 */
export function refuseAgentCall(command: string, options: { env: Readonly<Record<string, string | undefined>>; terminal: boolean; person?: boolean }): void {
  if (options.person || options.terminal) return;
  const agent = agentCaller(options.env);
  if (agent) throw new AgentCallError(command, agent);
}
