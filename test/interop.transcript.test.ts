import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileReadError } from "../src/fs/readBounded.js";
import { deriveLastMessage, lastMessageFromTranscript } from "../src/interop/lastMessageFromTranscript.js";
import { runCli } from "./helpers/cli.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";

const MiB = 1024 * 1024;
const line = (type: string, content: unknown) => JSON.stringify({ type, message: { role: type, content } });
const tool = () => line("assistant", [{ type: "tool_use", id: "t", name: "Bash", input: {} }]);

let t: Sandbox;
let helpers: ChildProcess[];
beforeEach(() => {
  t = sandbox();
  helpers = [];
});
afterEach(() => {
  for (const h of helpers) h.kill("SIGKILL");
  t.cleanup();
});

/**
 * A FIFO, and a process that opens it for writing after a while and closes it: should a read
 * block on the FIFO in this process (the bug), it ends then, and the test fails instead of hanging.
 */
function fifoWithEscape(file: string): string {
  execFileSync("mkfifo", [file]);
  helpers.push(spawn("sh", ["-c", `sleep 2; : > "${file}"`], { stdio: "ignore" }));
  return file;
}

describe("lastMessageFromTranscript reads only the tail, and reads it right", () => {
  it("drops the partial first line of a cut tail, even when what is left of it parses", () => {
    // A line that is not JSON as a whole, but whose end is an assistant entry on its own: seen
    // whole it is no entry, so the answer is the earlier real message, however the tail is cut.
    const fake = line("assistant", "not a message");
    const file = path.join(t.dir, "t.jsonl");
    const head = `${line("assistant", "the real answer")}\n`;
    const filler = line("user", "u".repeat(MiB - fake.length - 1 - line("user", "").length - 1));
    writeFileSync(file, `${head}zzz ${fake}\n${filler}\n`);
    // The 1 MiB tail starts exactly at `fake`: kept, it would be taken for the last message.
    expect(readFileSync(file).length - MiB).toBe(head.length + "zzz ".length);
    expect(lastMessageFromTranscript(file)).toBe("the real answer");
  });

  it("finds the last assistant text beyond the first MiB of tail: a long final message, a long run of tool calls", () => {
    const file = path.join(t.dir, "t.jsonl");
    const long = "y".repeat(2 * MiB);
    writeFileSync(file, [line("user", "go"), line("assistant", long), ""].join("\n"));
    expect(lastMessageFromTranscript(file)).toBe(long);
    const tools = Array.from({ length: Math.ceil((1.5 * MiB) / tool().length) }, tool);
    writeFileSync(file, [line("assistant", "before the tools"), ...tools, ""].join("\n"));
    expect(lastMessageFromTranscript(file)).toBe("before the tools");
  });

  it("refuses a FIFO, a device and a directory at once, and deriveLastMessage turns that into a warning", () => {
    const fifo = fifoWithEscape(path.join(t.dir, "t.fifo"));
    mkdirSync(path.join(t.dir, "d"));
    for (const [file, kind] of [
      [fifo, "a FIFO"],
      ["/dev/zero", "a character device"],
      [path.join(t.dir, "d"), "a directory"],
    ]) {
      expect(() => lastMessageFromTranscript(file)).toThrow(FileReadError);
      const context: Record<string, unknown> = { transcript_path: file };
      expect(deriveLastMessage(context, t.dir)).toMatch(new RegExp(`transcript_path: transcript .* is ${kind}, not a regular file`));
      expect(context.last_assistant_message).toBe(null);
    }
    const given: Record<string, unknown> = { transcript_path: fifo, last_assistant_message: "given" };
    expect(deriveLastMessage(given, t.dir)).toBe(null);
    expect(given.last_assistant_message).toBe("given");
  });
});

describe("hooks run with a transcript_path that is not a regular file", () => {
  it("a FIFO does not hang the run: the hook runs with a null message, the result warns", async () => {
    writeFileSync(path.join(t.dir, "hooks.yaml"), `hooks:\n  stop:\n    - name: cap\n      command: cat > ctx.json\n`);
    const fifo = path.join(t.dir, "transcript.fifo");
    execFileSync("mkfifo", [fifo]);
    const r = await runCli(["--trust", "run", "stop", "--output", "json"], {
      cwd: t.dir,
      env: t.env,
      input: JSON.stringify({ session_id: "s", transcript_path: fifo }),
      timeoutMs: 10_000,
    });
    expect(r.signal).toBe(null);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.hooks[0]).toMatchObject({ name: "cap", status: "ok" });
    expect(result.warnings).toEqual([expect.stringMatching(/transcript .*transcript\.fifo is a FIFO, not a regular file/)]);
    expect(JSON.parse(readFileSync(path.join(t.dir, "ctx.json"), "utf8")).last_assistant_message).toBe(null);
  });
});
