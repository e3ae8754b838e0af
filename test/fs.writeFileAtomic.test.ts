import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomic, writeJsonAtomic, writePrivateFileAtomic } from "../src/fs/writeFileAtomic.js";
import { removeTree } from "./helpers/removeTree.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => removeTree(d)));
const tmp = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), "hookrun-atomic-"));
  dirs.push(d);
  return d;
};
const mode = (f: string): number => statSync(f).mode & 0o777;

describe("fs/writeFileAtomic: the one atomic writer", () => {
  it("keeps the mode of the file it replaces (a user's config stays as they set it)", () => {
    const f = path.join(tmp(), "hooks.yaml");
    writeFileSync(f, "old");
    chmodSync(f, 0o640);
    writeFileAtomic(f, "new");
    expect([readFileSync(f, "utf8"), mode(f)]).toEqual(["new", 0o640]);
  });

  it("writePrivateFileAtomic: 0600 in a 0700 directory even over a world-readable file (the server token)", () => {
    const f = path.join(tmp(), "state", "server.token");
    writePrivateFileAtomic(f, "t1\n");
    chmodSync(f, 0o644);
    writePrivateFileAtomic(f, "t2\n");
    expect([readFileSync(f, "utf8"), mode(f), mode(path.dirname(f))]).toEqual(["t2\n", 0o600, 0o700]);
  });

  it("writeJsonAtomic: one JSON line, 0600 when new", () => {
    const f = path.join(tmp(), "a", "b.json");
    writeJsonAtomic(f, { x: 1 });
    expect([readFileSync(f, "utf8"), mode(f)]).toEqual(['{"x":1}\n', 0o600]);
  });
});
