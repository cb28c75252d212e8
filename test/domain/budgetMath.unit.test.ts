/**
 * The budget arithmetic (§12): the rounding rule between currency amounts and microunits, what an
 * unset dimension grants, and allocation within a parent budget.
 */

import { describe, expect, it } from 'vitest';
import { allocationProblem, fromMicrounits, limitsOf, minLimits, remainingOf, toMicrounits, usageOverflow, NO_USAGE } from '../../src/domain/budgetMath.js';

describe('currency amounts and microunits (the rounding rule)', () => {
  it('reads the decimal exactly: no binary floating-point loss', () => {
    expect(toMicrounits(0.29)).toBe(290_000);
    expect(toMicrounits(1.1)).toBe(1_100_000);
    expect(toMicrounits(80)).toBe(80_000_000);
    expect(toMicrounits(0.000001)).toBe(1);
    // The naive product truncates 8.2 to 8,199,999 (8.2 × 10^6 is 8199999.999999999 in binary).
    expect(Math.floor(8.2 * 1_000_000)).toBe(8_199_999);
    expect(toMicrounits(8.2)).toBe(8_200_000);
  });

  it('truncates toward zero beyond the sixth decimal, so a limit never grants more than it states', () => {
    expect(toMicrounits(0.0000019)).toBe(1);
    expect(toMicrounits(2.9999999)).toBe(2_999_999);
    expect(toMicrounits(1e-7)).toBe(0);
    expect(toMicrounits(0)).toBe(0);
  });

  it('caps amounts beyond exact integer arithmetic', () => {
    expect(toMicrounits(1e10)).toBe(Number.MAX_SAFE_INTEGER);
    expect(toMicrounits(1e21)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('converts back exactly, and round-trips every microunit count it produces', () => {
    expect(fromMicrounits(290_000)).toBe(0.29);
    expect(fromMicrounits(1)).toBe(0.000001);
    for (let i = 0; i < 2000; i++) {
      const micro = Math.floor(Math.random() * 9_000_000_000_000);
      expect(toMicrounits(fromMicrounits(micro))).toBe(micro);
    }
  });
});

describe('what a budget grants', () => {
  it('grants only the dimensions it sets; usage elsewhere overflows', () => {
    const limits = limitsOf({ currency: 'EUR', financialLimit: 1, toolCallLimit: 2 });
    expect(limits).toEqual({ financialMicrounits: 1_000_000, toolCalls: 2 });
    expect(usageOverflow({ ...NO_USAGE, toolCalls: 2 }, limits)).toBeUndefined();
    expect(usageOverflow({ ...NO_USAGE, toolCalls: 3 }, limits)).toBe('toolCalls');
    expect(usageOverflow({ ...NO_USAGE, modelTokens: 1 }, limits)).toBe('modelTokens');
    expect(remainingOf({ ...NO_USAGE, toolCalls: 2, financialMicrounits: 250_000 }, limits)).toEqual({ financialMicrounits: 750_000, toolCalls: 0 });
    expect(minLimits({ toolCalls: 5, modelTokens: 9 }, { toolCalls: 3 })).toEqual({ toolCalls: 3 });
  });

  it('allocates within the parent in every dimension, in its currency, never from an unset dimension', () => {
    const parent = { currency: 'EUR', financialLimit: 10, toolCallLimit: 10 };
    expect(allocationProblem([{ currency: 'EUR', financialLimit: 6 }, { currency: 'EUR', financialLimit: 4, toolCallLimit: 10 }], parent)).toBeUndefined();
    expect(allocationProblem([{ currency: 'EUR', financialLimit: 6 }, { currency: 'EUR', financialLimit: 4.000001 }], parent)).toEqual({ reason: 'exceeds', dimension: 'financialMicrounits', allocated: 10_000_001, limit: 10_000_000 });
    expect(allocationProblem([{ modelTokenLimit: 1 }], parent)).toEqual({ reason: 'not-granted', dimension: 'modelTokens', allocated: 1, limit: 0 });
    expect(allocationProblem([{ currency: 'USD', financialLimit: 1 }], parent)).toEqual({ reason: 'currency', dimension: 'financialMicrounits' });
  });
});
