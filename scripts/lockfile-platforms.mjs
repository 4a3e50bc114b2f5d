#!/usr/bin/env node
// Completes package-lock.json with the platform builds of native packages (@swc/core-*, the
// unrs-resolver bindings, …) that npm could not see when it wrote the lock.
//
// Why: `npm ci` refuses a lockfile in which an optional dependency has no entry ("Missing: … from
// lock file"). npm records every platform's build when the registry serves them all, but a registry
// mirror that serves only this machine's platforms leaves the others out, and the lock then works on
// no other machine. This script adds, for each optional dependency named in the lock but absent from
// it, an entry with its version and the os/cpu/libc read from the package's platform suffix, so that
// npm skips it on other platforms and fetches it by name and version where it fits.
//
// Run it after `npm install` changes the lock: `node scripts/lockfile-platforms.mjs`. With --check it
// writes nothing and exits 1 when an entry is missing (the test suite runs that).
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** The os, cpu and libc a platform package is for, from the end of its name (`…-linux-arm-gnueabihf`). */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  for (let i = parts.length - 2; i >= 0; i--) {
    if (OS.includes(parts[i]) && CPU.includes(parts[i + 1])) {
      const abi = parts[i + 2];
      return { os: [parts[i]], cpu: [parts[i + 1]], ...(LIBC[abi] ? { libc: [LIBC[abi]] } : {}) };
    }
  }
  return undefined;
}

/** Entries to add: optional dependencies with a platform suffix that the lock does not hold. */
export function missingEntries(lock) {
  const added = {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${path ? `${path}/` : ''}node_modules/${dep}`;
      const top = `node_modules/${dep}`;
      if (lock.packages[nested] || lock.packages[top] || added[top]) continue;
      const platform = platformOf(dep);
      if (!platform) continue;
      added[top] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    }
  }
  return added;
}

const file = new URL('../package-lock.json', import.meta.url);
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const added = missingEntries(lock);
  const names = Object.keys(added);
  if (process.argv.includes('--check')) {
    if (names.length) {
      console.error(`package-lock.json lacks ${names.length} platform builds: ${names.join(', ')}`);
      console.error('run: node scripts/lockfile-platforms.mjs');
      process.exit(1);
    }
  } else {
    const packages = Object.fromEntries(
      Object.entries({ ...lock.packages, ...added }).sort(([a], [b]) => a.localeCompare(b, 'en')),
    );
    writeFileSync(file, `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
    console.log(
      names.length ? `added ${names.length} platform builds: ${names.join(', ')}` : 'nothing missing',
    );
  }
}
