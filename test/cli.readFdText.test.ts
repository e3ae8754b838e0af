import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFdText } from "../src/cli/actions/runContext.js";
import { sandbox } from "./helpers/sandbox.js";

const fds: number[] = [];
// Before the sandbox is removed (onTestFinished runs after afterEach).
afterEach(() => {
  for (const fd of fds.splice(0)) fs.closeSync(fd);
});

const tempDir = (): string => sandbox({ prefix: "hookrun-fd-" }).root;

describe("reading the context from stdin's descriptor", () => {
  it("reads a blocking descriptor to its end, across many chunks", () => {
    const file = path.join(tempDir(), "ctx.json");
    const text = JSON.stringify({ session_id: "s", big: "é".repeat(100_000) });
    fs.writeFileSync(file, text);
    const fd = fs.openSync(file, "r");
    fds.push(fd);
    expect(readFdText(fd, 1 << 20)).toEqual({ text });
  });

  it("hands back what it read when a non-blocking descriptor runs dry, so the stream can finish", () => {
    const fifo = path.join(tempDir(), "fifo");
    execFileSync("mkfifo", [fifo]);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    fds.push(reader);
    const writer = fs.openSync(fifo, "w");
    fds.push(writer);
    fs.writeSync(writer, '{"session_id":');
    const got = readFdText(reader, 1 << 20);
    expect(got.text).toBeNull();
    expect("partial" in got && got.partial.toString()).toBe('{"session_id":');
  });
});
