import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { lastAssistantText, type HistoryEntry } from "../runner/lastAssistantText.js";

const TAIL_BYTES = 1024 * 1024;

/**
 * `last_assistant_message` from a Claude Code transcript (JSON Lines, one entry per line), for
 * contexts that carry `transcript_path` but not the message. Reads only the last MiB, so a long
 * session costs no more than a short one; null when the file is unreadable or has no text.
 */
export function lastMessageFromTranscript(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const lines = buf.toString("utf8").split("\n");
    if (size > length) lines.shift(); // the first line is cut
    const entries: HistoryEntry[] = [];
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as unknown;
        if (entry && typeof entry === "object") entries.push(entry as HistoryEntry);
      } catch {
        // A line being written, or not JSON: not an assistant turn.
      }
    }
    return lastAssistantText(entries);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Claude Code passes its transcript, not the last message (SPEC §13): when a context has
 * `transcript_path` and no `last_assistant_message`, set it from the transcript's tail, the
 * agent-code way. A relative path is taken from the context's `cwd`, else from `fallbackDir`.
 * Both `hooks run` and the server call this.
 */
export function deriveLastMessage(context: Record<string, unknown>, fallbackDir: string): void {
  if (context.last_assistant_message !== undefined || typeof context.transcript_path !== "string") return;
  const base = typeof context.cwd === "string" && context.cwd ? path.resolve(fallbackDir, context.cwd) : fallbackDir;
  context.last_assistant_message = lastMessageFromTranscript(path.resolve(base, context.transcript_path));
}
