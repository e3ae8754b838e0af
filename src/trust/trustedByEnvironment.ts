/** CI (set, not "false"/"0") and HOOKS_TRUST=1 trust every layer without asking (SPEC §11). */
export function trustedByEnvironment(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  if (ci !== undefined && ci !== "" && ci.toLowerCase() !== "false" && ci !== "0") return true;
  return env.HOOKS_TRUST === "1";
}
