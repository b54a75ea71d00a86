/**
 * A JSON answer whose text the entry has at hand (the front lanes' answers: a call's response
 * that came before anything else). It is a web `Response` without a body, carrying its text and
 * header fields beside it: the Node entry writes the text itself, in one piece with its length,
 * and the web entry hands on an ordinary `Response` made from it (`webResponseOf`). A web
 * `Response` with a body, read back through web streams to be written to the socket, cost the
 * front lane about a twentieth of the gateway's CPU a call.
 */

/** What a JSON answer carries beside its bodiless `Response`. */
export interface JsonAnswerText {
  /** The body. */
  readonly text: string;
  /** Its header fields, lower-case names (the `Response` has the same). */
  readonly fields: Readonly<Record<string, string>>;
}

/** Where the text is kept on the response (a symbol: nothing else reads or copies it). */
const TEXT = Symbol('mcpfusion.jsonAnswer');

interface TextResponse extends Response {
  [TEXT]?: JsonAnswerText;
}

/** A JSON answer of `text` with `status` and header `fields` (see above). */
export function jsonAnswer(text: string, status: number, fields: Readonly<Record<string, string>>): Response {
  const response = new Response(null, { status, headers: fields }) as TextResponse;
  response[TEXT] = { text, fields };
  return response;
}

/** The text and fields of a JSON answer made by `jsonAnswer`; undefined for any other response. */
export function jsonAnswerText(response: Response): JsonAnswerText | undefined {
  return (response as TextResponse)[TEXT];
}

/** The response as a web server sends it: a JSON answer gets its body; any other response is returned as it is. */
export function webResponseOf(response: Response): Response {
  const answer = jsonAnswerText(response);
  return answer ? new Response(answer.text, { status: response.status, headers: answer.fields }) : response;
}
