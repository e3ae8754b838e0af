import path from "node:path";
import { FileReadError, READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import { lastAssistantText, type HistoryEntry } from "../runner/context.js";

/**
 * The window read first from the end of a transcript: the last assistant message is nearly always
 * in it, so a long session costs no more than a short one. Only when it holds no assistant text
 * (a very long message, or a long run of tool calls) is the tail widened to READ_LIMITS.transcript.
 */
const FIRST_WINDOW = 1024 * 1024;

/** The latest assistant text in a window of JSON Lines, parsing from the end until one is found. */
function lastInWindow(buf: Buffer, cut: boolean): string | null {
  let end = buf.length;
  // A window that starts inside the file starts inside a line: that first, partial line is not
  // an entry (and the line of the byte before the window is not in the window at all).
  const first = cut ? buf.indexOf(0x0a) + 1 : 0;
  if (cut && first === 0) return null;
  while (end > first) {
    const nl = buf.lastIndexOf(0x0a, end - 1);
    const start = nl < first ? first : nl + 1;
    const line = buf.toString("utf8", start, end);
    end = start - 1;
    if (!line.trim()) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // A line being written, or not JSON: not an assistant turn.
    }
    if (entry && typeof entry === "object") {
      const text = lastAssistantText([entry as HistoryEntry]);
      if (text !== null) return text;
    }
  }
  return null;
}

/**
 * `last_assistant_message` from a Claude Code transcript (JSON Lines, one entry per line), for
 * contexts that carry `transcript_path` but not the message: null when it has no assistant text.
 * Only a regular file is read, never more than READ_LIMITS.transcript from its end and never
 * blocking (a FIFO or a device is refused): throws FileReadError when the file cannot be read.
 */
export function lastMessageFromTranscript(file: string): string | null {
  for (const window of [FIRST_WINDOW, READ_LIMITS.transcript]) {
    const buf = readBoundedFile(file, window, { what: "transcript", tail: true });
    // A full window may have been cut from a longer file; a shorter one is the whole file.
    const cut = buf.length >= window;
    const text = lastInWindow(buf, cut);
    if (text !== null || !cut) return text;
  }
  return null;
}

/**
 * Claude Code passes its transcript, not the last message (docs/running-hooks.md#last_assistant_message-from-a-transcript): when a context has
 * `transcript_path` and no `last_assistant_message`, set it from the transcript's tail, the
 * agent-code way. A relative path is taken from the context's `cwd`, else from `fallbackDir`.
 * Both `hooks run` and the server call this. A transcript that cannot be read leaves the message
 * null and never fails the run: the returned warning (else null) belongs in the result's
 * top-level `warnings` (docs/running-hooks.md#the-result).
 */
export function deriveLastMessage(context: Record<string, unknown>, fallbackDir: string): string | null {
  if (context.last_assistant_message !== undefined || typeof context.transcript_path !== "string") return null;
  const base = typeof context.cwd === "string" && context.cwd ? path.resolve(fallbackDir, context.cwd) : fallbackDir;
  context.last_assistant_message = null;
  try {
    context.last_assistant_message = lastMessageFromTranscript(path.resolve(base, context.transcript_path));
    return null;
  } catch (error) {
    const why = error instanceof FileReadError ? error.message : `cannot read transcript: ${(error as Error).message}`;
    return `last_assistant_message not derived from transcript_path: ${why}`;
  }
}
