import fs from "node:fs";
import path from "node:path";
import { type AsyncCollection, collectAsyncResults } from "./collect.js";
import { parseAsyncFileName } from "./paths.js";
import { readAsyncDelivery, readAsyncJob } from "./records.js";

/**
 * How often one project's async records are swept for expired ones, at most: the sweep reads
 * every session directory of the project, so it is not done on every trigger. Expiry is 24 h;
 * a result may outlive it by this much.
 */
export const ASYNC_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** The stamp whose mtime is the project's last sweep; a session dir name never starts with ".". */
export const SWEEP_STAMP = ".swept";

/**
 * Expire the undelivered async results (and lost runs) older than 24 h of every session of one
 * project (`projectDir`: `<stateDir>/async/<project>`) but `skipSession` (the caller's own, which
 * it has just collected), at most once per ASYNC_SWEEP_INTERVAL_MS across processes: the stamp
 * file's mtime says when the last sweep began. A session that never triggers again would
 * otherwise keep its results for ever. Nothing is delivered: results younger than 24 h wait for
 * their own session. Returns what expired (the caller logs each) and the problems met. Never
 * throws for what it finds on disk; a stamp in the future (a clock set back, or planted) counts
 * as due.
 */
export function sweepExpiredAsync(projectDir: string, skipSession: string | null, now = Date.now()): Pick<AsyncCollection, "expired" | "warnings"> {
  const out: Pick<AsyncCollection, "expired" | "warnings"> = { expired: [], warnings: [] };
  const stamp = path.join(projectDir, SWEEP_STAMP);
  let last: number | null = null;
  try {
    last = fs.lstatSync(stamp).mtimeMs;
  } catch (error) {
    // No project dir: nothing was ever started here, nothing to sweep (and nothing is created).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !fs.existsSync(projectDir)) return out;
  }
  if (last !== null && now - last >= 0 && now - last < ASYNC_SWEEP_INTERVAL_MS) return out;
  if (!touch(stamp, now)) return out;
  let sessions: fs.Dirent[];
  try {
    sessions = fs.readdirSync(projectDir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of sessions) {
    // Directories only (not a symlink planted to lead elsewhere), never the caller's own.
    if (!entry.isDirectory() || entry.name === skipSession || entry.name.startsWith(".")) continue;
    const found = collectAsyncResults(path.join(projectDir, entry.name), { now, expireOnly: true });
    out.expired.push(...found.expired);
    out.warnings.push(...found.warnings);
  }
  return out;
}

// Set the stamp's mtime (never following a symlink), creating it when missing; false when neither works.
function touch(stamp: string, now: number): boolean {
  const t = new Date(now);
  try {
    fs.lutimesSync(stamp, t, t);
    return true;
  } catch {
    // missing: create it below
  }
  try {
    fs.writeFileSync(stamp, "", { flag: "wx", mode: 0o600 });
    fs.lutimesSync(stamp, t, t);
    return true;
  } catch {
    // created meanwhile by a concurrent sweep (which sweeps), or the dir is not writable
    return false;
  }
}

/** One async run of the state dir that no trigger has delivered yet (`hooks log --pending`). */
export interface UndeliveredAsync {
  /** The project's directory when known (from a run record or the run log), else null. */
  project_dir: string | null;
  /** The project's key: the directory name under `<stateDir>/async`. */
  project_key: string;
  session_id: string;
  name: string;
  event: string;
  /** "finished": waiting for its session's next trigger; "running": no result yet. */
  state: "finished" | "running";
  /** The result's status (finished only). */
  status: string | null;
  started_at: string;
  finished_at: string | null;
}

/**
 * Every undelivered async run under `<stateDir>/async`: finished results waiting for their
 * session's next trigger, and runs with no result yet, oldest start first. Read-only; every file
 * read bounded and checked (readAsyncDelivery, readAsyncJob): one that fails is skipped, left for
 * the collector that reports it. `knownProjects` maps project keys to directories.
 */
export function listUndeliveredAsync(stateDir: string, knownProjects: ReadonlyMap<string, string> = new Map()): UndeliveredAsync[] {
  const root = path.join(stateDir, "async");
  const out: UndeliveredAsync[] = [];
  for (const project of dirents(root)) {
    const projectPath = path.join(root, project);
    const found: UndeliveredAsync[] = [];
    let projectDir = knownProjects.get(project) ?? null;
    for (const session of dirents(projectPath)) {
      const dir = path.join(projectPath, session);
      let names: string[];
      try {
        names = fs.readdirSync(dir).sort();
      } catch {
        continue;
      }
      const parsed = names.map((n) => ({ name: n, file: parseAsyncFileName(n) }));
      const finished = new Set(parsed.filter((p) => p.file?.kind === "result").map((p) => p.file!.id));
      for (const { name, file } of parsed) {
        if (!file) continue;
        const at = path.join(dir, name);
        try {
          if (file.kind === "result") {
            const d = readAsyncDelivery(at);
            found.push({
              project_dir: null,
              project_key: project,
              session_id: d.session_id,
              name: d.name,
              event: d.event,
              state: "finished",
              status: d.status,
              started_at: d.started_at,
              finished_at: d.finished_at,
            });
          } else if ((file.kind === "started" || file.kind === "publishing") && !finished.has(file.id)) {
            const job = readAsyncJob(at);
            projectDir ??= job.project_dir;
            found.push({
              project_dir: null,
              project_key: project,
              session_id: job.session_id,
              name: job.name,
              event: job.event,
              state: "running",
              status: null,
              started_at: job.started_at,
              finished_at: null,
            });
          }
        } catch {
          // claimed meanwhile, or damaged: the session's next collection deals with it
        }
      }
    }
    for (const f of found) f.project_dir = projectDir;
    out.push(...found);
  }
  return out.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
}

// Names of the real directories (not symlinks) in `dir`, none hidden; [] when it cannot be read.
function dirents(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith("."))
      .map((e) => e.name);
  } catch {
    return [];
  }
}
