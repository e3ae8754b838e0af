import type { ConfigPath, Position } from "./parseConfigText.js";

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
