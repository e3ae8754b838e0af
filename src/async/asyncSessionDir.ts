import path from "node:path";
import { projectKey } from "./projectKey.js";
import { sessionKey } from "./sessionKey.js";

/** Where the async records of one project and session live: <stateDir>/async/<project>/<session>. */
export function asyncSessionDir(stateDir: string, projectDir: string, sessionId: string): string {
  return path.join(stateDir, "async", projectKey(projectDir), sessionKey(sessionId));
}
