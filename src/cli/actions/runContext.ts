// Sync read: node:fs/promises alone costs a cold `hooks run` about 1 ms to load (docs/performance.md).
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { isatty } from "node:tty";
import { ContextError, UsageError } from "../../errors.js";
import type { HookContext } from "../../runner/types.js";
import { parseContext } from "../../runner/context.js";
import type { CliContext } from "../context.js";
import { READ_LIMITS } from "../../fs/readBounded.js";

/** The options of `hooks run` that make its context (docs/cli.md#hooks-run-event). */
export interface ContextFlags {
  context?: string;
  sessionId?: string;
  turnCount?: string;
  lastMessage?: string;
  set?: string[];
}

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

// The process's own stdin is read from its descriptor (no stream to set up: cold start, docs/performance.md);
// a stream handed in by an embedding caller, or a non-blocking descriptor, is read as a stream.
async function readStdin(ctx: CliContext): Promise<string> {
  if (ctx.stdinFd === undefined) return readAll(ctx.stdin);
  const got = readFdText(ctx.stdinFd, READ_LIMITS.context, "stdin");
  return got.text ?? readAll(ctx.stdin, [got.partial]);
}

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

// --set a.b.c=VALUE: walk (creating objects) and set the leaf.
function setDotted(target: Record<string, unknown>, assignment: string): void {
  const eq = assignment.indexOf("=");
  if (eq <= 0) throw new UsageError(`--set ${assignment}: expected KEY=VALUE, e.g. --set tool_name=Bash`);
  const keys = assignment.slice(0, eq).split(".");
  // These would reach Object.prototype (or a constructor) instead of a context field.
  const bad = keys.find((k) => UNSAFE_KEYS.has(k) || k === "");
  if (bad !== undefined)
    throw new UsageError(`--set ${assignment.slice(0, eq)}: ${bad === "" ? "an empty key segment" : `"${bad}"`} cannot be a context key; name a plain field, e.g. --set tool_input.command=ls`);
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

/** The context of `hooks run` (docs/cli.md#hooks-run-event): --context or stdin, then the override flags. */
export async function readRunContext(ctx: CliContext, flags: ContextFlags): Promise<HookContext> {
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
      context = parseContext(got.text ?? got.partial.toString("utf8"), `from ${file}`);
    } finally {
      closeSync(fd);
    }
  } else if (flags.context === "-" || !(ctx.stdinFd !== undefined ? isatty(ctx.stdinFd) : ctx.stdin.isTTY)) {
    context = parseContext(await readStdin(ctx), "from stdin");
  }
  if (flags.sessionId !== undefined) context.session_id = flags.sessionId;
  if (flags.turnCount !== undefined) {
    const n = Number(flags.turnCount);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--turn-count ${flags.turnCount}: expected a whole number ≥ 0`);
    context.turn_count = n;
  }
  if (flags.lastMessage !== undefined) context.last_assistant_message = flags.lastMessage;
  for (const assignment of flags.set ?? []) setDotted(context, assignment);
  return context;
}

/**
 * Read a file descriptor to its end, synchronously, never more than `maxBytes`. `hooks run` reads
 * its context from fd 0 this way because a stdin stream costs a cold start milliseconds
 * (docs/performance.md). Returns null, having consumed nothing, when the descriptor is
 * non-blocking and empty for now (EAGAIN): the caller then reads the stream instead; bytes read
 * before an EAGAIN come back in `partial`. A directory on stdin is refused at once (`hooks run < .` must not be an internal error).
 */
export function readFdText(fd: number, maxBytes: number, what = "stdin"): { text: string } | { text: null; partial: Buffer } {
  let isDirectory = false;
  try {
    isDirectory = fstatSync(fd).isDirectory();
  } catch {
    // a closed or odd descriptor: the read below says what it is
  }
  if (isDirectory) throw new ContextError(`${what} is a directory, not a context; pass one JSON object (hooks run EVENT < context.json)`);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(65536);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") return { text: null, partial: Buffer.concat(chunks) };
      if (code === "EOF" || code === "EBADF") break;
      if (code === "EISDIR") throw new ContextError(`${what} is a directory, not a context; pass one JSON object (hooks run EVENT < context.json)`);
      throw error;
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw new ContextError(`the context in ${what} is over the ${maxBytes}-byte limit; pass a smaller context`);
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
