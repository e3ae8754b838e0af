// The library's public API (docs/running-hooks.md#from-a-program-library): a barrel of re-exports.
export { EVENTS, pascalEventName, type EventInfo, type GateKind } from "./events/catalog.js";
export { parseHookEvent, tryParseHookEvent, normalizeEventName } from "./events/parseHookEvent.js";
export {
  HookrunError,
  ConfigError,
  UsageError,
  ContextError,
  TrustError,
  UnknownHookError,
  WriteError,
  InterruptedError,
  formatDiagnostic,
  type Diagnostic,
} from "./errors.js";
export { loadConfig, type LoadConfigOptions } from "./config/loadConfig.js";
export {
  findProjectFile,
  findLocalFile,
  defaultLocalFile,
  findUserFile,
  PROJECT_FILE_NAMES,
  LOCAL_FILE_NAMES,
  type FindProjectFileOptions,
} from "./config/discover.js";
export { matcherIsRegex } from "./config/matcher.js";
export type * from "./config/types.js";
export type * from "./runner/types.js";
export { VERSION } from "./version.js";
export { enableHook, disableHook, type SetEnabledOptions, type SetEnabledChange } from "./edit/setHooksEnabled.js";
export { assertTrusted, untrustedFiles, recordTrust, revokeTrust, type TrustOptions } from "./trust/store.js";
export { createRunner } from "./runner/createRunner.js";
export { lastAssistantText, type HistoryEntry } from "./runner/context.js";
export { watchConfig, type WatchConfigOptions, type ConfigWatcher } from "./watch/watchConfig.js";
export { startServer, type StartServerOptions, type RunningServer } from "./server/startServer.js";
export { formatClaude, renderClaude, type ClaudeAnswer, type ClaudeHookResponse } from "./hosts/claude.js";
// An agent's event to its answer in that agent's contract: the one path every door takes (docs/architecture.md).
export { runHostEvent, type HostEventRequest, type HostEventOutcome } from "./hosts/runHostEvent.js";
export { HOSTS, hostByName } from "./hosts/adapters.js";
export { createInProcessHost, type InProcessHost, type InProcessHostOptions } from "./hosts/inProcess.js";
export { opencodeHooks, type OpencodePluginInput } from "./hosts/opencodeBridge.js";
export type { HostAdapter, HostAnswer, Payload } from "./hosts/types.js";
export { formatJunit } from "./report/formatJunit.js";
