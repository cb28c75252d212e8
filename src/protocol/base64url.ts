/**
 * Canonical unpadded base64url (RFC 4648 §5 without `=`, §3.5 zero pad bits), as §2 requires.
 *
 * Node's decoder is lenient (it skips foreign characters and ignores pad bits), so a value is
 * canonical only when it uses the URL-safe alphabet and re-encodes to exactly itself.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Decodes a canonical base64url string; `null` for any noncanonical or foreign spelling. */
export function decodeBase64url(text: string): Buffer | null {
  if (text.length % 4 === 1 || !ALPHABET.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

/** Encodes bytes as canonical unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}
