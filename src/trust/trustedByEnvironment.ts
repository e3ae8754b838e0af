import { runningInCi } from "../env/runningInCi.js";

/** CI and HOOKS_TRUST=1 trust every layer without asking (SPEC §11). */
export function trustedByEnvironment(env: NodeJS.ProcessEnv): boolean {
  return runningInCi(env) || env.HOOKS_TRUST === "1";
}
