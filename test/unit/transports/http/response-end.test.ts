import { endWhenRead, onResponseEnd, takeResponseEnd } from '../../../../src/transports/http/response-end';

function eventStream(): { response: Response; push: (text: string) => void; close: () => void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return { response, push: (text) => controller.enqueue(new TextEncoder().encode(text)), close: () => controller.close() };
}

describe('onResponseEnd', () => {
  it('ends a JSON answer (or none) at once, and attaches nothing to it', () => {
    const ended = jest.fn();
    const json = onResponseEnd(Response.json({ ok: true }), ended);
    const none = onResponseEnd(new Response(null, { status: 202 }), ended);
    expect(ended).toHaveBeenCalledTimes(2);
    expect(takeResponseEnd(json)).toBeUndefined();
    expect(takeResponseEnd(none)).toBeUndefined();
  });

  it('leaves an event stream as it is, its end for the entry that writes it to take once and call', () => {
    const ended = jest.fn();
    const { response } = eventStream();
    expect(onResponseEnd(response, ended)).toBe(response);
    expect(ended).not.toHaveBeenCalled();
    const end = takeResponseEnd(response)!;
    expect(takeResponseEnd(response)).toBeUndefined();
    end();
    end();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('on the web entry, ends when the stream has been read to the end', async () => {
    const ended = jest.fn();
    const stream = eventStream();
    const web = endWhenRead(onResponseEnd(stream.response, ended));
    expect(web).not.toBe(stream.response);
    expect(web.headers.get('content-type')).toBe('text/event-stream');
    stream.push('data: 1\n\n');
    const reader = web.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    expect(ended).not.toHaveBeenCalled();
    stream.close();
    expect((await reader.read()).done).toBe(true);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('on the web entry, ends when the reader cancels (the client went away)', async () => {
    const ended = jest.fn();
    const stream = eventStream();
    const web = endWhenRead(onResponseEnd(stream.response, ended));
    await web.body!.cancel('gone');
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('hands on a response with no end attached as it is', () => {
    const { response } = eventStream();
    expect(endWhenRead(response)).toBe(response);
  });
});
