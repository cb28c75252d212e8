/**
 * The operator CLI as a user runs it: the built `dist/cli/main.js` in a child process.
 */

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { makeKey, unsignedCommand } from './support/keys.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { describeWithSpec, SPEC_DIR } from './support/spec.js';

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'mw-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', env: { ...process.env, MW_SPEC_DIR: SPEC_DIR } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const actor = { type: 'agent', id: 'urn:missionweave:agent:cli' } as const;
const command = JSON.stringify(signDocument('command', unsignedCommand(actor), makeKey(actor).signingKey));
const { goal: _goal, ...contractWithoutGoal } = EXAMPLE_WORK_CONTRACT;
const incomplete = JSON.stringify(
  signDocument('command', unsignedCommand(actor, { kind: 'work.propose', payload: { proposalId: 'urn:x:proposal', contract: contractWithoutGoal } }), makeKey(actor).signingKey),
);

describe('missionweave validate', () => {
  it('exits 0 for a valid document, from a file or stdin', () => {
    expect(run(['validate', 'command', file('ok.json', command)]).code).toBe(0);
    expect(run(['validate', 'command', '-'], command).code).toBe(0);
  });

  it('exits 1 with the §19 code and a reason for invalid documents', () => {
    const cases: [string, string][] = [
      [command.replace('"kind"', '"extra":1,"kind"'), 'SCHEMA_VALIDATION_FAILED'],
      [command.replace('{', '{"kind":"x",'), 'PROTOCOL_VIOLATION: json-duplicate-member'],
      [command.replace('"content":"hello"', '"content":"hello","n":1e400'), 'SCHEMA_VALIDATION_FAILED'],
      [command.replace('"sessionEpoch":1', '"sessionEpoch":1,"extensions":{"urn:x:y":{"version":"1.0.0","critical":false,"data":1e400}}'), 'PROTOCOL_VIOLATION: jcs-non-finite-number'],
      [`\ufeff${command}`, 'PROTOCOL_VIOLATION: json-byte-order-mark'],
      [`${command} {}`, 'PROTOCOL_VIOLATION: json-trailing-data'],
      [incomplete, 'WORK_CONTRACT_INCOMPLETE'],
    ];
    for (const [text, expected] of cases) {
      const result = run(['validate', 'command', '-'], text);
      expect(result.code, expected).toBe(1);
      expect(result.stderr.startsWith(expected), result.stderr).toBe(true);
    }
  });

  it('exits 2 for usage errors only', () => {
    expect(run(['validate', 'no-such-object', '-'], '{}').code).toBe(2);
    expect(run(['validate', 'command']).code).toBe(2);
    expect(run(['validate', 'command', join(scratch, 'missing.json')]).code).toBe(2);
    expect(run(['frobnicate']).code).toBe(2);
  });
});

describeWithSpec('missionweave conformance', () => {
  it('reports 58/58, 62/62 and 30/30 as its last JSON line and exits 0', () => {
    const result = run(['conformance', '--json']);
    expect(result.code, result.stdout).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as Record<string, { passed: number; failed: number; total: number }>;
    expect(summary['structural']).toMatchObject({ passed: 58, failed: 0, total: 58 });
    expect(summary['cryptography']).toMatchObject({ passed: 62, failed: 0, total: 62 });
    expect(summary['admission']).toMatchObject({ passed: 30, failed: 0, total: 30 });
  });

  it('fails on a tampered bundle: changed bytes and a flipped expectation', () => {
    const copy = join(scratch, 'bundle');
    cpSync(SPEC_DIR, copy, { recursive: true });
    const vector = join(copy, 'cryptography/vectors/signed-documents/valid/command.json');
    writeFileSync(vector, readFileSync(vector, 'utf8').replace('"sessionEpoch": 7', '"sessionEpoch": 8'));
    const manifestPath = join(copy, 'conformance/manifest.json');
    writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace('"valid": true', '"valid": false'));
    const result = run(['conformance', '--spec', copy, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('integrity: cryptography/vectors/signed-documents/valid/command.json: sha256 differs');
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as Record<string, { failed: number }>;
    expect(summary['structural']?.failed).toBe(1);
    expect(summary['cryptography']?.failed).toBeGreaterThan(0);
  });
});
