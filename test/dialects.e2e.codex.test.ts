import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killClaudeRuns, modelView as claudeView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, runCli } from "./helpers/cli.js";
import { modelView as codexView, killCodexRuns, requireCodex, runCodex } from "./helpers/codexCli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * A hook written for Codex CLI, unchanged, guarding Claude Code through hookrun
 * (docs/dialects.md#codex-hooks-written-for-codex-cli), against the real CLIs (offline, scripted
 * models): a key-file guard on Codex's apply_patch (it reads Codex's payload: `tool_name`
 * apply_patch, the patch in `tool_input.command`; it answers in Codex's deny format).
 *
 *   control  the guard directly in Codex's .codex/hooks.json: Codex's apply_patch of id_rsa is blocked;
 *   claude   the guard in hooks.yaml as `dialect: codex`, `hooks install claude`: Claude Code's Write
 *            of id_rsa reaches it as an apply_patch, is blocked, and Claude's model gets its reason.
 *
 * The Codex version is whatever the devDependency pins (0.169.0 and 0.171.0 have the same hook schema).
 */

const claude = requireClaude();
const codex = requireCodex();

/** The guard, as written for Codex: deny a patch that adds or changes a private key file. */
const KEY_GUARD = `#!/bin/sh
input=$(cat)
[ "$(printf '%s' "$input" | jq -r .tool_name)" = apply_patch ] || exit 0
files=$(printf '%s' "$input" | jq -r .tool_input.command | sed -n -E 's/^\\*\\*\\* (Add|Update) File: //p')
for f in $files; do
  case "$(basename "$f")" in
    *.pem|id_rsa|id_ed25519|*.key)
      jq -n --arg f "$f" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ("KEYGUARD: refusing to write the private key file " + $f)}}'
      exit 0;;
  esac
done
`;
const REASON = "KEYGUARD: refusing to write the private key file id_rsa";
const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\n";

const projects: string[] = [];

function newProject(kind: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-dialect-codex-${kind}-`)));
  projects.push(dir);
  const guard = path.join(dir, "keyguard.sh");
  writeFileSync(guard, KEY_GUARD);
  chmodSync(guard, 0o755);
  return dir;
}

const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

async function hooks(dir: string, env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const r = await runCli(args, { cwd: dir, env: userEnv(env) });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

afterAll(() => {
  killClaudeRuns();
  killCodexRuns();
  for (const dir of projects) removeTree(dir);
});

describe("a Codex key-file guard (apply_patch, Codex's deny format)", () => {
  it.skipIf(!codex.path)(`control, Codex ${codex.version ?? `(skipped: ${codex.reason})`}: in .codex/hooks.json it blocks Codex's apply_patch of id_rsa`, { timeout: 120_000 }, async () => {
    const dir = newProject("codex");
    mkdirSync(path.join(dir, ".codex"), { recursive: true });
    const hooksJson = { hooks: { PreToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: path.join(dir, "keyguard.sh") }] }] } };
    writeFileSync(path.join(dir, ".codex", "hooks.json"), `${JSON.stringify(hooksJson, null, 2)}\n`);
    const run = await runCodex({
      project: dir,
      prompt: "Save the key.",
      script: [{ tool: "apply_patch", custom: `*** Begin Patch\n*** Add File: id_rsa\n+${KEY}*** End Patch\n` }, { text: "All done." }],
      timeoutMs: 90_000,
    });
    const view = codexView(run.requests, { "<project>": dir });
    expect(run.exitCode, `${view.join("\n")}\n${run.stderr.slice(-1500)}`).toBe(0);
    expect(existsSync(path.join(dir, "id_rsa"))).toBe(false);
    expect(
      view.some((l) => l.startsWith("output: ") && l.includes(REASON)),
      view.join("\n"),
    ).toBe(true);
  });

  it.skipIf(!claude.path)(
    `claude, Claude Code ${claude.version ?? `(skipped: ${claude.reason})`}: as \`dialect: codex\` through \`hooks install claude\`, it blocks Claude's Write of id_rsa and the model gets its reason`,
    { timeout: 120_000 },
    async () => {
      const dir = newProject("claude");
      mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
      symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
      writeFileSync(
        path.join(dir, "hooks.yaml"),
        [
          "version: 1",
          "hooks:",
          "  pre_tool_use:",
          "    - name: keyguard",
          "      dialect: codex",
          "      matcher: Write|Edit",
          `      command: ${JSON.stringify(path.join(dir, "keyguard.sh"))}`,
          "",
        ].join("\n"),
      );
      const run = await runClaude({
        project: dir,
        prompt: "Save the key.",
        script: [{ tool: "Write", input: { file_path: path.join(dir, "id_rsa"), content: KEY } }, { text: "All done." }],
        timeoutMs: 90_000,
        setup: async (env) => {
          await hooks(dir, env, ["install", "claude"]);
          await hooks(dir, env, ["trust", "--yes"]);
        },
      });
      const view = claudeView(run.requests, { hookCommands: run.hookCommands, paths: { "<project>": dir } });
      expect(run.exitCode, `${view.join("\n")}\n${run.stderr.slice(-1500)}`).toBe(0);
      expect(existsSync(path.join(dir, "id_rsa"))).toBe(false);
      expect(
        view.some((l) => l.includes(REASON)),
        view.join("\n"),
      ).toBe(true);
    },
  );
});
