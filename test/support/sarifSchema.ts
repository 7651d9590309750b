// Validates SARIF logs against the SARIF 2.1.0 JSON schema. The schema comes from an npm
// package, never from the network: @microsoft/jest-sarif (Microsoft's SARIF SDK for
// JavaScript) ships the 2.1.0 schema it validates with, `sarif-2.1.0-rtm.5.json`, the
// schema of the final 2.1.0 release (JSON Schema draft-04, hence ajv-draft-04).
import * as fs from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv-draft-04';
import addFormats from 'ajv-formats';

export const SARIF_SCHEMA_PATH = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

let validator: ((log: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

/** The schema's complaints about `log`; empty when it is valid SARIF 2.1.0. */
export function sarifErrors(log: unknown): string[] {
  if (!validator) {
    const schema = JSON.parse(fs.readFileSync(SARIF_SCHEMA_PATH, 'utf8'));
    // unicodeRegExp: false, because the schema's language-tag pattern
    // (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) is not a valid regular expression in
    // JavaScript's unicode mode. strict: false, as draft-04 schemas carry keywords ajv's
    // strict mode rejects (`id`, unknown formats' neighbours).
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  if (validator(log)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
