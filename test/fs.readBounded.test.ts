import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileReadError, readBoundedFile, readBoundedText } from "../src/fs/readBounded.js";
import { sandbox } from "./helpers/sandbox.js";

function dir(): string {
  const t = sandbox();
  return t.dir;
}
function reason(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(FileReadError);
    return (error as FileReadError).reason;
  }
  throw new Error("expected a FileReadError");
}

describe("readBoundedFile reads regular files only, never more than its cap, never blocking", () => {
  it("reads a regular file whole and drops a UTF-8 BOM from text", () => {
    const f = path.join(dir(), "a.json");
    writeFileSync(f, '\uFEFF{"a":1}');
    expect(readBoundedText(f, 1024)).toBe('{"a":1}');
    expect(readBoundedFile(f, 1024).length).toBe(10);
  });

  it("refuses a file over the cap, or returns its tail when asked", () => {
    const f = path.join(dir(), "big");
    writeFileSync(f, "0123456789");
    expect(reason(() => readBoundedFile(f, 4))).toBe("too-large");
    expect(readBoundedText(f, 4, { tail: true })).toBe("6789");
  });

  it("refuses a symlink to /dev/zero at once instead of reading forever", () => {
    const f = path.join(dir(), "hooks.yaml");
    symlinkSync("/dev/zero", f);
    expect(reason(() => readBoundedFile(f, 1024))).toBe("not-regular");
  });

  it("refuses a FIFO without waiting for a writer", () => {
    const f = path.join(dir(), "fifo");
    execFileSync("mkfifo", [f]);
    expect(reason(() => readBoundedFile(f, 1024))).toBe("not-regular");
  });

  it("refuses a directory and names a missing file's errno", () => {
    const d = dir();
    mkdirSync(path.join(d, "sub"));
    expect(reason(() => readBoundedFile(path.join(d, "sub"), 1024))).toBe("not-regular");
    expect(reason(() => readBoundedFile(path.join(d, "nope"), 1024))).toBe("ENOENT");
  });
});
