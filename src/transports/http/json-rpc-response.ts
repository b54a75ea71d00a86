/** A JSON-RPC error answered at the HTTP layer (no request reached a server). */
export function jsonRpcErrorResponse(status: number, code: number, message: string, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json' }
  });
}
