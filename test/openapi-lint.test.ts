// openapi/openapi.json passes `redocly lint` with its recommended rules: no error, and no warning
// but the few accepted below (each with its reason).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE } from '../src/contracts';

const ROOT = join(__dirname, '..');

/** Warnings accepted on purpose: rule → the JSON pointers it may point at, and why. */
const ACCEPTED: Record<string, { pointers: string[]; why: string }> = {
  'info-license': { pointers: ['#/info'], why: 'the project publishes no license yet' },
  'operation-4xx-response': {
    pointers: [
      '#/paths/~1livez/get/responses',
      '#/paths/~1healthz/get/responses',
      '#/paths/~1readyz/get/responses',
      '#/paths/~1metrics/get/responses',
    ],
    why: 'the probes and metrics take no input and are not rate limited: they never answer 4xx',
  },
};

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ pointer: string }>;
  }>;
}

it('passes redocly lint (recommended rules) with no error and only the accepted warnings', async () => {
  const redocly = join(ROOT, 'node_modules', '.bin', 'redocly');
  const { stdout } = await promisify(execFile)(redocly, ['lint', OPENAPI_FILE, '--format=json'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as LintReport;
  const unexpected = report.problems
    .filter((p) => !p.location.every((l) => ACCEPTED[p.ruleId]?.pointers.includes(l.pointer)))
    .map((p) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
  expect(unexpected).toEqual([]);
  expect(report.totals.errors).toBe(0);
});
