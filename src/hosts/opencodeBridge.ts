import { isJsonObject } from "../config/scanJson.js";
import { createInProcessHost, type InProcessHost } from "./inProcess.js";
import { type OpencodeAnswer, opencode } from "./opencode.js";
import type { HostAnswer, Payload } from "./types.js";

/**
 * opencode's side of hookrun, in opencode's own process: the callbacks the plugin that `hooks
 * install opencode` writes hands to opencode (docs/hosts/opencode.md). Each callback builds the
 * opencode adapter's payload (src/hosts/opencode.ts), runs the event through the one path to its
 * answer, and applies the answer: a throw blocks, arguments are replaced in place, text is added
 * to a tool's output, context waits for the session's next request to the model.
 */

/** What opencode hands a plugin (the part the bridge uses). */
export interface OpencodePluginInput {
  directory: string;
  client?: unknown;
}

/** Context for the model of one session, by where it came from. */
interface SessionContext {
  /** The session_start hooks' run (awaited by the first request). */
  started: Promise<void> | null;
  start: string[];
  /** The latest prompt's user_prompt_submit context. */
  prompt: string[];
  /** Context said by tool hooks since that prompt. */
  turn: string[];
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** One opencode instance's bridge: the dispatcher, and what each session has been told. */
class Bridge {
  private readonly dispatcher: InProcessHost;
  private readonly sessions = new Map<string, SessionContext>();
  /** Sessions opencode made for a subagent (the task tool): their start and stop are not the user's session's. */
  readonly children = new Set<string>();

  constructor(
    private readonly input: OpencodePluginInput,
    env?: NodeJS.ProcessEnv,
  ) {
    this.dispatcher = createInProcessHost({ host: opencode, cwd: input.directory, env });
  }

  /** Lines for the user in opencode's log (service `hookrun`); best effort. */
  log(lines: string[]): void {
    const client = this.input.client as { app?: { log?: (o: unknown) => Promise<unknown> } } | undefined;
    for (const message of lines) {
      try {
        client?.app?.log?.({ body: { service: "hookrun", level: "warn", message } })?.catch?.(() => {});
      } catch {
        // the log is best effort
      }
    }
  }

  session(id: string): SessionContext {
    let s = this.sessions.get(id);
    if (!s) {
      s = { started: null, start: [], prompt: [], turn: [] };
      this.sessions.set(id, s);
    }
    return s;
  }

  /** One event through hookrun: its answer parsed, hookrun's diagnostics and notices logged. */
  async fire(event: string, payload: Payload): Promise<OpencodeAnswer> {
    const answer: HostAnswer = await this.dispatcher.dispatch(event, { hook_event_name: event, cwd: this.input.directory, ...payload });
    let out: OpencodeAnswer = {};
    try {
      const parsed: unknown = JSON.parse(answer.stdout || "{}");
      if (isJsonObject(parsed)) out = parsed as OpencodeAnswer;
    } catch {
      out = {};
    }
    const lines = [...(out.log ?? []), ...answer.stderr.split("\n").filter((l) => l.trim() !== "")];
    if (lines.length) this.log(lines);
    return out;
  }

  /** The session's session_start run, started once (by the bus event or the first request, whichever comes first). */
  start(id: string): Promise<void> {
    const s = this.session(id);
    s.started ??= this.fire("session.created", { session_id: id, source: "startup" }).then(
      (a) => {
        s.start = a.context ?? [];
      },
      (error: unknown) => this.log([`hookrun: session_start failed: ${String(error)}`]),
    );
    return s.started;
  }

  /** A bus event (opencode does not wait for it): a session's start, or its going idle (stop). */
  async onEvent(event: { type?: string; properties?: Record<string, unknown> } | undefined): Promise<void> {
    const props = event?.properties ?? {};
    if (event?.type === "session.created") {
      const info = isJsonObject(props.info) ? props.info : {};
      const id = str(info.id) ?? str(props.sessionID);
      if (id === undefined) return;
      if (str(info.parentID)) this.children.add(id);
      else await this.start(id);
    } else if (event?.type === "session.idle") {
      const id = str(props.sessionID);
      if (id === undefined || this.children.has(id)) return;
      await this.fire("session.idle", { session_id: id, stop_hook_active: false });
    }
  }

