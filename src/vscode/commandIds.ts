/** Command ids, matching `contributes.commands` in package.json. */
export const COMMANDS = {
  compress: 'ctx.compress',
  showStatus: 'ctx.showStatus',
  recover: 'ctx.recover',
  openArchive: 'ctx.openArchive',
  clearSession: 'ctx.clearSession',
  showTree: 'ctx.showTree',
  openOffloaded: 'ctx.openOffloaded',
  revealOffloaded: 'ctx.revealOffloaded',
  copyPath: 'ctx.copyPath',
  deleteOffloaded: 'ctx.deleteOffloaded',
  refreshTree: 'ctx.refreshTree',
  addGoal: 'ctx.addGoal',
  addDecision: 'ctx.addDecision',
  snapshot: 'ctx.snapshot',
  restoreSnapshot: 'ctx.restoreSnapshot',
  freshSession: 'ctx.freshSession',
  openCheckpoint: 'ctx.openCheckpoint',
  openSessionLog: 'ctx.openSessionLog',
  openDashboard: 'ctx.openDashboard',
  archiveCopilotHistory: 'ctx.archiveCopilotHistory',
} as const;

export const TREE_VIEW_ID = 'ctx.sessions';
