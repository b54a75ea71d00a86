/** An error in Ajv's shape: what schema-check.ts turns into a violation (the interpreted engine produces the same). */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
  readonly data?: unknown;
}
