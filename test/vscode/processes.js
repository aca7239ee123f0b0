// Process helpers for the harness: free ports, and stopping a process with all its descendants by PID.
'use strict';

const fs = require('fs');
const net = require('net');

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** PID -> parent PID for every process, read from /proc. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may contain spaces; the parent PID is the 2nd field after it.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we were reading.
    }
  }
  return table;
}

/** `pid` and all its descendants, parents first. */
function processTree(pid) {
  const table = processTable();
  const result = [pid];
  for (let i = 0; i < result.length; i++) {
    for (const [child, parent] of table) {
      if (parent === result[i] && !result.includes(child)) result.push(child);
    }
  }
  return result.filter((p) => p === pid || table.has(p));
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pids, sig) {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Stops `pid` and every descendant: SIGTERM, then SIGKILL for whatever is still alive after `graceMs`.
 * The tree is read before signalling, so children re-parented on their parent's death are still reached.
 */
async function killTree(pid, graceMs = 3000) {
  if (!pid || !isAlive(pid)) return;
  const pids = processTree(pid);
  signal(pids, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(isAlive)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  signal(pids.filter(isAlive), 'SIGKILL');
}

/** The synchronous last resort for process 'exit' handlers: SIGKILL the whole tree now. */
function killTreeSync(pid) {
  if (!pid || !isAlive(pid)) return;
  signal(processTree(pid), 'SIGKILL');
}

/** Descendants of this process whose command line contains `needle`. */
function findDescendants(needle) {
  return processTree(process.pid)
    .slice(1)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    });
}

module.exports = { freePort, processTree, killTree, killTreeSync, findDescendants, isAlive };
