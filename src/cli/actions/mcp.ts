import { loadConfig } from "../../config/loadConfig.js";
import { formatDiagnostic, UsageError } from "../../errors.js";
import { READ_LIMITS } from "../../fs/readBounded.js";
import { hostHttpBody } from "../../hosts/httpAnswer.js";
import { trustCommand } from "../../hosts/notRunWords.js";
import { runHostEvent } from "../../hosts/runHostEvent.js";
import { hostByName } from "../../hosts/adapters.js";
import { MCP_SERVER, MCP_TOOL, mcpCapable, mcpHosts, readMcpArgs } from "../../hosts/warmMcp.js";
import { createRunner } from "../../runner/createRunner.js";
import type { Runner } from "../../runner/types.js";
import { startMcpServer } from "../../server/mcpProtocol.js";
import { terminalSafe } from "../../text.js";
import { VERSION } from "../../version.js";
import { type ConfigWatcher, watchConfig } from "../../watch/watchConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import type { McpHookArgs } from "../../hosts/warmMcp.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { untilSignal } from "../signals.js";

/**
 * `hooks mcp`: a stdio MCP server an agent starts for its session (docs/server.md#hooks-mcp).
 * One runner for the life of the process over a watched config, as `hooks serve`; each call of
 * its `hook` tool is one event through runHostEvent with the host's adapter, answered with the
 * JSON the host's hook reads. Ends when stdin closes or on a terminating signal, its hooks killed.
 */

export interface McpFlags {
  host?: string;
}

/** A call's arguments and the answers' JSON text may be as large as a context `hooks run` reads, plus the template around it. */
const MAX_LINE_BYTES = READ_LIMITS.context + 64 * 1024;

/** The one tool: an event of the agent, as the installed entries call it. */
const HOOK_TOOL = {
  name: MCP_TOOL,
  description: "hookrun's hooks for one event of the agent (called by the agent's mcp_tool hook entries that `hooks install --warm` writes)",
  inputSchema: {
    type: "object",
    properties: {
      host: { type: "string", description: "the agent whose payload this is" },
      event: { type: "string", description: "the agent's name of the event" },
      payload: { type: "object", description: "the hook input's fields" },
      fail_closed: { type: "boolean" },
    },
    required: ["event", "payload"],
  },
};

export async function mcpCommand(ctx: CliContext, flags: McpFlags): Promise<number> {
  if (flags.host !== undefined && !mcpCapable(flags.host)) throw new UsageError(`--host ${flags.host}: the warm MCP path is for ${mcpHosts().join(", ")}`);
  const defaultHost = flags.host ?? null;
  const log = (line: string): void => void ctx.stderr.write(`${terminalSafe(`hooks mcp: ${line}`)}\n`);
  const watcher = watchConfig({
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    onReload: (config) => {
      warm.runner?.setConfig(config);
      log(`reloaded: ${config.hooks.length} hooks`);
    },
    onError: (error) => {
      for (const d of error.diagnostics) ctx.stderr.write(`${formatDiagnostic(d, ctx.cwd)}\n`);
      log(`${error.message}; its calls answer as \`hooks run --host\` does for a config that does not load`);
    },
  });
  const warm: Warm = { watcher, runner: null, load: (overrides) => loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env, overrides }) };
  const { signal, dispose } = untilSignal(() => void warm.runner?.close({ graceMs: 0 }));
  try {
    await watcher.ready;
    // Unlike `hooks serve`, a config that does not load at start is not fatal: each call answers
    // as `hooks run --host` would (a guard that asks to fail closed blocks), so the agent is told.
    const server = startMcpServer({
      input: ctx.stdin,
      output: ctx.stdout,
      info: { name: MCP_SERVER, version: VERSION },
      maxLineBytes: MAX_LINE_BYTES,
      log,
      tools: [HOOK_TOOL],
      call: (_name, args, callSignal) => answerCall(ctx, warm, readMcpArgs(args, defaultHost), callSignal),
    });
    log(`serving ${MCP_SERVER}/${MCP_TOOL} on stdio for ${ctx.cwd}`);
    const why = await Promise.race([server.done.then(() => "stdin closed"), signal]);
    server.close();
    log(`${why}: stopping`);
    await warm.runner?.close({ graceMs: 0 });
    await server.done;
    return EXIT.ok;
  } finally {
    dispose();
    await watcher.close();
    await warm.runner?.close({ graceMs: 0 });
  }
}

/** The server's state across calls: the watched config and its runner (made at the first call). */
interface Warm {
  watcher: ConfigWatcher;
  runner: Runner | null;
  load(overrides?: Record<string, string>): Promise<ResolvedConfig>;
}

/** One call of the tool: the event through runHostEvent, answered with the JSON the host's hook reads. */
async function answerCall(ctx: CliContext, warm: Warm, call: McpHookArgs, signal: AbortSignal): Promise<{ text: string; isError: boolean }> {
  const host = hostByName(call.host)!;
  // HOOKS_EXPLAIN=1 (the server as `hooks doctor` starts it): which hooks would run, and none runs.
  const probe = ctx.env.HOOKS_EXPLAIN === "1";
  const fresh = (config: ResolvedConfig) => createRunner(config, { env: ctx.env, cwd: ctx.cwd, trust: ctx.trust ? "all" : "checked", asyncMode: "memory" });
  // A last trusted version runs on a runner of its own, closed with the call (its async hooks with it).
  let own: Runner | null = null;
  try {
    const outcome = await runHostEvent({
      host,
      event: call.event,
      payload: call.payload,
      env: ctx.env,
      cwd: ctx.cwd,
      config: async (overrides) => {
        if (overrides) return warm.load(overrides);
        if (warm.watcher.error) throw warm.watcher.error;
        return warm.watcher.current ?? warm.load();
      },
      runner: (config) => {
        if (warm.runner && config === warm.runner.config) return warm.runner;
        if (!warm.runner && config === warm.watcher.current) return (warm.runner = fresh(config));
        own = fresh(config);
        return own;
      },
      trust: ctx.trust,
      trustCommand: (projectDir) => trustCommand(ctx, projectDir),
      failClosed: call.failClosed,
      options: { signal },
      prepareOnly: probe,
    });
    if (outcome.kind === "prepared") {
      const { explainHooks } = await import("../../prove/explain.js");
      return { text: JSON.stringify(explainHooks(outcome.config, outcome.event, outcome.context, { env: ctx.env, cwd: ctx.cwd, trust: ctx.trust, host: host.name })), isError: false };
    }
    // Cancelled (the client's notifications/cancelled, or stdin closed) before its hooks were done:
    // what ran is no answer, so the call is the tool's error, which the entries' `onFailure: "block"`
    // reads as a block (a guard is never opened by a call cut short).
    if (signal.aborted) return { text: `hookrun: the ${call.event} call was cancelled before its hooks finished`, isError: true };
    if (outcome.answer?.stderr) ctx.stderr.write(outcome.answer.stderr);
    return { text: JSON.stringify(hostHttpBody(host, outcome, "http")), isError: false };
  } finally {
    await (own as Runner | null)?.close({ graceMs: 0 });
  }
}
