import type { Diagnostic } from "../errors.js";

/** A segment path into a config file: map keys and list indexes. */
export type ConfigPath = readonly (string | number)[];

export interface Position {
  line: number;
  col: number;
}

/** A config file's data plus a way back from any path in it to LINE:COL. */
export interface ParsedConfigText {
  file: string;
  /** The data, or undefined when the file could not be read as a map. */
  value: unknown;
  /** Syntax problems (empty file, tab indentation, duplicate keys, trailing comma, …). */
  diagnostics: Diagnostic[];
  /** LINE:COL of the key (`"key"`) or the value at `path`; the nearest enclosing node when absent. */
  locate(path: ConfigPath, target?: "key" | "value"): Position;
}

/** Where each value of a parsed file sits: the fast parsers' answer to yaml's node ranges. */
export interface SourceNode {
  line: number;
  col: number;
  /** Map entries: key position and value node. */
  entries?: Map<string, { line: number; col: number; node: SourceNode | null }>;
  items?: SourceNode[];
}

/** LINE:COL of the key or value at `path`; the nearest enclosing node when absent. */
export function locateInTree(root: SourceNode, path: ConfigPath, target: "key" | "value" = "value"): Position {
  let node: SourceNode = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (typeof seg === "number" && node.items) {
      const next = node.items[seg];
      if (!next) break;
      node = next;
      continue;
    }
    const entry = node.entries?.get(String(seg));
    if (!entry) break;
    if ((i === path.length - 1 && target === "key") || !entry.node) return { line: entry.line, col: entry.col };
    node = entry.node;
  }
  return { line: node.line, col: node.col };
}
