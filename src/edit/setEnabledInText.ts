import { WriteError } from "../errors.js";
import { configFormat } from "./configFormat.js";
import { findHookNode } from "./findHookNode.js";
import { detectEol, lineStart, nextLineStart } from "./lineTools.js";
import { parseDocumentForEdit } from "./parseDocumentForEdit.js";

/**
 * Set `enabled` on hook `name` by splicing the text: an existing value is replaced in place;
 * otherwise one `enabled` entry is inserted right after the hook's `name` (a new line with the
 * sibling keys' indentation in block style, `, enabled: false` inside braces in flow style).
 * Every other byte (comments, quoting, CRLF, BOM, final newline or not) is kept.
 */
export function setEnabledInText(text: string, name: string, enabled: boolean, file: string): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? text.slice(1) : text;
  const doc = parseDocumentForEdit(body, file);
  const node = findHookNode(doc, name, file);
  if (!node) throw new WriteError(`no hook named "${name}" in ${file}`, file);
  const value = String(enabled);
  const json = configFormat(file) === "json";
  const splice = (at: number, end: number, insert: string) => bom + body.slice(0, at) + insert + body.slice(end);

  if (node.enabledPair) {
    const range = node.enabledPair.value?.range;
    if (!range) throw new WriteError(`cannot edit hook "${name}" in ${file}: its \`enabled\` key has no value; set it by hand`, file);
    if (body.slice(range[0], range[1]) === value) return text;
    return splice(range[0], range[1], value);
  }
  // No key of its own: a merge key (`<<: *base`) may still decide it; default true.
  const merged = (node.map.toJS(doc) as { enabled?: unknown }).enabled;
  if ((merged ?? true) === enabled) return text;

  const keyRange = node.namePair.key.range!;
  const valueEnd = node.namePair.value!.range![1];
  const keyText = json ? '"enabled"' : "enabled";
  if (node.map.flow) {
    // Copy the name's own separator (": " or ":") and the spacing after its comma, if any.
    const sep = body.slice(keyRange[1], node.namePair.value!.range![0]) || ": ";
    const entry = `${keyText}${sep}${value}`;
    const after = /^[ \t]*,([ \t]*)/.exec(body.slice(valueEnd));
    const multiline = body.slice(node.map.range![0], keyRange[0]).includes("\n");
    if (!multiline) {
      // Spacing after commas: as after the name's own comma, else as before its key.
      const before = /,([ \t]*)$/.exec(body.slice(node.map.range![0], keyRange[0]));
      return splice(valueEnd, valueEnd, `,${after ? after[1] : before ? before[1] : " "}${entry}`);
    }
    // One key per line: add a line of its own, so only one line of the file changes.
    const indent = /^[ \t]*/.exec(body.slice(lineStart(body, keyRange[0])))![0];
    const eol = detectEol(body);
    if (after) {
      const at = valueEnd + after[0].length;
      return splice(at, at, `${eol}${indent}${entry},`);
    }
    return splice(keyRange[0], keyRange[0], `${entry},${eol}${indent}`);
  }
  const indent = " ".repeat(keyRange[0] - lineStart(body, keyRange[0]));
  const at = nextLineStart(body, valueEnd);
  const eol = detectEol(body);
  const line = `${indent}${keyText}: ${value}`;
  // The name line may be the last line of a file without a final newline: keep it that way,
  // by inserting above it when `name:` starts its line, else by adding the line ending.
  if (at === body.length && !body.endsWith("\n")) {
    const start = lineStart(body, keyRange[0]);
    if (/^[ \t]*$/.test(body.slice(start, keyRange[0]))) return splice(start, start, line + eol);
    return splice(at, at, eol + line);
  }
  return splice(at, at, line + eol);
}
