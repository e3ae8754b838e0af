import { readFileSync } from "node:fs";
import { HookrunError } from "../errors.js";

/**
 * The agent cannot switch off its own guards (docs/trust.md#an-agent-cannot-switch-off-its-guards):
 * `hooks trust`, `untrust`, `enable`, `disable`, `init --force`, `install` and `uninstall`, run
 * from an agent's tool call, change nothing until a person confirms. An agent's tool call is told
 * by the variables each agent sets for the commands its model runs (the most specific first: an
 * agent started from another's shell inherits the outer one's), and by an agent's process among
 * this process's ancestors (Linux's /proc: a variable unset with `env -u` does not hide it).
 */

/**
 * The variables each agent sets for the commands its model runs, seen in each real CLI's shell
 * tool (Claude Code 2.1.330, Codex 0.169.0, Gemini CLI 0.61.0, Qwen Code 0.24.4, Copilot CLI
 * 1.0.102) and found where each CLI sets them (docs/trust.md#an-agent-cannot-switch-off-its-guards).
 */
export const AGENT_MARKERS: readonly { agent: string; variable: string; value?: string }[] = [
  { agent: "Codex", variable: "CODEX_THREAD_ID" },
  { agent: "Codex", variable: "CODEX_CI", value: "1" },
  { agent: "Gemini CLI", variable: "GEMINI_CLI", value: "1" },
  { agent: "Qwen Code", variable: "QWEN_CODE", value: "1" },
  { agent: "Copilot CLI", variable: "COPILOT_AGENT_SESSION_ID" },
  { agent: "Copilot CLI", variable: "COPILOT_CLI", value: "1" },
  { agent: "Claude Code", variable: "CLAUDECODE", value: "1" },
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
      `\`hooks ${command}\` changes which hooks run, and this looks like ${agent}'s tool call (${agent}'s environment or process), so nothing was changed: an agent cannot switch off its own guards. Ask the user to run \`hooks ${command}\` themselves, in a terminal of their own (not one the agent started)`,
      { code: "agent" },
    );
  }
}

/**
 * Refuse `command` when it looks like an agent's tool call, terminal or not: Codex runs a call in a
 * pseudo-terminal when it asks for one, Gemini CLI and Qwen Code do in their interactive mode, so
 * a terminal proves no person. `--person`, a flag documented as one only a person types
 * (docs/trust.md#an-agent-cannot-switch-off-its-guards), goes on.
 */
export function refuseAgentCall(command: string, options: { env: Readonly<Record<string, string | undefined>>; person?: boolean }): void {
  if (options.person) return;
  const agent = agentCaller(options.env);
  if (agent) throw new AgentCallError(command, agent);
}
