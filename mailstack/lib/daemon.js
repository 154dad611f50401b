'use strict';
// One supervised daemon: spawned in its own process group (so a stop reaches the workers it
// forks, e.g. Rspamd's), output kept in a log file (and optionally handed to `onLine`),
// readiness polled, stopped with SIGTERM then SIGKILL.

const fs = require('node:fs');
const { spawn } = require('node:child_process');

const live = new Set();
// Last resort when the parent exits without stopping us (an uncaught exception, process.exit()):
// kill every group still running. A SIGKILLed parent cannot do this; its daemons then stay.
process.once('exit', () => {
  for (const d of live) d.killGroup('SIGKILL');
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startDaemon({ name, command, args, env, cwd, logFile, onLine }) {
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const tailLines = [];
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      live.delete(daemon);
      resolve(exitInfo);
    });
    child.once('error', (err) => {
      exitInfo = { code: null, signal: null, error: err };
      live.delete(daemon);
      resolve(exitInfo);
    });
  });

  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk) => {
      log.write(chunk);
      const text = partial + chunk.toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop();
      for (const line of lines) {
        tailLines.push(line);
        if (tailLines.length > 60) tailLines.shift();
        if (onLine) onLine(name, line);
      }
    });
  }

  const daemon = {
    name,
    child,
    pid: child.pid,
    logFile,
    exited,
    get exitInfo() {
      return exitInfo;
    },
    alive: () => exitInfo === null,
    tail: (n = 25) => tailLines.slice(-n).join('\n'),
    killGroup(signal) {
      if (!child.pid) return;
      try {
        process.kill(-child.pid, signal); // the group this daemon leads (detached: true)
      } catch {
        try {
          child.kill(signal);
        } catch {
          /* gone */
        }
      }
    },
    async stop(graceMs = 8000) {
      if (exitInfo === null) {
        daemon.killGroup('SIGTERM');
        let timer;
        const grace = new Promise((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        });
        const done = await Promise.race([exited.then(() => true), grace]);
        clearTimeout(timer);
        if (!done) {
          daemon.killGroup('SIGKILL');
          await exited;
        }
      }
      // workers of the group may outlive their leader for a moment
      daemon.killGroup('SIGKILL');
      await new Promise((resolve) => log.end(resolve));
    },
  };
  live.add(daemon);
  return daemon;
}

/**
 * Polls `probe` (async, truthy = ready) until it succeeds; fails early when the daemon exits,
 * and with its last log lines on timeout.
 */
async function waitReady(daemon, what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!daemon.alive()) {
      const { code, signal, error } = daemon.exitInfo;
      throw new Error(
        `${daemon.name} exited before it was ready (${error ? error.message : `code ${code}, signal ${signal}`}).\n` +
          `Last lines of ${daemon.logFile}:\n${daemon.tail()}`,
      );
    }
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = err.message;
    }
    await sleep(100);
  }
  throw new Error(
    `${daemon.name}: ${what} not ready after ${timeoutMs} ms${lastError ? ` (${lastError})` : ''}.\n` +
      `Last lines of ${daemon.logFile}:\n${daemon.tail()}`,
  );
}

module.exports = { startDaemon, waitReady, sleep };
