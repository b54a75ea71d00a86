import { readWebBody } from '../../../../src/transports/http/web-body';

const post = (body: BodyInit, headers: Record<string, string> = {}): Request =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A body streamed in chunks, with no declared length (chunked on the wire). */
function streamed(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    }
  });
}

describe('readWebBody', () => {
  it('reads a body that declares its length within the bound in one piece', async () => {
    const text = '{"jsonrpc":"2.0","method":"ping","id":1,"é":"ü"}';
    const read = await readWebBody(post(text, { 'content-length': String(Buffer.byteLength(text)) }), 1000);
    expect(read).toEqual({ tooLarge: false, text });
  });

  it('refuses a declared length over the bound without reading the body', async () => {
    const request = post('x'.repeat(10), { 'content-length': '2000' });
    expect(await readWebBody(request, 1000)).toEqual({ tooLarge: true });
    expect(request.bodyUsed).toBe(false);
  });

  it('reads a body without a declared length chunk by chunk, and refuses it once past the bound', async () => {
    expect(await readWebBody(post(streamed(['{"a":', '1}'])), 1000)).toEqual({ tooLarge: false, text: '{"a":1}' });
    expect(await readWebBody(post(streamed(['x'.repeat(600), 'y'.repeat(600)])), 1000)).toEqual({ tooLarge: true });
  });

  it('refuses a body built in process that holds more than the bound whatever it declared', async () => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', body: 'x'.repeat(2000) });
    request.headers.set('content-length', '10');
    expect(await readWebBody(request, 1000)).toEqual({ tooLarge: true });
  });

  it('reads an empty body', async () => {
    expect(await readWebBody(new Request('http://127.0.0.1/mcp', { method: 'POST' }), 1000)).toEqual({ tooLarge: false, text: '' });
  });

  it('on Bun reads a declared length chunk by chunk (its whole-body read costs CPU on another thread), within the same bounds', async () => {
    const runtime = globalThis as { Bun?: unknown };
    runtime.Bun = {};
    try {
      let onBun: typeof readWebBody | undefined;
      jest.isolateModules(() => {
        onBun = (require('../../../../src/transports/http/web-body') as { readWebBody: typeof readWebBody }).readWebBody;
      });
      const text = '{"jsonrpc":"2.0","method":"ping","id":1,"é":"ü"}';
      const request = post(text, { 'content-length': String(Buffer.byteLength(text)) });
      request.text = () => Promise.reject(new Error('read whole'));
      expect(await onBun!(request, 1000)).toEqual({ tooLarge: false, text });
      const over = post('x'.repeat(10), { 'content-length': '2000' });
      expect(await onBun!(over, 1000)).toEqual({ tooLarge: true });
      expect(over.bodyUsed).toBe(false);
      const lying = new Request('http://127.0.0.1/mcp', { method: 'POST', body: 'x'.repeat(2000) });
      lying.headers.set('content-length', '10');
      expect(await onBun!(lying, 1000)).toEqual({ tooLarge: true });
    } finally {
      delete runtime.Bun;
    }
  });
});
