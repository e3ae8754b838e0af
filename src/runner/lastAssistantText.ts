/** A history entry: gptme/OpenAI/Anthropic message shapes, or a Claude Code transcript line. */
export interface HistoryEntry {
  role?: string;
  type?: string;
  content?: unknown;
  message?: { role?: string; content?: unknown };
  [field: string]: unknown;
}

// The text of one assistant turn: a string, or the text blocks of a content list joined.
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content.trim() === "" ? null : content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string") parts.push(text);
    }
  }
  const joined = parts.join("\n");
  return joined.trim() === "" ? null : joined;
}

/**
 * `last_assistant_message` the agent-code way (SPEC §4): walk the history backwards, skip
 * assistant turns that are only tool calls, join the text blocks of the latest one with text.
 */
export function lastAssistantText(history: readonly HistoryEntry[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i];
    if (!entry || typeof entry !== "object") continue;
    const msg = entry.message && typeof entry.message === "object" ? entry.message : entry;
    const role = msg.role ?? entry.type;
    if (role !== "assistant") continue;
    const text = textOf(msg.content);
    if (text !== null) return text;
  }
  return null;
}
