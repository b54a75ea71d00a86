/**
 * Whether this runtime lets code be generated from strings (`new Function`). Cloudflare Workers
 * forbid it (an `EvalError`), so Ajv's compiled validators cannot run there. Probed once, on first
 * need (never at import: the probe is cheap, but nothing runs at module level).
 */
let allowed: boolean | undefined;

/** True where `new Function` works (Node, Bun, Deno); false in workerd and under a CSP that forbids eval. */
export function codeGenerationAllowed(): boolean {
  if (allowed !== undefined) return allowed;
  try {
    allowed = (new Function('return true') as () => boolean)() === true;
  } catch {
    allowed = false;
  }
  return allowed;
}
