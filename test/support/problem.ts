// Checks an RFC 9457 problem answer of the REST API.
import type { Response } from 'supertest';

/** Expects application/problem+json with the given status and stable code. */
export function expectProblem(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    status,
    code,
    type: `urn:boardhost:problem:${code.toLowerCase().replace(/_/g, '-')}`,
  });
  expect(res.body.detail).toEqual(expect.any(String));
}
