/** Unpadded base64url (RFC 4648 §5), the protocol's encoding of keys and signatures. */

export function encodeBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A fresh `urn:uuid:` identifier (Action IDs, Message IDs, Approval IDs). */
export function freshUrn(): string {
  return `urn:uuid:${crypto.randomUUID()}`;
}
