// GitHub Actions workflow commands (`::name key=value::message`), escaped the way the runner's
// own toolkit does so a hook's output cannot end the command early or inject another one.

/** Escape a command's message: `%`, CR and LF. */
export function escapeGithubData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escape a property value: as a message, plus `:` and `,`. */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** One workflow command line, e.g. `::error title=hookrun%3A stop/lint::lint failed`. */
export function githubCommand(name: string, message: string, properties: Record<string, string> = {}): string {
  const props = Object.entries(properties)
    .map(([k, v]) => `${k}=${escapeGithubProperty(v)}`)
    .join(",");
  return `::${name}${props ? ` ${props}` : ""}::${escapeGithubData(message)}`;
}

/** True when running as a GitHub Actions step. */
export const isGithubActions = (env: NodeJS.ProcessEnv) => env.GITHUB_ACTIONS === "true";
