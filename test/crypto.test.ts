import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JS_SHA256_MAX_BYTES, sha256, sha256Js } from "../src/fs/crypto.js";
import { runCli } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

/**
 * sha256() hashes small inputs in JavaScript, so a cold trusted `hooks run` never loads
 * node:crypto (docs/performance.md#what-each-start-up-measure-buys). What trust records must be
 * exactly node:crypto's digest, for every length and every padding edge.
 */

const reference = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

describe("sha256 in JavaScript", () => {
  it("matches node:crypto for every length from 0 to 300 bytes (each padding case: 55, 56, 63, 64, 119, 120 …)", () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      expect(sha256Js(bytes), `length ${n}`).toBe(reference(bytes));
    }
  });

  it("matches the FIPS 180-4 test vectors", () => {
    expect(sha256Js(Buffer.from(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Js(Buffer.from("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Js(Buffer.from("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  it("matches node:crypto on large inputs and on bytes with every high bit set", () => {
    for (const n of [1000, 4096, 8191, 8192, 65_537]) {
      const bytes = randomBytes(n);
      expect(sha256Js(bytes), `length ${n}`).toBe(reference(bytes));
    }
    const high = Buffer.alloc(200, 0xff);
    expect(sha256Js(high)).toBe(reference(high));
  });

  it("sha256() hashes text as UTF-8 on both sides of the size threshold, as node:crypto does", () => {
    const unicode = "hooks:\n  stop:\n    - name: ünïcødé ✓ 🚀\n      command: echo 'ß'\n";
    expect(sha256(unicode)).toBe(reference(unicode));
    expect(sha256(Buffer.from(unicode))).toBe(reference(unicode));
    const atLimit = "x".repeat(JS_SHA256_MAX_BYTES);
    const overLimit = "é".repeat(JS_SHA256_MAX_BYTES / 2 + 1);
    expect(sha256(atLimit)).toBe(reference(atLimit));
    expect(sha256(overLimit)).toBe(reference(overLimit));
  });
});

describe("a cold trusted hooks run", () => {
  it("checks trust without loading node:crypto, and an edit after trust still stops it", async () => {
    const p = sandbox({ config: 'hooks:\n  stop:\n    - name: ok\n      command: "true"\n' });
    const probe = p.write("../probe.cjs", 'process.on("exit", () => require("node:fs").writeSync(2, `crypto loaded: ${process.moduleLoadList.includes("NativeModule crypto")}\\n`));\n');
    const env = { ...p.env, NODE_OPTIONS: `--require ${probe}` };
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const trusted = await runCli(["run", "stop"], { cwd: p.dir, env, input: "{}" });
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).toContain("crypto loaded: false");
    writeFileSync(path.join(p.dir, "hooks.yaml"), 'hooks:\n  stop:\n    - name: ok\n      command: "false"\n');
    const edited = await runCli(["run", "stop"], { cwd: p.dir, env, input: "{}" });
    expect(edited.code).toBe(77);
    expect(edited.stderr).toContain("not trusted");
  });
});
