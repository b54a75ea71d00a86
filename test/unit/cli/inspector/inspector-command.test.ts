import { CliError } from '../../../../packages/cli/src/cli-error';
import { parseInspector } from '../../../../packages/cli/src/inspector/inspector-command';
import { QuestionDesk, readAnswer } from '../../../../packages/cli/src/inspector/question-desk';

const URL_ = 'http://127.0.0.1:3000/mcp';

describe('parseInspector', () => {
  it('reads a URL, --port, --token and --header; MCP_TOKEN when no --token', () => {
    expect(parseInspector([URL_, '--port', '6274', '--header', 'X-Team: billing', '--token', 't0k'], {})).toEqual({
      command: 'inspector',
      target: { kind: 'http', url: new URL(URL_) },
      headers: { 'X-Team': 'billing', Authorization: 'Bearer t0k' },
      port: 6274
    });
    expect(parseInspector([URL_], { MCP_TOKEN: 'env' })).toMatchObject({ port: 0, headers: { Authorization: 'Bearer env' } });
  });

  it('reads --stdio as a command line split like a shell', () => {
    expect(parseInspector(['--stdio', "node 'my server.js' --stdio"], {})).toMatchObject({
      target: { kind: 'stdio', command: 'node', args: ['my server.js', '--stdio'] }
    });
  });

  it.each([
    [[], /needs a server/],
    [['ftp://x'], /only http/],
    [['not a url'], /is not a URL/],
    [[URL_, URL_], /one too many/],
    [[URL_, '--port', '70000'], /not a port number/],
    [[URL_, '--port'], /needs a value/],
    [[URL_, '--era', '2025'], /unknown option --era/]
  ])('refuses %j with the fix, as a usage error', (argv, message) => {
    expect(() => parseInspector(argv, {})).toThrow(CliError);
    expect(() => parseInspector(argv, {})).toThrow(message);
  });
});

describe('QuestionDesk', () => {
  it('shows a question, settles it with the first answer only, and tells the pages it closed', async () => {
    const shown: string[] = [];
    const closed: string[] = [];
    const desk = new QuestionDesk(
      (question) => shown.push(question.message),
      (id) => closed.push(id)
    );
    const answer = desk.ask({ message: 'Refund?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });
    const [question] = desk.open();
    expect(question).toMatchObject({ message: 'Refund?', mode: 'form', requestedSchema: { type: 'object' } });
    expect(desk.answer(question.questionId, { action: 'accept', content: { confirm: true } })).toBe(true);
    expect(desk.answer(question.questionId, { action: 'decline' })).toBe(false);
    await expect(answer).resolves.toEqual({ action: 'accept', content: { confirm: true } });
    expect(shown).toEqual(['Refund?']);
    expect(closed).toEqual([question.questionId]);
    expect(desk.open()).toEqual([]);
  });

  it('answers cancel when the request is aborted (the call was cancelled), and leaves no listener behind', async () => {
    const desk = new QuestionDesk(
      () => undefined,
      () => undefined
    );
    const controller = new AbortController();
    const answer = desk.ask({ message: 42 }, controller.signal);
    expect(desk.open()[0].message).toBe('(the server sent no message)');
    controller.abort();
    await expect(answer).resolves.toEqual({ action: 'cancel' });
    expect(desk.open()).toEqual([]);
  });

  it('reads the url mode, and answers from the page only in the shapes of the protocol', () => {
    const desk = new QuestionDesk(
      () => undefined,
      () => undefined
    );
    void desk.ask({ mode: 'url', message: 'Sign in', url: 'https://example.com/auth' });
    expect(desk.open()[0]).toMatchObject({ mode: 'url', url: 'https://example.com/auth' });
    desk.cancelAll();
    expect(readAnswer({ action: 'accept', content: { a: 1 } })).toEqual({ action: 'accept', content: { a: 1 } });
    expect(readAnswer({ action: 'decline', content: { a: 1 } })).toEqual({ action: 'decline' });
    expect(readAnswer({ action: 'accept', content: [1] })).toBeUndefined();
    expect(readAnswer({ action: 'ok' })).toBeUndefined();
    expect(readAnswer(null)).toBeUndefined();
  });
});
