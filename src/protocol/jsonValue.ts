/**
 * The JSON data model (RFC 8259) every parsed protocol document is read into. A leaf of its
 * own, so both parsers (`strictJson.ts` and its explicit oracle `explainJson.ts`) name the same
 * types without importing each other.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [member: string]: JsonValue;
}
