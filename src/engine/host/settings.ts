/**
 * The engine's public surface for settings: the options, thresholds and budget defaults a host
 * reads its configuration into, the checks that turn a bad setting into a plain-words problem, and
 * the names of the tools the engine gives a model.
 */
export type { EngineOptions } from '../options';
export { CHECKPOINT_TOOL, DEFAULT_OPTIONS, optionsForBudget } from '../options';
export type { Level, LevelThresholds } from '../levels';
export { DEFAULT_THRESHOLDS, validateThresholds } from '../levels';
export { answerReserveBeside, DEFAULT_ANSWER_RESERVE_TOKENS, DEFAULT_BUDGET_CEILING_TOKENS } from '../budget';
export type { ReportedWindowSetting } from '../relay/reportedWindow';
export { DEFAULT_REPORTED_WINDOW, reportedWindowSetting } from '../relay/reportedWindow';
export { RECOVER_TOOL } from '../summary/summaryFormat';
