import path from "node:path";
import picomatch from "picomatch";

const cache = new Map<string, (p: string) => boolean>();

/**
 * Whether the context's `path` matches one of the globs, relative to the project dir (a relative
 * `path` is first resolved against the context's cwd). No `path` never matches.
 */
export function matchesPaths(globs: string[], filePath: unknown, cwd: string, projectDir: string): boolean {
  if (typeof filePath !== "string" || filePath === "") return false;
  const rel = path.relative(projectDir, path.resolve(cwd, filePath)).split(path.sep).join("/");
  const key = globs.join("\0");
  let test = cache.get(key);
  if (!test) {
    test = picomatch(globs, { dot: true });
    cache.set(key, test);
  }
  return test(rel);
}
