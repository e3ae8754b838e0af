// The CLI rows spawn the built bundle the way a user's shell does: `node dist/bin/hooks.js …`.
import { execFileSync } from "node:child_process";
import path from "node:path";

export function cliPath(root) {
  return path.join(root, "dist/bin/hooks.js");
}

/** Command names listed by `hooks --help`, to tell a row whose command has not landed yet. */
export function cliCommands(root) {
  let help = "";
  try {
    help = execFileSync(process.execPath, [cliPath(root), "--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    help = String(error.stdout ?? "");
  }
  const section = help.split(/^Commands:$/m)[1] ?? "";
  return new Set([...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]));
}
