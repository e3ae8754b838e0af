import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { HookrunError, UsageError, WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import type { DispatchTarget } from "./dispatch.js";
import { installedEntries, wantedEntries as hostEntries } from "./hostFile.js";
import { HOSTS, hostByName } from "./table.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { installedPort } from "./warm.js";

// Where `hooks install` writes for each host, and what it would write there: the hosts it can
// install into, their config files (or hook-script folders) under a base directory, and the
// entries a config wants in them. `hooks install`, `hooks uninstall` and `hooks validate` read
// the same files the same way.

/** One host's config file as `hooks install` sees it. */
export interface HostFile {
  host: HostAdapter;
  /** The file as named (project-relative or under HOME). */
  file: string;
  /** Where writes go: the symlink's target when the file is a link (the link stays). */
  target: string;
  text: string | null;
}

/** The hosts `hooks install` can write into: a config file of entries, or a folder of hook scripts. */
export const installable = (): HostAdapter[] => HOSTS.filter((h) => h.install || h.scripts);

/** The folder whose presence says the project uses a host (`.claude`, `.clinerules`). */
export const hostFolder = (h: HostAdapter): string => (h.install ? path.dirname(h.install.projectFile) : h.scripts!.projectDir.split("/")[0]);

/** The folder of a script host's hook scripts (Cline's), in the project or under HOME. */
export const scriptDir = (host: HostAdapter, base: string, user: boolean): string => path.join(base, user ? host.scripts!.userDir : host.scripts!.projectDir);

/** The hosts named (each one hookrun can install into), or with no names those `present` under `base`. */
export function pickHosts(names: string[], base: string, present: (h: HostAdapter, file: string) => boolean): HostAdapter[] {
  if (names.length > 0) {
    return names.map((n) => {
      const host = hostByName(n);
      const others = installable()
        .map((h) => h.name)
        .join(", ");
      if (!host || (!host.install && !host.scripts)) throw new UsageError(`${n}: no such host to install into; use one of ${others}`);
      return host;
    });
  }
  return installable().filter((h) => present(h, path.join(base, h.install ? h.install.projectFile : h.scripts!.projectDir)));
}

/** A host's config file under `base` (the project, or HOME for `user`), read within the config size limit. */
export function readHostFile(host: HostAdapter, base: string, user: boolean): HostFile {
  const file = path.join(base, user ? host.install!.userFile : host.install!.projectFile);
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    // not there yet (or a dangling link, refused below when read)
  }
  if (!existsSync(file)) return { host, file, target, text: null };
  try {
    return { host, file, target, text: readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config` }) };
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

/**
 * The bin and project root of the dispatch commands: the project's install, or for `user` the
 * absolute path of this hookrun (`entry`, the running CLI's script).
 */
export function dispatchTarget(host: HostAdapter, user: boolean, entry: string | undefined): DispatchTarget {
  if (!user) return { root: host.install?.root ?? null, bin: null, exec: host.install?.exec };
  const bin = entry && existsSync(entry) ? entry : null;
  if (!bin) throw new HookrunError("--user needs hookrun's own path to write into the entries; run the installed `hooks` binary", { code: "install" });
  return { root: null, bin: realpathSync(bin), exec: host.install?.exec };
}

/** The entries the config needs: command entries, or warm mode's http entries on `port`. */
export function wantedEntries(config: ResolvedConfig, host: HostAdapter, user: boolean, entry: string | undefined, port: number | null = null): Record<string, HostEntry[]> {
  return hostEntries(host, config, dispatchTarget(host, user, entry), port);
}

/** The warm port of the entries in a host's file (null: command mode, or nothing installed). */
export function filePort(f: HostFile): number | null {
  if (f.text === null || f.text.trim() === "") return null;
  try {
    return installedPort(installedEntries(f.host, f.text, f.file));
  } catch {
    return null;
  }
}
