/**
 * A slow, explicit RFC 8259 parser that says exactly why a document is refused.
 *
 * `strictJson.ts` only calls it after the fast path failed, to name the reason (trailing data,
 * a duplicate member and where, a syntax error and its offset). Tests also use it as an
 * independent oracle for the fast path: both must accept and reject the same documents.
 */

import type { JsonObject, JsonValue } from './jsonValue.js';

export interface JsonFailure {
  readonly reason:
    | 'json-empty'
    | 'json-syntax'
    | 'json-trailing-data'
    | 'json-duplicate-member'
    | 'json-too-deep';
  readonly message: string;
  readonly offset: number;
}

class Failure {
  constructor(readonly failure: JsonFailure) {}
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Parser {
  i = 0;
  constructor(
    readonly s: string,
    readonly maxDepth: number,
  ) {}

  fail(reason: JsonFailure['reason'], message: string, offset = this.i): never {
    throw new Failure({ reason, message: `${message} at offset ${offset}`, offset });
  }

  skipWs(): void {
    while (this.i < this.s.length && WS.has(this.s.charCodeAt(this.i))) this.i++;
  }

  document(): JsonValue {
    this.skipWs();
    if (this.i >= this.s.length) this.fail('json-empty', 'no JSON value');
    const value = this.value(0);
    this.skipWs();
    if (this.i < this.s.length) this.fail('json-trailing-data', 'data after the JSON value');
    return value;
  }

  value(depth: number): JsonValue {
    const c = this.s[this.i];
    if (c === '{') return this.object(depth + 1);
    if (c === '[') return this.array(depth + 1);
    if (c === '"') return this.string();
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    return this.number();
  }

  literal<T extends JsonValue>(word: string, value: T): T {
    if (this.s.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    return this.fail('json-syntax', 'unexpected token');
  }

  number(): number {
    const m = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    m.lastIndex = this.i;
    const match = m.exec(this.s);
    if (match === null) this.fail('json-syntax', 'unexpected token');
    this.i += match[0].length;
    // "01", "1.", "1e", "0x1": a number token that goes on is malformed, not followed by data.
    if (/[0-9A-Za-z.+-]/.test(this.s[this.i] ?? '')) this.fail('json-syntax', 'malformed number');
    return Number(match[0]);
  }

  string(): string {
    let out = '';
    this.i++;
    for (;;) {
      if (this.i >= this.s.length) this.fail('json-syntax', 'unterminated string');
      const code = this.s.charCodeAt(this.i);
      if (code === 0x22) {
        this.i++;
        return out;
      }
      if (code < 0x20) this.fail('json-syntax', 'control character in string');
      if (code !== 0x5c) {
        out += this.s[this.i++];
        continue;
      }
      const e = this.s[this.i + 1] ?? '';
      if (e === 'u') {
        const hex = this.s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('json-syntax', 'bad unicode escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else if (Object.hasOwn(SIMPLE_ESCAPES, e)) {
        out += SIMPLE_ESCAPES[e];
        this.i += 2;
      } else {
        this.fail('json-syntax', 'bad escape');
      }
    }
  }

  array(depth: number): JsonValue[] {
    if (depth > this.maxDepth) this.fail('json-too-deep', 'nesting too deep');
    const out: JsonValue[] = [];
    this.i++;
    this.skipWs();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.value(depth));
      this.skipWs();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') this.fail('json-syntax', "expected ',' or ']'", this.i - 1);
    }
  }

  object(depth: number): JsonObject {
    if (depth > this.maxDepth) this.fail('json-too-deep', 'nesting too deep');
    const out: JsonObject = {};
    const seen = new Set<string>();
    this.i++;
    this.skipWs();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.s[this.i] !== '"') this.fail('json-syntax', 'expected a member name');
      const at = this.i;
      const name = this.string();
      if (seen.has(name)) {
        this.fail('json-duplicate-member', `duplicate member name ${JSON.stringify(name)}`, at);
      }
      seen.add(name);
      this.skipWs();
      if (this.s[this.i++] !== ':') this.fail('json-syntax', "expected ':'", this.i - 1);
      this.skipWs();
      Object.defineProperty(out, name, {
        value: this.value(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWs();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') this.fail('json-syntax', "expected ',' or '}'", this.i - 1);
    }
  }
}

/** Parses with the explicit parser; returns the value or the first failure. */
export function parseJsonExplicit(
  text: string,
  maxDepth: number,
): { ok: true; value: JsonValue } | { ok: false; failure: JsonFailure } {
  try {
    return { ok: true, value: new Parser(text, maxDepth).document() };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, failure: error.failure };
    throw error;
  }
}

/** Names the first reason `text` is not exactly one JSON value within `maxDepth`. */
export function explainJsonFailure(text: string, maxDepth: number): JsonFailure {
  const result = parseJsonExplicit(text, maxDepth);
  if (!result.ok) return result.failure;
  // The fast path refused what the explicit parser accepts: a defect, so fail closed.
  return { reason: 'json-syntax', message: 'document rejected by the strict parser', offset: 0 };
}
