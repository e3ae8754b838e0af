// Sync read: node:fs/promises alone costs a cold `hooks run` about 1 ms to load (SPEC §15).
import { closeSync, openSync } from "node:fs";
import path from "node:path";
import { isatty } from "node:tty";
import { ContextError, UsageError } from "../../errors.js";
import { describeJsonError } from "../../config/scanJson.js";
import type { HookContext } from "../../runner/types.js";
import type { CliContext } from "../context.js";
import type { RunFlags } from "../commands/run.js";
import { readFdText } from "../readFdText.js";
import { READ_LIMITS } from "../../fs/readBounded.js";

async function readAll(stream: NodeJS.ReadableStream, first: Buffer[] = []): Promise<string> {
  const chunks: Buffer[] = first;
  let total = chunks.reduce((n, c) => n + c.length, 0);
  for await (const chunk of stream) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += buf.length;
    if (total > READ_LIMITS.context) throw new ContextError(`the context on stdin is over the ${READ_LIMITS.context}-byte limit; pass a smaller context`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// The process's own stdin is read from its descriptor (no stream to set up: cold start, SPEC §15);
// a stream handed in by an embedding caller, or a non-blocking descriptor, is read as a stream.
async function readStdin(ctx: CliContext): Promise<string> {
  if (ctx.stdinFd === undefined) return readAll(ctx.stdin);
  const got = readFdText(ctx.stdinFd, READ_LIMITS.context, "stdin");
  return got.text ?? readAll(ctx.stdin, [got.partial]);
}

/** Parse a context document: empty is {}, anything but a JSON object is a ContextError (exit 65). */
export function parseContextText(text: string, where: string): HookContext {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ContextError(`the context from ${where} is not valid JSON (${describeJsonError(text, error)}); pass one JSON object`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ContextError(`the context from ${where} is ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}, not a JSON object; pass one JSON object`);
  }
  return value as HookContext;
}

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

// --set a.b.c=VALUE: walk (creating objects) and set the leaf.
function setDotted(target: Record<string, unknown>, assignment: string): void {
  const eq = assignment.indexOf("=");
  if (eq <= 0) throw new UsageError(`--set ${assignment}: expected KEY=VALUE, e.g. --set tool_name=Bash`);
  const keys = assignment.slice(0, eq).split(".");
  // These would reach Object.prototype (or a constructor) instead of a context field.
  const bad = keys.find((k) => UNSAFE_KEYS.has(k) || k === "");
  if (bad !== undefined) throw new UsageError(`--set ${assignment.slice(0, eq)}: ${bad === "" ? "an empty key segment" : `"${bad}"`} cannot be a context key; name a plain field, e.g. --set tool_input.command=ls`);
  const raw = assignment.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: keep the string
  }
  let obj = target;
  for (const key of keys.slice(0, -1)) {
    const next = obj[key];
    if (!Object.hasOwn(obj, key) || typeof next !== "object" || next === null || Array.isArray(next)) obj[key] = {};
    obj = obj[key] as Record<string, unknown>;
  }
  obj[keys[keys.length - 1]] = value;
}

/** The context of `hooks run` (SPEC §8): --context or stdin, then the override flags. */
export async function readRunContext(ctx: CliContext, flags: RunFlags): Promise<HookContext> {
  let context: HookContext = {};
  if (flags.context !== undefined && flags.context !== "-") {
    const file = path.resolve(ctx.cwd, flags.context);
    // Opened blocking, and pipes allowed: `--context <(jq …)` names one. Bounded all the same.
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (error) {
      throw new ContextError(`cannot read the context file ${file} (${(error as NodeJS.ErrnoException).code ?? error}); check the --context path`, { cause: error });
    }
    try {
      const got = readFdText(fd, READ_LIMITS.context, `the context file ${file}`);
      context = parseContextText(got.text ?? got.partial.toString("utf8"), file);
    } finally {
      closeSync(fd);
    }
  } else if (flags.context === "-" || !(ctx.stdinFd !== undefined ? isatty(ctx.stdinFd) : ctx.stdin.isTTY)) {
    context = parseContextText(await readStdin(ctx), "stdin");
  }
  if (flags.sessionId !== undefined) context.session_id = flags.sessionId;
  if (flags.turnCount !== undefined) {
    const n = Number(flags.turnCount);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--turn-count ${flags.turnCount}: expected a whole number ≥ 0`);
    context.turn_count = n;
  }
  if (flags.lastMessage !== undefined) context.last_assistant_message = flags.lastMessage;
  for (const assignment of flags.set ?? []) setDotted(context, assignment);
  if (context.session_id === undefined || context.session_id === "") context.session_id = ctx.env.HOOKS_SESSION_ID || "default";
  return context;
}
