import { lstatSync } from "node:fs";
import path from "node:path";

/** Where `hooks import claude` looks without a FILE: `.claude/settings.json` here, then in each parent. */
export function claudeSettingsCandidates(cwd: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    out.push(path.join(dir, ".claude", "settings.json"));
    if (path.dirname(dir) === dir) return out;
  }
}

/** The project's Claude Code settings file, or null (with the candidates tried). */
export function findClaudeSettings(cwd: string): { file: string | null; tried: string[] } {
  const tried = claudeSettingsCandidates(cwd);
  // lstat: a dangling settings symlink is found (and its read fails, saying so), not skipped for a parent's.
  return { file: tried.find((f) => lstatSync(f, { throwIfNoEntry: false }) !== undefined) ?? null, tried };
}
