import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The repository's root, against which every file named here is resolved. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes; repeats get -1, -2. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(markdown).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "");
/** The text without fenced code blocks and inline code, where a `[x](y)` is not a link. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, "``");

/**
 * Why a link to `target` (a path from the repository's root, optionally `#anchor`) goes nowhere:
 * no such file, or no such heading in that Markdown file; null when it resolves.
 */
export function brokenTarget(resolved: string, anchor: string | undefined, link: string, samePage?: string): string | null {
  if (samePage === undefined && !existsSync(resolved)) return `${link}: no such file`;
  const page = samePage ?? (statSync(resolved).isFile() && resolved.endsWith(".md") ? readFileSync(resolved, "utf8") : undefined);
  if (anchor !== undefined && page !== undefined && !anchors(page).has(anchor)) return `${link}: no heading #${anchor}`;
  return null;
}

/** Relative links of `text` (as if it were the file `file`) that name no file, or no heading of a .md file. */
export function brokenLinks(file: string, text: string): { links: string[]; broken: string[] } {
  const links = [...withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  const broken: string[] = [];
  for (const link of links) {
    if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
    const [target, anchor] = link.split("#") as [string, string | undefined];
    const resolved = path.resolve(path.dirname(path.join(ROOT, file)), target);
    const problem = brokenTarget(resolved, anchor, link, target === "" ? text : undefined);
    if (problem) broken.push(problem);
  }
  return { links, broken };
}
