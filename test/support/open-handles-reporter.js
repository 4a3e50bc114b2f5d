// A jest reporter that names what the tests left open. With one worker (a two-core machine, as CI's)
// every test file runs in jest's own process, so a socket, server, child process or timer a file
// leaves open keeps jest from exiting after a green run. This notes the handles that appear while
// each file runs, and the timers made while it runs (test environments take setTimeout/setInterval
// from this process's globals, which it wraps for the run); once the run is over it waits a little
// for them to close and prints those still open, each with its file (jest.config.js then ends the
// process: forceExit). Plain JavaScript: jest loads reporters with require, untransformed.
const process = require('node:process');
const path = require('node:path');
const { promisify } = require('node:util');
const { setTimeout: sleep } = require('node:timers/promises');

/** Handles that keep the process alive (referenced), stdio left out. */
function referencedHandles() {
  return process._getActiveHandles().filter((handle) => {
    if (typeof handle.hasRef === 'function' && !handle.hasRef()) return false;
    const fd = handle._handle && handle._handle.fd;
    return !(fd === 0 || fd === 1 || fd === 2);
  });
}

function describe(handle) {
  const name = (handle.constructor && handle.constructor.name) || typeof handle;
  if (name === 'Socket' || name === 'TLSSocket') {
    if (handle.remotePort === undefined && handle.localPort === undefined) return `${name} (pipe)`;
    return `${name} ${handle.localAddress}:${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
  }
  if (name === 'Server') return `Server listening on ${JSON.stringify(handle.address())}`;
  if (name === 'ChildProcess')
    return `ChildProcess ${handle.pid}: ${(handle.spawnargs || []).join(' ').slice(0, 200)}`;
  return name;
}

function describeTimer(timer) {
  const source = String(timer._onTimeout).replace(/\s+/g, ' ').slice(0, 160);
  return `${timer._repeat ? 'setInterval' : 'setTimeout'}(${source}, ${timer._idleTimeout})`;
}

class OpenHandlesReporter {
  constructor() {
    this.baseline = new Set();
    /** Handle → the test file during or after which it was first seen. */
    this.origins = new Map();
    /** [WeakRef of a timer, its test file], for timers made while a file ran. */
    this.timers = [];
    this.current = undefined;
    this.restore = undefined;
  }

  onRunStart() {
    this.baseline = new Set(referencedHandles());
    this.wrapTimers();
  }

  onTestFileStart(test) {
    this.current = relative(test.path);
  }

  onTestFileResult() {
    for (const handle of referencedHandles()) {
      if (!this.baseline.has(handle) && !this.origins.has(handle)) this.origins.set(handle, this.current);
    }
    this.current = undefined;
    this.timers = this.timers.filter(([ref]) => live(ref.deref()));
  }

  async onRunComplete() {
    this.restore?.();
    const leftOpen = () => [
      ...referencedHandles()
        .filter((handle) => !this.baseline.has(handle))
        .map((h) => `${describe(h)}  (open since ${this.origins.get(h) || 'the end of the run'})`),
      ...this.timers
        .filter(([ref]) => live(ref.deref()))
        .map(([ref, file]) => `${describeTimer(ref.deref())}  (made in ${file})`),
    ];
    const until = Date.now() + 3000;
    let open = leftOpen();
    while (open.length > 0 && Date.now() < until) {
      await sleep(100, undefined, { ref: false });
      open = leftOpen();
    }
    if (open.length === 0) return;
    process.stderr.write(`\nOpen handles left by the tests:\n${open.map((l) => `  ${l}`).join('\n')}\n`);
  }

  /** Records the timers test code makes (through the globals each test environment copies). */
  wrapTimers() {
    const record = (timer) => {
      if (this.current && timer && typeof timer === 'object')
        this.timers.push([new WeakRef(timer), this.current]);
    };
    const track = (real) => {
      const wrapped = function (...args) {
        const timer = real.apply(this, args);
        record(timer);
        return timer;
      };
      if (real[promisify.custom]) wrapped[promisify.custom] = real[promisify.custom];
      return wrapped;
    };
    const { setTimeout: realTimeout, setInterval: realInterval } = globalThis;
    globalThis.setTimeout = track(realTimeout);
    globalThis.setInterval = track(realInterval);
    this.restore = () => {
      globalThis.setTimeout = realTimeout;
      globalThis.setInterval = realInterval;
    };
  }
}

const relative = (file) => path.relative(process.cwd(), file);

/** A timer that still keeps the process up. */
function live(timer) {
  return timer !== undefined && !timer._destroyed && timer.hasRef();
}

module.exports = OpenHandlesReporter;