  /** The user's message: its text to user_prompt_submit; a block refuses it (a throw). */
  async onMessage(id: string, parts: unknown[]): Promise<void> {
    if (!this.children.has(id)) await this.start(id);
    const prompt = parts
      .filter((p): p is Record<string, unknown> => isJsonObject(p) && p.type === "text" && p.synthetic !== true && typeof p.text === "string")
      .map((p) => p.text as string)
      .join("\n");
    const a = await this.fire("chat.message", { session_id: id, prompt });
    if (a.block !== undefined) throw new Error(a.block);
    const s = this.session(id);
    s.prompt = a.context ?? [];
    s.turn = [];
  }

  /** Before a tool: a block throws (the tool does not run, the model reads why); a rewrite replaces the arguments in place. */
  async beforeTool(i: { tool?: string; sessionID?: string; callID?: string }, o: { args?: Record<string, unknown> }): Promise<void> {
    const id = str(i?.sessionID) ?? "";
    const a = await this.fire("tool.execute.before", { session_id: id, tool: i?.tool, call_id: i?.callID, args: o?.args ?? {} });
    if (a.block !== undefined) throw new Error(a.block);
    if (a.args && isJsonObject(o?.args)) {
      for (const k of Object.keys(o.args)) delete o.args[k];
      Object.assign(o.args, a.args);
    }
    if (a.context?.length) this.session(id).turn.push(...a.context);
  }

  /** After a tool: what the hooks said is appended to the output the model reads. */
  async afterTool(i: { tool?: string; sessionID?: string; callID?: string; args?: unknown }, o: { output?: unknown; title?: unknown }): Promise<void> {
    const id = str(i?.sessionID) ?? "";
    const a = await this.fire("tool.execute.after", { session_id: id, tool: i?.tool, call_id: i?.callID, args: i?.args ?? {}, output: o?.output, title: o?.title });
    if (a.append !== undefined && o) o.output = typeof o.output === "string" && o.output !== "" ? `${o.output}\n\n${a.append}` : a.append;
    if (a.context?.length) this.session(id).turn.push(...a.context);
  }

  /** Every request to the model: the session's context as one more system text (after session_start's run). */
  async system(id: string | undefined, system: unknown): Promise<void> {
    if (id === undefined || !Array.isArray(system)) return;
    if (!this.children.has(id)) await this.start(id);
    const s = this.session(id);
    const all = [...s.start, ...s.prompt, ...s.turn];
    if (all.length) system.push(all.join("\n\n"));
  }
}

/**
 * The callbacks of hookrun's opencode plugin for a project at `input.directory`, its hooks run
 * with `env` (default: opencode's own). Loading does no work (the config is read on the first
 * event): a plugin that throws at load is skipped by opencode.
 */
export function opencodeHooks(input: OpencodePluginInput, env?: NodeJS.ProcessEnv): Record<string, unknown> {
  const b = new Bridge(input, env);
  return {
    event: async ({ event }: { event?: { type?: string; properties?: Record<string, unknown> } }) => {
      try {
        await b.onEvent(event);
      } catch (error) {
        b.log([`hookrun: ${String(error)}`]);
      }
    },
    "chat.message": async (i: { sessionID?: string }, o: { parts?: unknown[] }) => b.onMessage(str(i?.sessionID) ?? "", Array.isArray(o?.parts) ? o.parts : []),
    "tool.execute.before": async (i: { tool?: string; sessionID?: string; callID?: string }, o: { args?: Record<string, unknown> }) => b.beforeTool(i, o),
    "tool.execute.after": async (i: { tool?: string; sessionID?: string; callID?: string; args?: unknown }, o: { output?: unknown; title?: unknown }) => b.afterTool(i, o),
    "experimental.chat.system.transform": async (i: { sessionID?: string }, o: { system?: string[] }) => b.system(str(i?.sessionID), o?.system),
  };
}
