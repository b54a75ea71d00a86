import { createServer, request as httpRequest, type Server } from 'node:http';
import { jsonAnswer, jsonAnswerText, webResponseOf } from '../../../../src/transports/http/json-answer';
import { writeNodeResponse } from '../../../../src/transports/http/node-entry';
import { onResponseEnd } from '../../../../src/transports/http/response-end';

const TEXT = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'héllo' }] } });
const FIELDS = { 'content-type': 'application/json', 'mcp-session-id': 's-1' };

describe('jsonAnswer', () => {
  it('is a bodiless Response with its status and headers, its text kept beside it', () => {
    const answer = jsonAnswer(TEXT, 200, FIELDS);
    expect(answer.body).toBeNull();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toBe('s-1');
    expect(jsonAnswerText(answer)).toEqual({ text: TEXT, fields: FIELDS });
    expect(jsonAnswerText(Response.json({}))).toBeUndefined();
  });

  it('is made an ordinary Response with its body for a web server; any other response passes as it is', async () => {
    const web = webResponseOf(jsonAnswer(TEXT, 400, FIELDS));
    expect(jsonAnswerText(web)).toBeUndefined();
    expect(web.status).toBe(400);
    expect(web.headers.get('content-type')).toBe('application/json');
    expect(await web.text()).toBe(TEXT);
    const other = Response.json({ ok: true });
    expect(webResponseOf(other)).toBe(other);
  });

  it('counts as ended at once where a session counts its requests in flight (no stream to wait for)', () => {
    const ended = jest.fn();
    onResponseEnd(jsonAnswer(TEXT, 200, FIELDS), ended);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  describe('on the Node entry', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_req, res) => void writeNodeResponse(jsonAnswer(TEXT, 200, FIELDS), res, new AbortController().signal));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('is written in one piece with its byte length and its fields', async () => {
      const { status, headers, body } = await new Promise<{ status?: number; headers: Record<string, unknown>; body: string }>(
        (resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          });
          req.on('error', reject);
          req.end();
        }
      );
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['mcp-session-id']).toBe('s-1');
      expect(headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
      expect(headers['transfer-encoding']).toBeUndefined();
      expect(body).toBe(TEXT);
    });
  });
});
