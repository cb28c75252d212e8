/**
 * The HTTP side of the one error catalogue (§19): every code carries the status the HTTPS API
 * answers it with, and the statuses HTTP clients retry on (429, 503) are exactly the codes the
 * catalogue calls retryable.
 */

import { describe, expect, it } from 'vitest';
import { ERROR_CODES, httpStatusOf, isErrorCode, isRetryable } from '../src/protocol/errorCodes.js';

const CODES = Object.keys(ERROR_CODES).filter(isErrorCode);

describe('error catalogue HTTP statuses', () => {
  it('gives every code a client- or server-error status', () => {
    for (const code of CODES) {
      const status = httpStatusOf(code);
      expect(Number.isInteger(status), code).toBe(true);
      expect(status >= 400 && status <= 599, `${code} → ${status}`).toBe(true);
    }
  });

  it('answers exactly the retryable codes with a status HTTP clients retry on', () => {
    for (const code of CODES) expect([429, 503].includes(httpStatusOf(code)), code).toBe(isRetryable(code));
  });

  it('tells authentication (401), permission (403), absence (404) and state (409) apart', () => {
    expect(CODES.filter((c) => httpStatusOf(c) === 401).sort()).toEqual(['AUTH_INVALID_SIGNATURE', 'AUTH_REQUIRED', 'AUTH_STALE_SESSION']);
    expect(CODES.filter((c) => httpStatusOf(c) === 404)).toEqual(['GROUP_NOT_FOUND']);
    expect(httpStatusOf('MEMBERSHIP_REQUIRED')).toBe(403);
    expect(httpStatusOf('AUTH_FORBIDDEN')).toBe(403);
    expect(httpStatusOf('REVISION_CONFLICT')).toBe(409);
    expect(httpStatusOf('INTERNAL_ERROR')).toBe(503);
  });
});
