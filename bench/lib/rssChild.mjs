// Runs in its own Node process: one library trigger of the fixture's `notification` hooks, then reports
// this process's peak RSS, so the figure is hookrun's alone and not the bench's.
// argv: <dist/index.js URL> <project dir> <state dir>
const [libUrl, dir, state] = process.argv.slice(2);
const lib = { ...(await import(libUrl)) };
lib.loadConfig ??= (await import(new URL("config/loadConfig.js", libUrl).href)).loadConfig;
const config = await lib.loadConfig({ cwd: dir, userConfig: false, env: process.env });
const runner = lib.createRunner(config, { trust: "all", cwd: dir, stateDir: state });
const result = await runner.trigger("notification", { session_id: "bench", turn_count: 1, last_assistant_message: null, message: "bench", notification_type: "bench" });
await runner.close();
const hook = result.hooks[0];
process.stdout.write(JSON.stringify({ max_rss_kib: process.resourceUsage().maxRSS, status: hook?.status, truncated: hook?.truncated, stdout_chars: hook?.stdout.length, error: hook?.error ?? null }));
