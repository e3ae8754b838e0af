import { loadConfig } from "../../config/loadConfig.js";
import path from "node:path";
import { displayFile, formatDiagnostic } from "../../errors.js";
import type { ResolvedConfig } from "../../config/types.js";
import { UsageError, type ConfigError } from "../../errors.js";
import { validationJson } from "../../report/json.js";
import { createRunner } from "../../runner/createRunner.js";
import type { Runner } from "../../runner/types.js";
import { startServer } from "../../server/startServer.js";
import { ensureStateDir, stateDir } from "../../fs/stateDir.js";
import { watchConfig } from "../../watch/watchConfig.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { untilSignal } from "../signals.js";
import { terminalSafe } from "../../text.js";
import { TOKEN_VAR } from "../../hosts/warm.js";
import { trustCommand } from "../../hosts/notRunWords.js";

// The long-running commands: `hooks serve` and `hooks watch`, both over a watched config.

export interface ServeFlags {
  socket?: string;
  port?: string;
}

/** Async hooks still running at shutdown get this long to finish before they are killed (docs/server.md#signals-and-shutdown). */
const ASYNC_GRACE_MS = 5000;

/**
 * The bearer token of `hooks serve --port` from $HOOKS_SERVE_TOKEN (warm mode: the agent's http
 * hooks send the same variable), or undefined for a fresh random one. A short or odd token is refused.
 */
function tokenFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const token = env[TOKEN_VAR];
  if (token === undefined || token === "") return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(token)) throw new UsageError(`$${TOKEN_VAR} must be at least 16 printable characters without spaces (e.g. $(openssl rand -hex 32))`);
  return token;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port ${value}: expected a port number from 0 to 65535`);
  return port;
}

/**
 * `hooks serve`: one runner for the life of the process, hot-reloaded, until a terminating signal
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2): then a clean shutdown and exit 0. SIGHUP does not
 * mean "reload" here: the config is watched, and a server whose terminal closed should stop.
 */
export async function serve(ctx: CliContext, flags: ServeFlags): Promise<number> {
  if (flags.socket !== undefined && flags.port !== undefined) throw new UsageError("--socket and --port exclude each other; choose one");
  const port = flags.port === undefined ? undefined : parsePort(flags.port);
  const token = port === undefined ? undefined : tokenFromEnv(ctx.env);
  const state = stateDir(ctx.env);
  // Paths, messages and diagnostics quote what configs hold: the log is terminal-safe.
  const logSafe = (line: string): void => void ctx.stderr.write(`hooks serve: ${line}\n`);
  const log = (line: string): void => logSafe(terminalSafe(line));
  let socketPath: string | undefined;
  if (port === undefined) socketPath = flags.socket !== undefined ? path.resolve(ctx.cwd, flags.socket) : path.join(state, "serve.sock");
  // The default socket and the token file live in the state dir: private (0700) or refused.
  if (flags.socket === undefined) ensureStateDir(state);

  let runner: Runner | null = null;
  const watcher = watchConfig({
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    onReload: (config) => {
      runner?.setConfig(config);
      log(`reloaded: ${config.hooks.length} hooks from ${config.files.map((f) => f.path).join(", ") || "no file"}`);
    },
    onError: (error) => {
      if (!runner) return; // the start-up failure is thrown below
      for (const d of error.diagnostics) logSafe(formatDiagnostic(d, ctx.cwd)); // escapes its own
      log(`${error.message}; keeping the last good config (${runner.config.hooks.length} hooks)`);
    },
  });
  const { signal, dispose } = untilSignal((again) => {
    log(`${again} again: killing running hooks now`);
    void runner?.close({ graceMs: 0 });
  });
  try {
    await watcher.ready;
    // A server that cannot load its config at start has nothing good to fall back on.
    if (!watcher.current) throw watcher.error;
    // Async hooks live in this process ("memory") and are delivered per session on later triggers.
    runner = createRunner(watcher.current, { env: ctx.env, cwd: ctx.cwd, trust: ctx.trust ? "all" : "checked", asyncMode: "memory" });
    const server = await startServer({
      runner,
      watcher,
      socketPath,
      port,
      cwd: ctx.cwd,
      env: ctx.env,
      trust: ctx.trust,
      trustCommand: (projectDir) => trustCommand(ctx, projectDir),
      lastTrusted: {
        load: (overrides) => loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env, overrides }),
        runner: (config) => createRunner(config, { env: ctx.env, cwd: ctx.cwd, trust: ctx.trust ? "all" : "checked", asyncMode: "memory" }),
      },
      tokenFile: path.join(state, "serve.token"),
      token,
      onError: (error) => log(`server error: ${error.message}`),
    });
    const config = runner.config;
    log(
      `listening on ${server.url} (${config.hooks.length} hooks from ${config.files.map((f) => f.path).join(", ") || "no config file"})${port !== undefined ? `; bearer token${token ? ` from $${TOKEN_VAR}, copied` : ""} in ${path.join(state, "serve.token")}` : ""}`,
    );
    const received = await signal;
    log(`${received}: finishing in-flight triggers, then stopping`);
    await server.close(ASYNC_GRACE_MS);
    log("stopped");
    return EXIT.ok;
  } finally {
    dispose();
    await watcher.close();
    await runner?.close({ graceMs: 0 }); // after server.close() gave async hooks their grace
  }
}

/** `hooks watch`: validate now and after every change of any layer, until a terminating signal (exit 0). */
export async function watchCommand(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  const report = (config: ResolvedConfig | null, error: ConfigError | null): void => {
    const diagnostics = error ? error.diagnostics : (config?.warnings ?? []);
    // One line per check, in the shape of `hooks validate --json`.
    if (opts.json) return void ctx.stdout.write(`${JSON.stringify(validationJson(config, error, ctx.cwd))}\n`);
    const lines = diagnostics.map((d) => formatDiagnostic(d, ctx.cwd));
    if (error) lines.push(terminalSafe(`invalid: ${error.message}`));
    else if (config && config.files.length === 0) lines.push("valid: no config file found yet (waiting for one)");
    else if (config) lines.push(terminalSafe(`valid: ${config.hooks.length} hook${config.hooks.length === 1 ? "" : "s"} in ${config.files.map((f) => displayFile(f.path, ctx.cwd)).join(", ")}`));
    ctx.stdout.write(`${lines.join("\n")}\n`);
  };
  const { signal, dispose } = untilSignal();
  const watcher = watchConfig({
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    onReload: (config) => report(config, null),
    onError: (error) => report(null, error),
  });
  try {
    await watcher.ready;
    if (watcher.current && !watcher.error) report(watcher.current, null);
    if (!opts.json) ctx.stderr.write("hooks watch: watching for changes; Ctrl-C to stop\n");
    await signal;
    return EXIT.ok;
  } finally {
    dispose();
    await watcher.close();
  }
}
